import Dispatch
import Foundation
import SignupCore

/// `--record FILE`: the session as JSON lines — a header, then every message in and out and every
/// backend question and answer, each with its time on the server's clock, in the order the event
/// loop took them. Secrets are replaced by placeholders of the same shape and validity
/// (`SecretPlaceholders`). The format is in protocol.md §15; `Recording` reads it back.
///
/// Used on the event loop only (in process, by whoever drives the server).
final class SessionRecorder: BackendObserver {
    /// Where the lines go: a file (written as the buffer fills, and at each flush) or memory.
    enum Destination {
        case file(Int32)
        case memory
    }

    static let formatVersion = 1

    private let destination: Destination
    // Touched by this recorder's own calls only, on the loop, none of which calls out while it
    // writes here; checked by the runtime in debug builds, as the form table is.
    #if DEBUG
    private var buffer = JSONWriter(capacity: SessionRecorder.bufferSize + 4096)
    #else
    @exclusivity(unchecked) private var buffer = JSONWriter(capacity: SessionRecorder.bufferSize + 4096)
    #endif
    private static let bufferSize = 1 << 18
    /// Writes full buffers to the file off the loop, in order.
    private let fileWriter = DispatchQueue(label: "signup-rpc.recording")
    /// Everything written to `.memory`.
    private(set) var bytes: [UInt8] = []
    private let now: () -> Int64
    /// The field a secret value belongs to, for its placeholder's rules: nil when the field is not
    /// secret. Set by whoever makes the server, once it is made.
    var secretField: (_ form: String?, _ kind: String?, _ field: String) -> FieldDefinition? = { _, _, _ in nil }
    /// The secret fields plain `form.edit` lines have named, by form and field: emptied by any
    /// `form.open` or `form.close`, the only messages that change which kind a form id names.
    private var secretFieldsByForm: [FieldKey: SecretField] = [:]

    private struct FieldKey: Hashable {
        let form: String?
        let field: String
    }
    /// Runs the flush it is given once the loop's current work is done; nil to flush only as the
    /// buffer fills and at the end.
    var flushAfterWork: ((@escaping () -> Void) -> Void)?
    private var isFlushPending = false
    /// Names of every secret field any form kind has, to pick out lines that may hold a secret.
    private let secretNames: [[UInt8]]
    private var placeholders: SecretPlaceholders
    /// Every secret field's name, so an edit of any other field is recorded without looking further.
    private let secretFieldNames: Set<String>
    /// Secrets that came from a backend (tokens), which output may carry, as their bytes.
    private var backendSecrets: [[UInt8]] = []
    private var nextQuestion = 1
    private let maxDepth: Int
    private var isEnded = false
    /// Warned once when a placeholder could not keep its secret's validity.
    private var warnedApproximation = false
    private let logger: Logger?

    init(destination: Destination, header: Recording.Header, secretFieldNames: Set<String>, maxDepth: Int, logger: Logger? = nil,
         now: @escaping () -> Int64) {
        self.destination = destination
        self.now = now
        self.secretFieldNames = secretFieldNames
        // A real session's placeholders are keyed at random, so they tell nothing of their
        // secrets; a virtual one's repeat byte for byte, like the rest of its output.
        placeholders = header.clock == .real ? SecretPlaceholders(key: UInt64.random(in: .min ... .max)) : SecretPlaceholders()
        self.maxDepth = maxDepth
        self.logger = logger
        secretNames = secretFieldNames.sorted().map { Array($0.utf8) }
        buffer.object { body in
            body.key("signupRecording"); body.int(Self.formatVersion)
            body.key("server"); body.string("\(Server.name) \(Server.version)")
            body.key("clock"); body.string(header.clock.rawValue)
            body.key("debounceMs"); body.int(header.debounce)
            body.key("backend"); body.string(header.backend)
            body.key("roles")
            body.array { roles in
                roles.string("availability")
                roles.string("register")
                if header.logsIn { roles.string("logIn") }
                if header.savesFriends { roles.string("friends") }
            }
            body.key("limits"); header.limits.write(to: &body)
            body.key("forms"); body.array { list in header.formFiles.forEach { list.json($0) } }
        }
        buffer.newline()
    }

