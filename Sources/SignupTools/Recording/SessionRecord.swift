import SignupCore
import SignupProtocol
import SignupServer

/// One line of a session recording as the event loop notes it: values, not yet JSON. The loop
/// only notes them, in its own order (in a `RecordLog`, where plain edits and field changes are
/// bytes instead); `RecordEncoder` encodes them, and makes the placeholders for their secrets, on
/// the recording's own queue.
struct SessionRecord: Sendable {
    /// The server's clock when the loop took it, in milliseconds.
    let time: Int64
    let content: Content

    package enum Content: Sendable {
        /// A line that names no secret, kept as read (masked as text when it is not JSON).
        case line([UInt8])
        /// A JSON message that names a secret, and the secret field of each place that has one,
        /// as the server saw it when the message came: to be redacted by `SecretRedaction`.
        case message(JSON, secretFields: [SecretRedaction.Place: SecretField])
        case oversizeLine
        /// A message sent as bytes.
        case out([UInt8])
        /// A notification, encoded with the line.
        case notification(FormNotification)
        case asked(Int, BackendQuestion)
        case answered(Int, BackendAnswer)
        case cancelled(Int)
        /// The session's end: `input`, `exit`, `signal` or `clientGone`.
        case end(String)
    }
}
