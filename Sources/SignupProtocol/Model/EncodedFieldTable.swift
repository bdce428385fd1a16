import Synchronization

/// Field results as `form.fieldChanged` writes them, each encoded once under a number, for the
/// threads that copy them into messages: the loop adds them (`EncodedFieldResults`), and the
/// stdout writer and a recording's encoder read a snapshot. A notification or a record then
/// carries a number, not an object both threads would count, and nothing is shared unchecked.
///
/// A snapshot holds every number handed out before it was taken; a reader takes one after taking
/// the messages it encodes, which the loop numbered before handing them over.
package final class EncodedFieldTable: Sendable {
    package struct Snapshot: Sendable {
        fileprivate var bytes: [UInt8] = []
        fileprivate var ranges: [Range<Int>] = []

        /// The members of result `number`, in place.
        package func withMembers<Result>(_ number: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
            let range = ranges[number]
            return bytes.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[range])) }
        }
    }

    private let table = Mutex(Snapshot())

    /// Adds a result's members; its number.
    package func add(_ members: [UInt8]) -> Int {
        table.withLock { table in
            let start = table.bytes.count
            table.bytes += members
            table.ranges.append(start..<table.bytes.count)
            return table.ranges.count - 1
        }
    }

    package func snapshot() -> Snapshot {
        table.withLock { $0 }
    }
}
