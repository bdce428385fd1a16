/// What the writer takes in one go: messages each followed by `\n`, less the ranges of events
/// that newer ones replaced, and messages still to be encoded in between.
package struct OutgoingBatch: @unchecked Sendable {
    // Unchecked Sendable: made under the queue's lock and handed to the writer thread, the only
    // one to touch it after.
    package let buffer: OutgoingBuffer
    /// In ascending order.
    package let dropped: [Range<Int>]
    /// Runs of deferred messages, in ascending order of position; only in a batch without dropped ranges.
    package let deferred: [(position: Int, output: any DeferredOutput)]

    /// Runs of output shorter than this are gathered in the writer's scratch buffer up to this
    /// size, so that a batch of many small pieces is written in few `write(2)` calls.
    package static let gatheredRunBytes = 64 << 10

    /// Calls `body` with each run of bytes to write, in order, encoding deferred messages between
    /// the buffer's runs and gathering short runs in `scratch`: runs whose encoder said the same of
    /// them (`LineScreening`), so that each run goes on with what was said of all its lines.
    package func forEachRun(gatheringIn scratch: inout [UInt8], _ body: (UnsafeRawBufferPointer, LineScreening) -> Void) {
        guard !deferred.isEmpty else { return forEachRun { body($0, .needed) } }
        precondition(dropped.isEmpty, "a conflating queue never defers messages")
        scratch.removeAll(keepingCapacity: true)
        var gathered = LineScreening.needed
        func gather(_ run: UnsafeRawBufferPointer, _ screening: LineScreening) {
            if !scratch.isEmpty, scratch.count + run.count > Self.gatheredRunBytes || screening != gathered {
                scratch.withUnsafeBytes { body($0, gathered) }
                scratch.removeAll(keepingCapacity: true)
            }
            if run.count >= Self.gatheredRunBytes {
                body(run, screening)
            } else {
                scratch.append(contentsOf: run)
                gathered = screening
            }
        }
        var start = 0
        for (position, output) in deferred {
            if position > start { gather(buffer.bytes(in: start..<position), .needed) }
            start = position
            output.encode(gather)
        }
        if start < buffer.count { gather(buffer.bytes(in: start..<buffer.count), .needed) }
        if !scratch.isEmpty { scratch.withUnsafeBytes { body($0, gathered) } }
    }

    /// Calls `body` with each run of bytes to write, in order.
    package func forEachRun(_ body: (UnsafeRawBufferPointer) -> Void) {
        var start = 0
        for range in dropped {
            if range.lowerBound > start { body(buffer.bytes(in: start..<range.lowerBound)) }
            start = range.upperBound
        }
        if start < buffer.count { body(buffer.bytes(in: start..<buffer.count)) }
    }

    /// The messages, without their newlines (for tests).
    package var messages: [[UInt8]] {
        var runs: [UInt8] = []
        var scratch: [UInt8] = []
        forEachRun(gatheringIn: &scratch) { run, _ in runs.append(contentsOf: run) }
        return runs.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast().map(Array.init)
    }
}
