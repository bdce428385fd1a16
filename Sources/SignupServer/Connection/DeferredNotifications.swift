import SignupProtocol
import SignupTransport

/// Notifications the loop handed to the writer unencoded (on the virtual clock), encoded by the
/// writer thread as it writes them: field results by number from a snapshot of the session's
/// `EncodedFieldTable`, taken as they are encoded, so after the loop numbered every one of them.
struct DeferredNotifications: DeferredOutput {
    let notifications: [FormNotification]
    let fields: EncodedFieldTable

    /// Above this many bytes, encoded output is handed over before more is encoded.
    static let runBytes = 64 << 10

    init(_ notifications: [FormNotification], fields: EncodedFieldTable) {
        self.notifications = notifications
        self.fields = fields
    }

    var count: Int { notifications.count }

    func encode(_ body: (UnsafeRawBufferPointer) -> Void) {
        let snapshot = fields.snapshot()
        var scratch = JSONWriter(capacity: min(Self.runBytes + 4096, notifications.count * 256))
        // Read in place: iterating the array would copy each notification.
        notifications.withUnsafeBufferPointer { notifications in
            for index in notifications.indices {
                notifications[index].write(to: &scratch, fields: snapshot)
                scratch.newline()
                if scratch.count >= Self.runBytes {
                    scratch.withBytes(body)
                    scratch.removeAll()
                }
            }
        }
        if scratch.count > 0 { scratch.withBytes(body) }
    }
}
