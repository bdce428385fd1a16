import SignupCore
import SignupProtocol

/// The open forms by id, in an open-addressing table.
///
/// Every keystroke looks its form up, and in a `Dictionary` the keyed SipHash of the `String`
/// id was most of that lookup's cost. Here an id is hashed by `FormIDHash`; an edit's id is
/// hashed as its line is read (`FormEditLine.formHash`), on the reading thread.
package struct FormTable {
    private struct Slot {
        let hash: UInt64
        let session: FormSession
    }

    /// A power of two in length, never more than three quarters full: linear probing stays short
    /// (about 1.5 slots read per lookup at worst), and 10 000 forms fit in 16 384 slots (512 KiB,
    /// half of what a half-full bound takes), which matters when most lookups miss the cache.
    private var slots: [Slot?] = Array(repeating: nil, count: 16)
    package private(set) var count = 0
    private let seed: UInt64
    /// Whether `seed` is the process's, so that a `FormIDHash.process` hash is this table's hash.
    private let hasProcessSeed: Bool

    /// `seed` is for tests, which need the same layout every run.
    package init(seed: UInt64 = FormIDHash.processSeed) {
        self.seed = seed
        hasProcessSeed = seed == FormIDHash.processSeed
    }

    package subscript(id: String) -> FormSession? {
        find(id)?.session
    }

    /// The pipeline of the form open under `id`, read in place (a copy of its slot counted the
    /// form). `processHash`, if given, is `FormIDHash.process(id)`; a table with another seed
    /// hashes `id` afresh.
    package func pipeline(_ id: String, processHash: UInt64? = nil) -> FormPipeline? {
        let hash = if let processHash, hasProcessSeed { processHash } else { hash(of: id) }
        guard let index = position(of: id, hash: hash) else { return nil }
        // A position found holds a slot, and the force-unwrap checks it.
        return slots.withUnsafeBufferPointer { slots in slots[index]!.session.pipeline }
    }

    /// Adds a session under its id, which no open form may have.
    package mutating func insert(_ session: FormSession) {
        precondition(self[session.id] == nil, "form id \(session.id) is already open")
        if (count + 1) * 4 > slots.count * 3 { grow() }
        place(Slot(hash: hash(of: session.id), session: session))
        count += 1
    }

    /// Removes and returns the session with `id`, if one is open.
    package mutating func remove(_ id: String) -> FormSession? {
        guard let (index, session) = find(id) else { return nil }
        closeGap(at: index)
        count -= 1
        return session
    }

    /// A table of no slots, holding no storage, to stand in for one moved out to be changed
    /// (`Server.changingForms`); not to be used.
    static var movedOut: FormTable { FormTable(slots: []) }

    private init(slots: [Slot?]) {
        self.slots = slots
        seed = 0
        hasProcessSeed = false
    }

    /// The session with `id` and the position of its slot, if one is open.
    private func find(_ id: String) -> (index: Int, session: FormSession)? {
        guard let index = position(of: id) else { return nil }
        guard let slot = slots[index] else { preconditionFailure("a position found holds a slot") }
        return (index, slot.session)
    }

    /// The position of the slot holding `id`, if one is open. The slots are read in place:
    /// copying each one probed retained its session's form.
    private func position(of id: String, hash: UInt64? = nil) -> Int? {
        let hash = hash ?? self.hash(of: id)
        return slots.withUnsafeBufferPointer { slots in
            let mask = slots.count - 1
            var index = Int(truncatingIfNeeded: hash) & mask
            while let slot = slots[index] {
                if slot.hash == hash && slot.session.id == id { return index }
                index = (index + 1) & mask
            }
            return nil
        }
    }

    package mutating func removeAll() {
        self = FormTable(seed: seed)
    }

    /// The open sessions, in no particular order.
    package var values: [FormSession] { slots.compactMap { $0?.session } }

    private mutating func place(_ slot: Slot) {
        var index = Int(truncatingIfNeeded: slot.hash) & (slots.count - 1)
        while slots[index] != nil { index = (index + 1) & (slots.count - 1) }
        slots[index] = slot
    }

    /// Empties a slot, moving later slots of the same run back so that every lookup still finds
    /// its session before reaching an empty slot (no tombstones to pile up).
    private mutating func closeGap(at removed: Int) {
        let mask = slots.count - 1
        var gap = removed
        var index = (removed + 1) & mask
        slots[gap] = nil
        while let slot = slots[index] {
            let home = Int(truncatingIfNeeded: slot.hash) & mask
            // The slot may move into the gap unless its home lies cyclically after the gap and
            // at or before its own position.
            let staysPut = gap <= index ? (gap < home && home <= index) : (gap < home || home <= index)
            if !staysPut {
                slots[gap] = slot
                slots[index] = nil
                gap = index
            }
            index = (index + 1) & mask
        }
    }

    private mutating func grow() {
        let old = slots
        slots = Array(repeating: nil, count: old.count * 2)
        for case let slot? in old { place(slot) }
    }

    private func hash(of id: String) -> UInt64 {
        FormIDHash.hash(of: id, seed: seed)
    }
}
