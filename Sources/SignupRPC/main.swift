import SignupServer

SignupRPCCommand.run(Array(CommandLine.arguments.dropFirst()))