    /// A recorder for a server of `configuration` with these form kinds and backends.
    convenience init(destination: Destination, configuration: ServerConfiguration, catalog: FormCatalog, services: FormServices,
                     logger: Logger? = nil, now: @escaping () -> Int64) {
        let header = Recording.Header(
            clock: configuration.clock, debounce: configuration.debounce.milliseconds, limits: configuration.limits,
            backend: configuration.backend.name, logsIn: services.authentication != nil, savesFriends: services.friends != nil,
            formFiles: configuration.customFormDocuments)
        self.init(destination: destination, header: header,
                  secretFieldNames: Set(catalog.definitions.flatMap { $0.fields.filter(\.isSecret).map(\.name) }),
                  maxDepth: configuration.limits.maxDepth, logger: logger, now: now)
    }

    /// What the server's forms are made with, so that every question, answer and message passes here.
    func observing(_ services: FormServices, sendingTo sink: any MessageSink) -> (FormServices, any MessageSink) {
        (ObservedBackend.observing(services, with: self), RecordingSink(sink, recorder: self))
    }

    /// Looks up secret fields in `server` from now on.
    func findSecretFields(in server: Server) {
        secretField = { [weak server] form, kind, field in server?.secretField(field, inForm: form, kind: kind) }
    }

    // MARK: Messages

    /// A message as the loop takes it, before it is handled.
    func recordIn(_ item: borrowing InputItem) {
        let time = now()
        switch item {
        case .edit(let edit):
            begin(time)
            buffer.key("in")
            write(edit)
        case .line(let line):
            line.withUnsafeBufferPointer { recordIn(line: $0, at: time) }
            return
        case .oversizeLine:
            begin(time)
            buffer.key("oversize"); buffer.bool(true)
        }
        end()
    }

    private func recordIn(line: UnsafeBufferPointer<UInt8>, at time: Int64) {
        let mayHoldSecret = secretNames.contains { Self.contains(line, $0) }
        begin(time)
        do throws(JSONParseError) {
            let message = try JSONParser.parse(line, maxDepth: maxDepth)
            if Self.opensOrCloses(message) { secretFieldsByForm.removeAll(keepingCapacity: true) }
            buffer.key("in")
            if mayHoldSecret {
                buffer.json(hidingSecrets(in: message))
            } else {
                buffer.verbatim(UnsafeRawBufferPointer(line))
            }
        } catch {
            // Not JSON: kept as text (its letters and digits after a `"value` masked when it names a
            // secret field), or as base64 when it is not even UTF-8.
            var bytes = Array(line)
            if mayHoldSecret { Self.mask(&bytes) }
            if let text = String(validating: bytes, as: UTF8.self) {
                buffer.key("text"); buffer.string(text)
            } else {
                buffer.key("base64"); buffer.string(Data(bytes).base64EncodedString())
            }
        }
        end()
    }

    /// Whether a message (or any in a batch) opens or closes a form.
    private static func opensOrCloses(_ message: JSON) -> Bool {
        switch message {
        case .array(let elements): return elements.contains(where: opensOrCloses)
        default: return message["method"] == .string("form.open") || message["method"] == .string("form.close")
        }
    }

    /// A whole message the server sends, as sent.
    func recordOut(_ message: UnsafeRawBufferPointer) {
        begin(now())
        buffer.key("out")
        let line = UnsafeBufferPointer(start: message.baseAddress?.assumingMemoryBound(to: UInt8.self), count: message.count)
        if !backendSecrets.isEmpty, backendSecrets.contains(where: { Self.contains(line, $0) }),
           let parsed = try? JSONParser.parse(line, maxDepth: 10_000) {
            buffer.json(replacingBackendSecrets(in: parsed))
        } else {
            buffer.verbatim(message)
        }
        end()
    }

