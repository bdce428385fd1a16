import Foundation

/// `--trace FILE`, and `--log-level debug` on stderr: every message in and out as one JSON
/// record a line, with the wall-clock time, so an integrator sees the traffic from the server's
/// side. Secrets never reach it: the values of secret fields (in `form.edit` and in `form.open`'s
/// `values` and `record`) and every `token` or `password` member read `"[secret]"`.
///
/// Records: `{"time":"…Z","dir":"in"|"out","message":…}`; input that is not JSON is traced as
/// `"text"` (its first 1 000 bytes), a line over the limit as `"oversize":true`.
final class Tracer: @unchecked Sendable {
    // Both guarded by `lock`: records come from the loop (in) and the writer thread (out).
    private let lock = NSLock()
    private let clock = ISO8601DateFormatter()
    /// Written under `lock`; one whose write fails (a full disk) is written no more.
    private let destinations: [OutputDescriptor]
    private let logger: Logger?
    private let secretFields: Set<String>
    private let maxDepth: Int

    static let secret = "[secret]"

    init(destinations: [Int32], secretFields: Set<String>, maxDepth: Int, logger: Logger? = nil) {
        self.destinations = destinations.map(OutputDescriptor.init)
        self.logger = logger
        self.secretFields = secretFields
        self.maxDepth = maxDepth
        clock.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    }

    /// A message as the loop takes it.
    func traceIn(_ item: borrowing InputItem) {
        switch item {
        case .line(let bytes): trace("in", bytes.withUnsafeBufferPointer { message(in: $0) })
        case .edit(let edit): trace("in", .message(redacted(Self.json(of: edit))))
        case .oversizeLine: trace("in", .oversize)
        }
    }

    /// Whole messages as the writer writes them, each followed by `\n`.
    func traceOut(_ bytes: UnsafeRawBufferPointer) {
        var start = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            let line = UnsafeBufferPointer(rebasing: bytes.bindMemory(to: UInt8.self)[start..<end])
            trace("out", message(in: line))
            start = end + 1
        }
    }

    private enum Record {
        case message(JSON)
        case text(String)
        case oversize
    }

    private func message(in line: UnsafeBufferPointer<UInt8>) -> Record {
        do throws(JSONParseError) {
            return .message(redacted(try JSONParser.parse(line, maxDepth: maxDepth)))
        } catch {
            return .text(String(decoding: line.prefix(1000), as: UTF8.self))
        }
    }

    private func trace(_ direction: StaticString, _ record: Record) {
        lock.withLock {
            var writer = JSONWriter(capacity: 256)
            writer.object { body in
                body.key("time"); body.string(clock.string(from: Date()))
                body.key("dir"); body.string("\(direction)")
                switch record {
                case .message(let json): body.key("message"); body.json(json)
                case .text(let text): body.key("text"); body.string(text)
                case .oversize: body.key("oversize"); body.bool(true)
                }
            }
            writer.newline()
            writer.withBytes { bytes in
                for destination in destinations {
                    // Not said when stderr itself fails: the warning would go there.
                    if let reason = destination.write(bytes), destination.fd != STDERR_FILENO {
                        logger?.warning("trace: writing the file failed (\(reason)); it stops here")
                    }
                }
            }
        }
    }

    /// The message with every secret replaced: secret fields' values and `token` and `password` members.
    func redacted(_ json: JSON) -> JSON {
        let fieldsHidden = SecretValues.replacing(in: json) { _, place in
            secretFields.contains(place.field) ? .string(Self.secret) : nil
        }
        return Self.hidingSecretMembers(fieldsHidden)
    }

    /// `token` and `password` members anywhere (an account's token, a field named password).
    private static func hidingSecretMembers(_ json: JSON) -> JSON {
        switch json {
        case .object(let members):
            return .object(members.map { member in
                ["token", "password"].contains(member.key)
                    ? JSON.Member(key: member.key, value: .string(secret))
                    : JSON.Member(key: member.key, value: hidingSecretMembers(member.value))
            })
        case .array(let elements): return .array(elements.map(hidingSecretMembers))
        default: return json
        }
    }

    private static func json(of edit: FormEditLine) -> JSON {
        var params: [JSON.Member] = []
        if let form = edit.form { params.append(.init(key: "form", value: .string(form))) }
        params.append(.init(key: "field", value: .string(edit.field)))
        params.append(.init(key: "value", value: .string(edit.value)))
        if let at = edit.at { params.append(.init(key: "at", value: .number(String(at)))) }
        var members: [JSON.Member] = [.init(key: "jsonrpc", value: .string("2.0"))]
        switch edit.id {
        case .string(let text)?: members.append(.init(key: "id", value: .string(text)))
        case .number(let text)?: members.append(.init(key: "id", value: .number(text)))
        case .null?: members.append(.init(key: "id", value: .null))
        case nil: break
        }
        members.append(.init(key: "method", value: .string("form.edit")))
        members.append(.init(key: "params", value: .object(params)))
        return .object(members)
    }
}
