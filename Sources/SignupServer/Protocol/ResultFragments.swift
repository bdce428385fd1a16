import SignupCore

/// Field results as `Notifications.writeResult` encodes them, kept by result: a form shows a few
/// dozen results, each rendered once for every form, so nearly every notification carries one
/// already encoded. Encoding it afresh (escaping its code and message, sorting and writing its
/// params) was most of the writer's work per notification.
///
/// Direct-mapped: a result has one place, and one that finds it taken by another is encoded
/// there afresh. Each entry keeps a copy of its result, so that its identity stays its own; the
/// identity and state are kept beside it, so that a hit compares them without reading the result
/// (and counting a reference to its texts, which the loop's thread counts too).
struct ResultFragments {
    private static let capacity = 64
    private var identities = [ObjectIdentifier?](repeating: nil, count: capacity)
    private var states = [FieldState](repeating: .empty, count: capacity)
    private var kept = [FieldResult?](repeating: nil, count: capacity)
    private var fragments = [[UInt8]](repeating: [], count: capacity)

    /// Writes `result`'s members, as `Notifications.writeResult` does.
    mutating func write(_ result: FieldResult, to writer: inout JSONWriter) {
        let identity = result.textsIdentity
        let place = Self.place(of: identity)
        if identities[place] != identity || states[place] != result.state {
            var fragment = JSONWriter()
            Notifications.writeResult(result, to: &fragment)
            identities[place] = identity
            states[place] = result.state
            kept[place] = result
            fragments[place] = fragment.bytes
        }
        fragments[place].withUnsafeBytes { writer.verbatim($0) }
    }

    private static func place(of identity: ObjectIdentifier) -> Int {
        // Objects are 16-byte aligned: the low bits say nothing.
        let bits = UInt(bitPattern: identity) >> 4
        return Int(truncatingIfNeeded: bits ^ (bits >> 6)) & (capacity - 1)
    }
}
