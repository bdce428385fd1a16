import CEarlySignals
import SignupServer
import SignupTools

// The constructor in CEarlySignals has blocked SIGTERM and SIGINT already; this keeps it linked.
precondition(signup_termination_signals_blocked_early() != 0, "SIGTERM and SIGINT must be blocked before main")
SignupRPCCommand.run(
    Array(CommandLine.arguments.dropFirst()),
    tools: ServerTools(makeRecorder: SessionRecorder.recording, replay: ReplayCommand.run, validate: ValidateCommand.run))