    /// The session's end: `input` (end of input), `exit`, `signal` or `clientGone`.
    func recordEnd(_ reason: String) {
        guard !isEnded else { return }
        isEnded = true
        begin(now())
        buffer.key("end"); buffer.string(reason)
        end()
        flush()
        waitUntilWritten()
    }

    // MARK: Backend

    func backendAsked(_ question: BackendQuestion) -> Int {
        let number = nextQuestion
        nextQuestion += 1
        let hidden: BackendQuestion = switch question {
        case .registration(let username, let password): .registration(username: username, password: placeholder(for: password))
        case .login(let username, let password): .login(username: username, password: placeholder(for: password))
        default: question
        }
        begin(now())
        buffer.key("ask"); buffer.int(number)
        BackendExchangeJSON.write(hidden, to: &buffer)
        end()
        return number
    }

    func backendAnswered(_ number: Int, _ answer: BackendAnswer) {
        let hidden: BackendAnswer = switch answer {
        case .registration(.registered(let account)): .registration(.registered(account: hidingSecrets(in: account)))
        case .login(.loggedIn(let token)): .login(.loggedIn(token: backendSecret(token)))
        default: answer
        }
        begin(now())
        buffer.key("answer"); buffer.int(number)
        BackendExchangeJSON.write(hidden, to: &buffer)
        end()
    }

    func backendCancelled(_ number: Int) {
        begin(now())
        buffer.key("cancel"); buffer.int(number)
        end()
    }

    // MARK: Writing

    /// Writes what is buffered (a file recording); the loop calls it after each piece of work in
    /// real time, and as the buffer fills.
    func flush() {
        guard buffer.count > 0 else { return }
        switch destination {
        case .memory:
            buffer.withBytes { self.bytes.append(contentsOf: $0) }
        case .file(let fd):
            let chunk = buffer.withBytes { Array($0) }
            fileWriter.async { chunk.withUnsafeBytes { Self.writeAll($0, to: fd) } }
        }
        buffer.removeAll()
    }

    /// Waits until everything flushed so far is in the file.
    func waitUntilWritten() {
        fileWriter.sync {}
    }

