import SignupCore
import SignupProtocol

/// The clock policy: virtual time moves only when a message says so (`at`, `clock.advance`) or
/// input ends; real time moves by itself, and waits are the caller's. A replay of a real-clock
/// session is real time to the protocol: its replayer moves the virtual clock.
extension ClockAdvanceRequest: ServerMethod {
    func answer(on server: Server) throws(RPCError) -> Response { try server.advanceClock(self) }
}

extension Server {
    func advanceClock(_ request: ClockAdvanceRequest) throws(RPCError) -> ClockAdvanceRequest.Response {
        guard let scheduler = virtualScheduler else { throw .clockNotVirtual(method: ClockAdvanceRequest.method) }
        switch request.target {
        case .by(let by):
            let now = scheduler.now.milliseconds
            let (target, overflow) = now.addingReportingOverflow(by)
            guard !overflow, target <= TimePoint.horizon.milliseconds else {
                throw .invalidParams(
                    member: "params.by",
                    problem: "would move the clock past \(TimePoint.horizon.milliseconds) ms, the latest time (it is \(now) ms)")
            }
            try advanceVirtualTime(to: target, member: "params.by", for: ClockAdvanceRequest.method, exclusive: request.exclusive)
        case .to(let to):
            try advanceVirtualTime(to: to, member: "params.to", for: ClockAdvanceRequest.method, exclusive: request.exclusive)
        }
        return ClockAdvanceRequest.Response(now: scheduler.now.milliseconds)
    }

    /// Moves virtual time to the message's `at`, running everything due first.
    func advanceToMessageTime(_ params: Params) throws(RPCError) {
        guard let at = try params.count("at") else { return }
        try advanceToMessageTime(at)
    }

    func advanceToMessageTime(_ at: Int64) throws(RPCError) {
        try advanceVirtualTime(to: at, member: "params.at", for: "at")
    }

    /// Moves virtual time forward to `time`, running everything due first (when `exclusive`, only
    /// what is due before it). `member` names the param that asked, for the error past the
    /// horizon; `method`, for the error when the clock is real.
    func advanceVirtualTime(to time: Int64, member: String, for method: String, exclusive: Bool = false) throws(RPCError) {
        // Through the stored reference each time, not a local copy of it, which counted it.
        guard let now = virtualScheduler?.now.milliseconds else { throw .clockNotVirtual(method: method) }
        guard time >= now else { throw .timeWentBackwards(now: now, requested: time) }
        guard time <= TimePoint.horizon.milliseconds else {
            throw .invalidParams(
                member: member, problem: "must be at most \(TimePoint.horizon.milliseconds) ms, the latest time, not \(time)")
        }
        // Only fixtures of real-clock recordings hold work back; they may retain the scheduler.
        if exclusive, case .virtual(let scheduler) = clock {
            scheduler.advance(toJustBefore: TimePoint(milliseconds: time))
            return
        }
        virtualScheduler?.advance(to: TimePoint(milliseconds: time))
    }

    /// Lets every submission in flight finish: in virtual time by running the clock until they
    /// have; in real time the caller waits (see `finishDraining`). Returns whether any remain
    /// that the caller should wait for: in virtual time none, as what is left is due past the
    /// horizon and never finishes.
    package func settleSubmissions() -> Bool {
        guard let scheduler = virtualScheduler else { return hasSubmissionsInFlight }
        while hasSubmissionsInFlight, let next = scheduler.nextDueTime {
            scheduler.advance(to: next)
        }
        return false
    }

    /// At the end of input in virtual time, runs the clock until nothing is pending.
    package func runToIdle() {
        virtualScheduler?.run()
    }
}
