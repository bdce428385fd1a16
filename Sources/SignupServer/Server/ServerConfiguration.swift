import Foundation
import SignupBackends
import SignupCore
import SignupProtocol
import SignupTransport

/// How the server keeps time.
package enum ClockMode: String, CaseIterable {
    /// Debounce and backend latency in wall-clock time.
    case real
    /// Time moves only on `clock.advance` or a message's `at`; output is byte-identical run to run.
    case virtual
}

/// The limits the server enforces, each breach answered with its own error code.
package struct Limits: Equatable {
    package var maxLineBytes = 1 << 20
    var maxValueLength = 4096
    /// Four bytes a character: any value of `maxValueLength` characters without combining marks fits.
    var maxValueBytes = 16_384
    var maxForms = 10_000
    var maxBatch = 1000
    package var maxDepth = JSONParser.defaultMaxDepth

    /// Every limit at its default.
    package init() {}

    /// Each limit by its name in `initialize`'s result and a recording's header, in that order,
    /// with the option that sets it (none for the nesting depth).
    package static var members: [(name: String, value: WritableKeyPath<Limits, Int>, option: String?)] {
        [("maxLineBytes", \.maxLineBytes, "--max-line-bytes"), ("maxValueLength", \.maxValueLength, "--max-value-length"),
         ("maxValueBytes", \.maxValueBytes, "--max-value-bytes"), ("maxForms", \.maxForms, "--max-forms"),
         ("maxBatch", \.maxBatch, "--max-batch"), ("maxDepth", \.maxDepth, nil)]
    }

    /// As `initialize` reports them, and a recording's header keeps them.
    package func write(to writer: inout JSONWriter) {
        writer.object { limits in
            for member in Self.members {
                limits.key(escaping: member.name); limits.int(self[keyPath: member.value])
            }
        }
    }
}

/// The one source of truth for users, chosen on the command line.
package enum BackendChoice: Equatable {
    /// The in-memory scripted directory (built in, or from `--directory`).
    case scripted
    /// The SQLite user store at a path (`--store PATH`).
    case store(path: String)
    /// A PostgreSQL database shared by processes on any machine (`--store postgresql://…`, or a
    /// libpq `key=value` connection string).
    case postgres(conninfo: String)
    /// The application's own server (`--availability-url`, `--signup-url`, optionally
    /// `--login-url` and `--friends-url`), with `--http-timeout-ms`.
    case http(HTTPDirectory.Configuration)

    /// What a recording's header calls it.
    package var name: String {
        switch self {
        case .scripted: "scripted"
        case .store: "sqlite"
        case .postgres: "postgresql"
        case .http: "http"
        }
    }
}

/// Everything the command line decides.
package struct ServerConfiguration {
    /// Every setting at its default.
    package init() {}

    package var clock: ClockMode = .real
    /// How messages are cut on stdin and stdout (`--framing`).
    package var framing: Framing = .auto
    /// Where `--trace` writes every message in and out; opened by the command before serving.
    var traceFile: Int32?
    /// Where `--record` writes the session; opened by the command before serving.
    var recordFile: Int32?
    package var debounce: TimeSpan = .milliseconds(300)
    /// Under `--listen`, the most clients connected at once; one more is closed as it connects.
    var maxConnections = 16_384
    /// How many availability checks a session, and the store (every session of the process, or of
    /// every process on PostgreSQL), may ask per minute (`CheckBudget`); 0 for no bound.
    package var checkBudget = CheckBudgetLimits()
    /// Whether `initialize`'s `clientKey` names whose check budget a connection spends
    /// (`--trust-client-keys`); otherwise it is ignored.
    package var trustsClientKeys = false
    package var backend: BackendChoice = .scripted
    package var script: ScriptedDirectory.Script = .builtIn
    /// Form kinds loaded from `--forms`, offered after the built-in ones.
    package var customForms: [FormDefinition] = []
    /// The `--forms` documents the custom kinds were read from, for a recording's header.
    package var customFormDocuments: [JSON] = []
    /// The client's process id from `--parent-pid`; the server exits when it dies.
    var parentProcessID: Int32?
    package var limits = Limits()
    package var logLevel: LogLevel = .warning
}

extension ScriptedDirectory.Script {
    /// The directory used when no `--directory` file is given: a few well-known names are taken,
    /// checks take 200 ms and registration 1 s, like the GitHubSignup sample's mock API.
    package static let builtIn = ScriptedDirectory.Script(
        takenNames: ["admin", "root", "octocat", "taken"],
        failingNames: ["servererror"],
        defaultVerdict: .available,
        checkLatency: .fixed(.milliseconds(200)),
        registrationLatency: .fixed(.milliseconds(1000)))
}

/// The check budgets per minute (`--session-checks-per-minute`, `--store-checks-per-minute`): a
/// person typing a name key by key asks a few checks a minute, a harvester thousands.
package struct CheckBudgetLimits: Equatable {
    package var session = 120
    package var store = 6000

    package init(session: Int = 120, store: Int = 6000) {
        self.session = session
        self.store = store
    }
    package static let window = TimeSpan.seconds(60)

    /// A client that has asked at most this many checks a minute passes a spent store budget.
    package static let quietShare = 12

    /// The process's budgets on `scheduler`: one per client, and the store's; nil when both are
    /// unbounded.
    func budgets(on scheduler: any Scheduler) -> CheckBudgets? {
        let budgets = CheckBudgets(clientLimit: session, storeLimit: store, window: Self.window, quietShare: Self.quietShare,
                                   scheduler: scheduler)
        return budgets.isBounded ? budgets : nil
    }
}
