import SignupServer
import SignupProtocol
import SignupTools

MarbleCommand.run(Array(CommandLine.arguments.dropFirst()))
