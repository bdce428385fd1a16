import SignupProtocol
import SignupTransport

/// What the writer takes in one go: messages each followed by `\n`, less the ranges of events
/// that newer ones replaced, and notifications still to be encoded in between.
struct OutgoingBatch: @unchecked Sendable {
    let buffer: OutgoingBuffer
    /// In ascending order.
    let dropped: [Range<Int>]
    /// Runs of notifications, in ascending order of position; only in a batch without dropped ranges.
    let deferred: [(position: Int, notifications: [FormNotification])]

    /// Above this many bytes, encoded output is handed to `body` before more is encoded.
    static let encodedRunBytes = 64 << 10

    /// Calls `body` with each run of bytes to write, in order, encoding deferred notifications into
    /// `scratch` between the buffer's runs.
    /// `fields` holds the field results the notifications name by number.
    func forEachRun(encodingInto scratch: inout JSONWriter, fields: EncodedFieldTable.Snapshot?,
                    _ body: (UnsafeRawBufferPointer) -> Void) {
        guard !deferred.isEmpty else { return forEachRun(body) }
        precondition(dropped.isEmpty, "a conflating queue never defers notifications")
        scratch.removeAll()
        var start = 0
        for (position, notifications) in deferred {
            scratch.verbatim(buffer.bytes(in: start..<position))
            start = position
            // Read in place: iterating the array would copy each notification.
            notifications.withUnsafeBufferPointer { notifications in
                for index in notifications.indices {
                    notifications[index].write(to: &scratch, fields: fields)
                    scratch.newline()
                    if scratch.count >= Self.encodedRunBytes {
                        scratch.withBytes(body)
                        scratch.removeAll()
                    }
                }
            }
        }
        scratch.verbatim(buffer.bytes(in: start..<buffer.count))
        if scratch.count > 0 { scratch.withBytes(body) }
    }

    /// Calls `body` with each run of bytes to write, in order.
    func forEachRun(_ body: (UnsafeRawBufferPointer) -> Void) {
        var start = 0
        for range in dropped {
            if range.lowerBound > start { body(buffer.bytes(in: start..<range.lowerBound)) }
            start = range.upperBound
        }
        if start < buffer.count { body(buffer.bytes(in: start..<buffer.count)) }
    }

    /// The messages, without their newlines (for tests).
    var messages: [[UInt8]] {
        var runs: [UInt8] = []
        forEachRun { runs.append(contentsOf: $0) }
        return runs.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().map(Array.init)
    }
}
