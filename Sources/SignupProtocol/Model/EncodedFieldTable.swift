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
        /// By number: whether the result's members may name a secret
        /// (`SecretRedaction.mayNameSecretMember`), so that a trace must screen its messages.
        fileprivate var mayNameSecret: [Bool] = []

        /// The members of result `number`, in place.
        package func withMembers<Result>(_ number: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
            let range = ranges[number]
            return bytes.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[range])) }
        }

        /// Whether the members of result `number` may name a secret member: a message holding
        /// them needs the trace's screening, which one holding others' does not.
        package func mayNameSecretMember(_ number: Int) -> Bool {
            mayNameSecret[number]
        }
    }

    private let table = Mutex(Snapshot())

    /// Adds a result's members, and whether they may name a secret member; its number.
    package func add(_ members: [UInt8], mayNameSecretMember mayNameSecret: Bool) -> Int {
        table.withLock { table in
            let start = table.bytes.count
            table.bytes += members
            table.ranges.append(start..<table.bytes.count)
            table.mayNameSecret.append(mayNameSecret)
            return table.ranges.count - 1
        }
    }

    package func snapshot() -> Snapshot {
        table.withLock { $0 }
    }
}
