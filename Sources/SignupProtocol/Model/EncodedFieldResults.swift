import SignupCore

/// A field's name and result as a `form.fieldChanged` notification writes them, encoded once.
package final class EncodedFieldResult: Sendable {
    package let field: String
    /// Kept so that the texts whose identity found this entry stay this result's own.
    package let result: FieldResult
    /// The result's texts identity and state, which every lookup compares: read from here, not
    /// from `result`, whose copy counted its texts.
    let textsIdentity: ObjectIdentifier
    package let state: FieldState
    /// `,"field":…,"state":…,"code":…,"params":…,"message":…`, members that follow `form`.
    package let members: [UInt8]
    /// Its number in the registry's `EncodedFieldTable`.
    package let number: Int

    package init(field: String, result: FieldResult, table: EncodedFieldTable) {
        self.field = field
        self.result = result
        textsIdentity = result.textsIdentity
        state = result.state
        var writer = JSONWriter()
        Notifications.writeFieldMembers(field, result, to: &writer)
        members = writer.bytes
        number = table.add(members, mayNameSecretMember: FieldChangedNotification.mayNameSecretMember(result))
    }
}

/// The field results a writer's notifications (or a recording's records) have carried, each
/// encoded once and kept for the registry's life, numbered in `table`: a notification carries
/// the number (and, encoded at once with the real clock, copies the entry's members rather than
/// encode it again).
///
/// A notification that carried its result counted the result's texts on the loop's thread, where
/// the event was made, and again on the writer's, where it was encoded and freed: atomic operations
/// on a line both cores wrote, on nearly every notification. Entries are never removed: a form kind
/// renders its results once per locale, so a server has a few dozen of them; past `mostEntries`
/// (a backend making results up as it goes) a notification carries its result as before.
///
/// Looked up and added to on the loop only; other threads read `table`.
package final class EncodedFieldResults {
    private struct Key: Hashable {
        let texts: ObjectIdentifier
        let state: FieldState
        let field: String
    }

    static let mostEntries = 4096
    package let table = EncodedFieldTable()

    package init() {}

    private var entries: [Key: EncodedFieldResult] = [:]
    /// The latest entry found at each place, direct-mapped by the result's texts: most lookups
    /// stop here, without hashing the name.
    /// Inline, not an `Array`: changing an element is then a store, with no copy-on-write check
    /// that could release, so the compiler checks every access statically.
    private var recent = Recent(repeating: nil)
    private typealias Recent = InlineArray<64, EncodedFieldResult?>

    package var count: Int { entries.count }

    /// The entry for `update`'s field and result, added if new; nil when there is no room.
    /// The entry lives as long as this registry.
    package func entry(for update: FieldUpdate) -> EncodedFieldResult? {
        let texts = update.result.textsIdentity
        let state = update.result.state
        let place = Self.place(of: texts)
        if let recent = recent[place], recent.textsIdentity == texts && recent.state == state && recent.field == update.field {
            return recent
        }
        return entry(missedAt: place, for: update)
    }

    /// Kept apart from the lookup in `recent`: inlined there, it had the texts retained up front
    /// on every lookup, for the copy of the result an added entry takes.
    @inline(never)
    private func entry(missedAt place: Int, for update: FieldUpdate) -> EncodedFieldResult? {
        let key = Key(texts: update.result.textsIdentity, state: update.result.state, field: update.field)
        let entry: EncodedFieldResult
        if let known = entries[key] {
            entry = known
        } else {
            guard entries.count < Self.mostEntries else { return nil }
            entry = EncodedFieldResult(field: update.field, result: update.result, table: table)
            entries[key] = entry
        }
        // Swapped in, the entry it replaces released after the access: no access to `recent`
        // then spans a release, and the compiler checks them all statically.
        var replaced: EncodedFieldResult? = entry
        swap(&replaced, &recent[place])
        return entry
    }

    private static func place(of texts: ObjectIdentifier) -> Int {
        // Objects are 16-byte aligned: the low bits say nothing.
        let bits = UInt(bitPattern: texts) >> 4
        return Int(truncatingIfNeeded: bits ^ (bits >> 6)) & (Recent.count - 1)
    }
}
