import SignupCore

/// What the process gives each client session: the configuration, the loop, the form kinds, and
/// the backends every session shares — the user directory or store, the login rate limiter and
/// the store's check budget.
struct SessionEnvironment {
    let configuration: ServerConfiguration
    let loop: EventLoop
    let logger: Logger
    let catalog: FormCatalog
    /// The backends, shared by every session.
    let services: FormServices
    /// The process's clock, which the shared backends run on.
    let clock: Server.Clock
    /// The check budgets of every client and of the store, on the process's clock
    /// (`--session-checks-per-minute`, `--store-checks-per-minute`).
    let checkBudgets: CheckBudgets?
    /// Where every session's messages in and out are traced, one whole line at a time, when
    /// `--trace` or `--log-level debug` asks for it.
    let tracer: Tracer?
    /// Whether each session keeps its own clock (sockets: time starts at 0 as each connects), or
    /// runs on the process's (stdio, where the one session is the process).
    let sessionsHaveTheirOwnClock: Bool
    /// Makes a session's recording, for `--record` (the recorder is a tool beside the server).
    let makeMirror: SessionMirrorMaker?

    /// The clock a new session runs on.
    func makeSessionClock() -> Server.Clock {
        sessionsHaveTheirOwnClock ? configuration.clock.makeClock(loop: loop) : clock
    }

    /// The shared backends, with the check budgets that the client `key` spends.
    func servicesForOneSession(clientKey key: String) -> FormServices {
        var services = services
        services.checkBudgets = checkBudgets
        services.clientKey = key
        return services
    }
}
