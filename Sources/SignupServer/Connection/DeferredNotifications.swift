import SignupProtocol
import SignupTransport

/// Notifications the loop handed to the writer unencoded (on the virtual clock), encoded by the
/// writer thread as it writes them: field results by number from a snapshot of the session's
/// `EncodedFieldTable`, taken as they are encoded, so after the loop numbered every one of them.
struct DeferredNotifications: DeferredOutput {
    let notifications: [FormNotification]
    let fields: EncodedFieldTable
    /// Whether runs say which of their lines need screening (`LineScreening`): where a trace
    /// reads them. Otherwise every run says `needed`, and runs are cut by size alone.
    let tellsScreening: Bool

    /// Above this many bytes, encoded output is handed over before more is encoded.
    static let runBytes = 64 << 10

    init(_ notifications: [FormNotification], fields: EncodedFieldTable, tellsScreening: Bool = false) {
        self.notifications = notifications
        self.fields = fields
        self.tellsScreening = tellsScreening
    }

    var count: Int { notifications.count }

    func encode(_ body: (UnsafeRawBufferPointer, LineScreening) -> Void) {
        let snapshot = fields.snapshot()
        var scratch = JSONWriter(capacity: min(Self.runBytes + 4096, notifications.count * 256))
        var screening = LineScreening.needed
        // Read in place: iterating the array would copy each notification.
        notifications.withUnsafeBufferPointer { notifications in
            for index in notifications.indices {
                if tellsScreening {
                    let needs: LineScreening = notifications[index].mayNameSecretMember(fields: snapshot) ? .needed : .notNeeded
                    if needs != screening, scratch.count > 0 {
                        scratch.withBytes { body($0, screening) }
                        scratch.removeAll()
                    }
                    screening = needs
                }
                notifications[index].write(to: &scratch, fields: snapshot)
                scratch.newline()
                if scratch.count >= Self.runBytes {
                    scratch.withBytes { body($0, screening) }
                    scratch.removeAll()
                }
            }
        }
        if scratch.count > 0 { scratch.withBytes { body($0, screening) } }
    }
}
