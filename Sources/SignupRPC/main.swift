import Foundation
import SignupCore

StdoutGuard.ignoreSIGPIPE()

let invocation: Invocation
do throws(UsageError) {
    invocation = try Options.parse(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write(Data("signup-rpc: \(error.description)\n\n\(Options.usage)".utf8))
    exit(64)
}

switch invocation {
case .help:
    FileHandle.standardOutput.write(Data(Options.usage.utf8))
    exit(0)
case .version:
    FileHandle.standardOutput.write(Data("\(Server.name) \(Server.version) (protocol \(Server.protocolVersion))\n".utf8))
    exit(0)
case .run(var configuration, let directoryFile):
    if let directoryFile {
        guard let contents = FileManager.default.contents(atPath: directoryFile) else {
            FileHandle.standardError.write(Data("signup-rpc: cannot read the directory file '\(directoryFile)'\n".utf8))
            exit(66)
        }
        do throws(DirectoryFile.Problem) {
            configuration.script = try DirectoryFile.parse(Array(contents))
        } catch {
            FileHandle.standardError.write(Data("signup-rpc: \(directoryFile): \(error.description)\n".utf8))
            exit(78)
        }
    }
    let messageFD = StdoutGuard.takeOverStdout()
    let loop = EventLoop()
    let settings = UncheckedTransfer(configuration)
    loop.execute {
        do throws(StoreError) {
            let service = try StdioService(configuration: settings.value, loop: loop, messageFD: messageFD)
            service.start()
        } catch {
            FileHandle.standardError.write(Data("signup-rpc: \(error.description)\n".utf8))
            exit(74)
        }
    }
    // The loop and the stdin thread do the work; the process ends by exit() from the loop.
    while true { sleep(3600) }
}
