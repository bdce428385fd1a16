import SignupCore
import SignupProtocol
import SignupTransport

/// What a recording (`--record`) sees of one session, and the session's only seam with it: the
/// session shows it every input item as the loop takes it and the session's end, and it sees
/// every message sent and every backend question through the sink and services it wraps
/// (`ObservedBackend`). The recorder itself is a tool beside the server (`SignupTools`); a
/// session without one adds nothing to its reader's, loop's or writer's path. Used on the loop.
package protocol SessionMirror: AnyObject {
    /// What the server's forms are made with, so that every question, answer and message passes here.
    func observing(_ services: FormServices, sendingTo sink: any MessageSink) -> (FormServices, any MessageSink)
    /// Follows the forms of `server`, made with what `observing` gave, from now on.
    func attach(to server: Server)
    /// The lines of the plain edits in the input the loop is about to take, in order, as the
    /// reader kept them (`InputBatch.keptEditLines`).
    func willTake(_ lines: KeptEditLines)
    /// An input item, as the loop takes it and before the server handles it.
    func recordIn(_ item: borrowing InputItem)
    /// The session ended: `input`, `exit`, `signal` or `clientGone`.
    func recordEnd(_ reason: String)
}

/// What a session gives the maker of its mirror.
package struct SessionMirrorContext {
    /// Where the recording goes; the mirror owns it from now on.
    package let file: Int32
    package let configuration: ServerConfiguration
    package let catalog: FormCatalog
    /// The backends the session's forms would be made with.
    package let services: FormServices
    /// Every message as the session's writer wrote it, on a clock where it writes each one in
    /// order (`ClockPolicy.writesEveryMessageInOrder`); nil elsewhere.
    package let tee: OutputTee?
    package let logger: Logger
    /// The session's time, in milliseconds, on its scheduler.
    package let now: () -> Int64
    /// Hands what the session's writer holds to its thread, so that every message sent reaches
    /// `tee` before the loop waits for the recording.
    package let handWriterEverything: () -> Void
    /// Runs a hand-over once the loop's current work is done, on the real clock (so that a session
    /// killed outright loses at most the work it was in); nil on the virtual clock.
    package let afterWork: ((@escaping () -> Void) -> Void)?
}

/// Makes the mirror of a session that records.
package typealias SessionMirrorMaker = @Sendable (SessionMirrorContext) -> any SessionMirror
