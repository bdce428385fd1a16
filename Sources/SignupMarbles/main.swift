import SignupServer

MarbleCommand.run(Array(CommandLine.arguments.dropFirst()))