    private func begin(_ time: Int64) {
        buffer.verbatim(#"{"t":"#)
        buffer.int(time)
        buffer.verbatim(",")
        // The members that follow are written as the first of an object.
    }

    private func end() {
        buffer.verbatim("}\n")
        if buffer.count >= Self.bufferSize {
            flush()
        } else if let flushAfterWork, !isFlushPending {
            isFlushPending = true
            flushAfterWork { [self] in
                isFlushPending = false
                flush()
            }
        }
    }

    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to fd: Int32) {
        var offset = 0
        while offset < bytes.count {
            let written = Foundation.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }

    // MARK: Secrets

    /// A secret field as its placeholders are made: normalised, then judged by its rules.
    private final class SecretField {
        let definition: FieldDefinition
        let isNormalized: Bool
        let rules: SecretPlaceholders.Rules

        init(_ definition: FieldDefinition) {
            self.definition = definition
            isNormalized = definition.normalization != .none
            rules = SecretPlaceholders.Rules(definition.rules)
        }

        /// The value as the field's rules see it.
        func normalized(_ value: String) -> String {
            isNormalized ? definition.normalized(value) : value
        }
    }

    private func secretField(of edit: FormEditLine) -> SecretField? {
        let key = FieldKey(form: edit.form, field: edit.field)
        if let known = secretFieldsByForm[key] { return known }
        guard let definition = secretField(edit.form, nil, edit.field) else { return nil }
        let field = SecretField(definition)
        secretFieldsByForm[key] = field
        return field
    }

    private func placeholder(for secret: String, rules: [Rule]) -> String {
        placeholder(for: secret, judgedBy: SecretPlaceholders.Rules(rules))
    }

    /// A field's secret is stood in for as its rules see it (normalised), so values that
    /// normalise alike, as a full-width repeat of a password does, keep matching.
    private func placeholder(for secret: String, judgedBy rules: SecretPlaceholders.Rules = .none) -> String {
        let made = placeholders.placeholder(for: secret, judgedBy: rules)
        if placeholders.approximations > 0, !warnedApproximation {
            warnedApproximation = true
            logger?.warning("recording: a secret's placeholder could not pass and fail exactly its rules; its replay may differ")
        }
        return made
    }

    /// A token or other secret a backend gave out: its placeholder, and output carrying it is rewritten.
    private func backendSecret(_ secret: String) -> String {
        if placeholders.existing(for: secret) == nil, !secret.isEmpty { backendSecrets.append(Array(secret.utf8)) }
        return placeholder(for: secret)
    }

    /// A plain `form.edit` as the server read it, its fixed parts written as they are.
    private func write(_ edit: FormEditLine) {
        let value = if secretFieldNames.contains(edit.field), let field = secretField(of: edit) {
            placeholder(for: field.normalized(edit.value), judgedBy: field.rules)
        } else {
            edit.value
        }
        buffer.verbatim(#"{"jsonrpc":"2.0","#)
        if let id = edit.id {
            buffer.verbatim(#""id":"#)
            id.write(&buffer)
            buffer.verbatim(",")
        }
        buffer.verbatim(#""method":"form.edit","params":{"#)
        if let form = edit.form {
            buffer.verbatim(#""form":"#)
            buffer.string(form)
            buffer.verbatim(",")
        }
        buffer.verbatim(#""field":"#)
        buffer.string(edit.field)
        buffer.verbatim(#","value":"#)
        buffer.string(value)
        if let at = edit.at {
            buffer.verbatim(#","at":"#)
            buffer.int(at)
        }
        buffer.verbatim("}}")
    }

    /// The message with its secret fields' values replaced by placeholders.
    private func hidingSecrets(in message: JSON) -> JSON {
        SecretValues.replacing(in: message) { value, place in
            guard case .string(let text) = value, let definition = secretField(place.form, place.kind, place.field) else { return nil }
            return .string(placeholder(for: definition.normalized(text), rules: definition.rules))
        }
    }

    /// An account a backend returned, with its `token`, `password` and `secret` members hidden.
    private func hidingSecrets(in account: JSONValue) -> JSONValue {
        switch account {
        case .object(let members):
            var hidden: [String: JSONValue] = [:]
            for (key, value) in members {
                let name = key.lowercased()
                if case .string(let secret) = value, ["token", "password", "secret"].contains(where: name.contains) {
                    hidden[key] = .string(backendSecret(secret))
                } else {
                    hidden[key] = hidingSecrets(in: value)
                }
            }
            return .object(hidden)
        case .array(let elements): return .array(elements.map(hidingSecrets))
        default: return account
        }
    }

    private func replacingBackendSecrets(in json: JSON) -> JSON {
        switch json {
        case .string(let text): return .string(placeholders.existing(for: text) ?? text)
        case .array(let elements): return .array(elements.map(replacingBackendSecrets))
        case .object(let members):
            return .object(members.map { JSON.Member(key: $0.key, value: replacingBackendSecrets(in: $0.value)) })
        default: return json
        }
    }

    /// Letters and digits after the first `"value` masked, in a line that is not JSON.
    private static func mask(_ bytes: inout [UInt8]) {
        let marker = Array(#""value"#.utf8)
        guard let start = bytes.indices.first(where: { bytes[$0...].starts(with: marker) }) else { return }
        for index in (start + marker.count)..<bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"): bytes[index] = UInt8(ascii: "x")
            case UInt8(ascii: "0")...UInt8(ascii: "9"): bytes[index] = UInt8(ascii: "0")
            default: break
            }
        }
    }

    private static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, haystack.count >= needle.count else { return false }
        var index = 0
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first, needle.indices.allSatisfy({ haystack[index + $0] == needle[$0] }) { return true }
            index += 1
        }
        return false
    }
}
