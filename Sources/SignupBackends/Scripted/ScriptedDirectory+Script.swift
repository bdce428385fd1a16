import SignupCore

extension ScriptedDirectory {
    /// What the directory answers and how long it takes.
    public struct Script: Hashable, Sendable {
        /// What an availability check finds for a name no list mentions.
        public enum Verdict: String, Hashable, Sendable {
            case available, taken, unavailable
        }

        public var takenNames: Set<String>
        public var freeNames: Set<String>
        /// Names whose availability check fails as if the server were down.
        public var failingNames: Set<String>
        public var defaultVerdict: Verdict
        public var checkLatency: Latency
        public var registrationLatency: Latency
        /// Names whose registration is refused.
        public var refusedRegistrations: Set<String>
        /// The share of other registrations refused at random, from 0 to 1.
        public var registrationFailureRate: Double
        /// Seeds the generator behind failure rates and uniform latencies.
        public var seed: UInt64
        /// Accounts that exist from the start: yescrypt password hashes by username.
        public var accounts: [String: String]
        /// Friends that exist from the start, by id.
        public var friends: [String: Friend]
        /// Ids of friends this client may not change: updating one answers `unauthorised`.
        public var protectedFriends: Set<String>
        /// Saving a friend with one of these phone numbers fails as if the server were down.
        public var failingPhones: Set<String>
        /// How named checks (other than `usernameAvailability`) answer, by check name; a check not
        /// named here is asked of its real backend.
        public var checks: [String: CheckScript] = [:]
        /// How `http` submissions answer, by form kind; a kind not named here is sent to its API.
        public var submissions: [String: SubmissionScript] = [:]
        /// Answers given as a recording gave them: each question like one of these is answered
        /// by the first unused one, at its time, before any rule above is consulted.
        public var replies: [Reply] = []

        /// How one named check answers: a value is compared as the check sends it.
        public struct CheckScript: Hashable, Sendable {
            /// Values rejected with the check's own `rejected` message.
            public var rejected: Set<String>
            /// Values whose check fails as if the server were down.
            public var failing: Set<String>
            /// Values rejected with the backend's own code, message and params.
            public var answers: [String: ReportedIssue]
            public var latency: Latency

            public init(
                rejected: Set<String> = [], failing: Set<String> = [], answers: [String: ReportedIssue] = [:], latency: Latency = .none
            ) {
                self.rejected = rejected
                self.failing = failing
                self.answers = answers
                self.latency = latency
            }

            /// What the check answers for `value`; any value no list names passes.
            public func answer(for value: String) -> Result<CheckVerdict, any Error> {
                if failing.contains(value) { return .failure(BackendError.unavailable(reason: "scripted server error")) }
                if let issue = answers[value] { return .success(.rejected(issue)) }
                return .success(rejected.contains(value) ? .rejected(nil) : .passed)
            }
        }

        /// How one form kind's `http` submissions answer: the first case whose fields all hold the
        /// values it names, else `otherwise`; each after `latency`.
        public struct SubmissionScript: Hashable, Sendable {
            public struct Case: Hashable, Sendable {
                /// Field values, as the submission sends them.
                public var when: [String: String]
                /// `.submission(…)` or `.failure(…)`.
                public var answer: BackendAnswer

                public init(when: [String: String], answer: BackendAnswer) {
                    self.when = when
                    self.answer = answer
                }
            }

            public var cases: [Case]
            public var otherwise: BackendAnswer
            public var latency: Latency

            public init(cases: [Case] = [], otherwise: BackendAnswer = .submission(.accepted(.object([:]))), latency: Latency = .none) {
                self.cases = cases
                self.otherwise = otherwise
                self.latency = latency
            }

            /// The answer to a submission of `fields`.
            public func answer(for fields: [String: String]) -> BackendAnswer {
                cases.first { $0.when.allSatisfy { fields[$0.key] == $0.value } }?.answer ?? otherwise
            }
        }

        /// One recorded answer: to `question`, `answer` at `time` (virtual milliseconds; at once
        /// if that has passed); no answer means the question is never answered.
        public struct Reply: Hashable, Sendable {
            public var question: BackendQuestion
            public var time: Int64
            public var answer: BackendAnswer?

            public init(question: BackendQuestion, time: Int64, answer: BackendAnswer?) {
                self.question = question
                self.time = time
                self.answer = answer
            }
        }

        public init(
            takenNames: Set<String> = [],
            freeNames: Set<String> = [],
            failingNames: Set<String> = [],
            defaultVerdict: Verdict = .available,
            checkLatency: Latency = .none,
            registrationLatency: Latency = .none,
            refusedRegistrations: Set<String> = [],
            registrationFailureRate: Double = 0,
            seed: UInt64 = 0,
            accounts: [String: String] = [:],
            friends: [String: Friend] = [:],
            protectedFriends: Set<String> = [],
            failingPhones: Set<String> = []
        ) {
            self.accounts = accounts
            self.friends = friends
            self.protectedFriends = protectedFriends
            self.failingPhones = failingPhones
            self.takenNames = takenNames
            self.freeNames = freeNames
            self.failingNames = failingNames
            self.defaultVerdict = defaultVerdict
            self.checkLatency = checkLatency
            self.registrationLatency = registrationLatency
            self.refusedRegistrations = refusedRegistrations
            self.registrationFailureRate = registrationFailureRate
            self.seed = seed
        }
    }
}
