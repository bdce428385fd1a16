import SignupServer
import SignupProtocol

MarbleCommand.run(Array(CommandLine.arguments.dropFirst()))
