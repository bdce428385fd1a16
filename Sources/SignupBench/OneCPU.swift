import CProcessPlacement

/// Keeps the benchmark, and every child it starts meanwhile, on one CPU (children inherit the
/// mask across `posix_spawn`). Figure 2 is measured so: on a host whose idle CPUs halt, a wake-up
/// on another CPU costs tens of microseconds, and which child the scheduler happens to place
/// beside the benchmark decides a round trip more than the child's own work (docs/performance.md).
enum OneCPU {
    /// Runs `body` on the first CPU this thread may use, and restores its mask after. Returns
    /// that CPU, or nil when the mask could not be read or set (then `body` runs unpinned).
    static func run<T>(_ body: () throws -> T) rethrows -> (result: T, cpu: Int?) {
        let cpu = signup_pin_to_first_cpu()
        guard cpu >= 0 else { return (try body(), nil) }
        defer { _ = signup_unpin() }
        return (try body(), Int(cpu))
    }
}
