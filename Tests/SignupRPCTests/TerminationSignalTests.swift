import Foundation
import SignupTestSupport
import Testing

/// SIGTERM and SIGINT end the server with exit 0 whenever they come: at every point of start-up
/// once the process runs its own code, and at every point of a session. Hundreds of runs, since
/// the races this guards against (a signal before its handler, or one taken by a thread where it
/// was ignored) lost one run in twenty.
@Suite(.serialized) struct TerminationSignalTests {
    static let advance = #"{"jsonrpc":"2.0","id":1,"method":"clock.advance","params":{"by":0}}"#

    /// Starts a virtual-clock server and waits until it can no longer lose a signal: the
    /// constructor that blocks them has run (before that, only the dynamic loader runs).
    private func startedServer(_ arguments: [String] = []) throws -> InteractiveProcess {
        let child = try InteractiveProcess(["--clock", "virtual"] + arguments)
        guard child.waitUntilTerminationSignalsAreBlocked(atMost: 10) else {
            child.killHard()
            throw NeverBlocked()
        }
        return child
    }

    struct NeverBlocked: Error, CustomStringConvertible {
        var description: String { "the server never blocked SIGTERM and SIGINT" }
    }

    @Test func aSignalAtAnyPointOfStartUpEndsTheServerWithExitZero() throws {
        var statuses: [Int32?] = []
        for run in 0..<200 {
            let child = try startedServer()
            // From at once to 10 ms, where the server builds its loop, writer and reader.
            usleep(UInt32(run % 40) * 250)
            child.send(signal: run % 4 == 3 ? SIGINT : SIGTERM)
            statuses.append(child.wait(atMost: 20))
        }
        #expect(statuses.filter { $0 != 0 }.isEmpty, "\(statuses.count { $0 != 0 }) of 200 runs: \(statuses.filter { $0 != 0 })")
    }

    @Test func aSignalAtAnyPointOfASessionEndsTheServerWithExitZero() throws {
        var statuses: [Int32?] = []
        for run in 0..<150 {
            let child = try startedServer(["--debounce-ms", "0"])
            switch run % 3 {
            case 0:
                // Right after the first reply, as the issue's report had it.
                child.send([Self.advance])
                #expect(child.readLine() == #"{"jsonrpc":"2.0","id":1,"result":{"now":0}}"#)
            case 1:
                // While a submission is in flight: it finishes in virtual time, then the process ends.
                child.send([
                    #"{"jsonrpc":"2.0","id":1,"method":"form.open","params":{"form":"f","values":{"username":"alice","password":"secret","repeatedPassword":"secret"}}}"#,
                    #"{"jsonrpc":"2.0","id":2,"method":"form.submit","params":{"form":"f","at":200}}"#,
                ])
                _ = child.readLines { $0.contains(#""id":2"#) }
            default:
                // In the middle of a stream of input, at a point that moves with the run.
                child.send((0..<(run * 7)).map { #"{"jsonrpc":"2.0","method":"form.edit","params":{"field":"username","value":"u\#($0)"}}"# })
                usleep(UInt32(run % 10) * 300)
            }
            child.send(signal: run % 2 == 0 ? SIGTERM : SIGINT)
            statuses.append(child.wait(atMost: 20))
        }
        #expect(statuses.filter { $0 != 0 }.isEmpty, "\(statuses.count { $0 != 0 }) of 150 runs: \(statuses.filter { $0 != 0 })")
    }

    @Test func aSubmissionInFlightFinishesBeforeTheSignalEndsTheServer() throws {
        let child = try startedServer(["--debounce-ms", "0"])
        child.send([
            #"{"jsonrpc":"2.0","id":1,"method":"form.open","params":{"form":"f","values":{"username":"alice","password":"secret","repeatedPassword":"secret"}}}"#,
            #"{"jsonrpc":"2.0","id":2,"method":"form.submit","params":{"form":"f","at":200}}"#,
        ])
        _ = child.readLines { $0.contains(#""id":2"#) }
        child.send(signal: SIGTERM)
        var rest: [String] = []
        while let line = child.readLine() { rest.append(line) }
        #expect(rest == [
            #"{"jsonrpc":"2.0","method":"form.submissionChanged","params":{"form":"f","state":"succeeded","account":{"username":"alice"},"at":1200}}"#,
        ])
        #expect(child.wait(atMost: 20) == 0)
    }
}

extension TerminationSignalTests {
    /// A real-clock recording that falls behind its session on costly secrets ends promptly on
    /// SIGTERM: what is left is written without searching for placeholders, counted and warned
    /// of, instead of the end waiting for every search. Each secret here is a run of `a`s that
    /// its pattern cannot decide within a match's allowance, unlike any stand-in of its shape, so
    /// its search spends a line's whole 2 048 steps: about eight times what the loop spends on it.
    @Test func aSignalEndsARecordingFarBehindItsSessionPromptly() throws {
        let folder = try TemporaryDirectory()
        let recording = folder.path("session.jsonl")
        let forms = try folder.forms("costly.json", SecretShapeSearchTests.costlySecretForm)
        let child = try InteractiveProcess(["--forms", forms, "--record", recording])
        let secrets = (0..<1_000).map { index in
            String(repeating: "a", count: 40) + String((0..<3).map { Character(Unicode.Scalar(UInt8(98 + index / [1, 24, 576][$0] % 24))) })
        }
        child.send([#"{"jsonrpc":"2.0","id":1,"method":"form.open","params":{"kind":"costly","form":"f"}}"#]
            + secrets.map { #"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"f","field":"password","value":"\#($0)"}}"# }
            + [#"{"jsonrpc":"2.0","id":2,"method":"form.open","params":{"form":"g"}}"#])
        // Every edit is taken once the last request is answered.
        _ = child.readLines { $0.contains(#""id":2"#) }
        child.send(signal: SIGTERM)
        // Searched for one by one, the placeholders left take several times what the session took.
        #expect(child.wait(atMost: 5) == 0)
        let lines = try String(contentsOfFile: recording, encoding: .utf8).split(separator: "\n")
        #expect(lines.last?.hasSuffix(#","end":"signal"}"#) == true)
        #expect(lines.count { $0.contains(#""field":"password","value":""#) } == 1_000)
        #expect(child.errorOutput().contains("its replay may differ"))
    }
}
