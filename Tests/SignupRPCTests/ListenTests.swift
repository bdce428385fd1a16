import Foundation
import Testing
import SignupCore
import SignupTestSupport

/// `--listen`: one process, many clients, each connection a session of its own over a Unix socket
/// or TCP. End to end, on the real clock: every wait is on a condition (a line, the end of a
/// connection, the process's exit), never a sleep.
@Suite(.serialized) struct ListenTests {
    private static func open(_ form: String, id: Int, username: String, password: String = "secret") -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"form.open","params":{"form":"\#(form)","values":{"username":"\#(username)","password":"\#(password)","repeatedPassword":"\#(password)"}}}"#
    }

    private static func request(_ id: Int, _ method: String, _ params: String = "{}") -> String {
        #"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"#
    }

    /// Opens a valid sign-up form and reads until the username's check has answered.
    private static func openValidForm(_ client: SocketClient, username: String) -> [String] {
        client.send([open("f", id: 1, username: username)])
        return client.readLines { $0.contains(#""method":"form.submitEnabledChanged""#) && $0.contains(#""enabled":true"#) }.map(withoutTime)
    }

    private let unixAddress: (TemporaryDirectory) -> String = { "unix:" + $0.path("signup.sock") }

    @Test func eachConnectionHasItsOwnForms() throws {
        let folder = try TemporaryDirectory()
        let server = try ListeningServer(unixAddress(folder), ["--debounce-ms", "0"])
        let first = try server.connect(), second = try server.connect()
        #expect(Self.openValidForm(first, username: "alice") == [
            #"{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"f","field":"username","state":"validating","code":"username.checking","params":{},"message":"Checking availability...","version":0}}"#,
            #"{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"f","field":"password","state":"ok","code":"password.acceptable","params":{},"message":"Password acceptable","version":0}}"#,
            #"{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"f","field":"repeatedPassword","state":"ok","code":"repeatedPassword.matches","params":{},"message":"Password repeated","version":0}}"#,
            #"{"jsonrpc":"2.0","method":"form.submitEnabledChanged","params":{"form":"f","enabled":false}}"#,
            #"{"jsonrpc":"2.0","id":1,"result":{"form":"f","kind":"signup","version":0,"locale":"en"}}"#,
            #"{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"f","field":"username","state":"ok","code":"username.available","params":{},"message":"Username available","version":0}}"#,
            #"{"jsonrpc":"2.0","method":"form.submitEnabledChanged","params":{"form":"f","enabled":true}}"#,
        ])
        // The second client sees none of the first's forms, and may open one of the same id.
        second.send([Self.request(1, "form.snapshot", #"{"form":"f"}"#)])
        #expect(second.readLine() == #"{"jsonrpc":"2.0","id":1,"error":{"code":-32010,"message":"No open form has the id 'f'","data":{"form":"f"}}}"#)
        second.send([#"{"jsonrpc":"2.0","id":2,"method":"form.open","params":{"form":"f","kind":"login"}}"#])
        #expect(second.readLines { $0.contains(#""id":2"#) }.last == #"{"jsonrpc":"2.0","id":2,"result":{"form":"f","kind":"login","version":0,"locale":"en"}}"#)
        first.send([Self.request(2, "form.close", #"{"form":"f"}"#)])
        #expect(first.readLine() == #"{"jsonrpc":"2.0","id":2,"result":{"form":"f"}}"#)
        second.send([Self.request(3, "form.close", #"{"form":"f"}"#)])
        #expect(second.readLine() == #"{"jsonrpc":"2.0","id":3,"result":{"form":"f"}}"#)
        #expect(server.terminate() == 0)
    }

    @Test func oneClientsExitEndsOnlyItsConnection() throws {
        let server = try ListeningServer("tcp:127.0.0.1:0", ["--debounce-ms", "0"])
        let leaving = try server.connect(), staying = try server.connect()
        leaving.send([Self.request(1, "shutdown"), #"{"jsonrpc":"2.0","method":"exit"}"#])
        #expect(leaving.readToEnd() == [#"{"jsonrpc":"2.0","id":1,"result":null}"#])
        staying.send([Self.request(1, "form.open", #"{"form":"g","kind":"login"}"#)])
        #expect(staying.readLines { $0.contains(#""id":1"#) }.last == #"{"jsonrpc":"2.0","id":1,"result":{"form":"g","kind":"login","version":0,"locale":"en"}}"#)
        // A new client after the exit is served too: the process did not end.
        let later = try server.connect()
        later.send([Self.request(1, "shutdown")])
        #expect(later.readLine() == #"{"jsonrpc":"2.0","id":1,"result":null}"#)
        #expect(server.terminate() == 0)
    }

    @Test func aClientThatStopsReadingStallsOnlyItself() throws {
        let folder = try TemporaryDirectory()
        let server = try ListeningServer(unixAddress(folder), ["--debounce-ms", "0"])
        let stalled = try server.connect(), other = try server.connect()
        stalled.send([#"{"jsonrpc":"2.0","id":0,"method":"form.open","params":{"form":"f","kind":"login"}}"#])
        // Requests whose answers are never dropped, sent without reading any answer, until the
        // server stops reading this client (its queue is full) and the socket takes no more.
        var sent = 0
        while stalled.waitUntilWritable(atMost: 2) {
            if stalled.sendWithoutWaiting(Self.request(sent + 1, "form.snapshot", #"{"form":"f"}"#)) > 0 { sent += 1 }
        }
        #expect(sent > 1000)
        // The other client is served meanwhile, in full.
        other.send([Self.request(1, "form.open", #"{"form":"f","kind":"login"}"#)])
        #expect(other.readLines { $0.contains(#""id":1"#) }.map(withoutTime) == [
            #"{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"f","field":"username","state":"empty","code":"username.empty","params":{},"message":"","version":0}}"#,
            #"{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"f","field":"password","state":"empty","code":"password.empty","params":{},"message":"","version":0}}"#,
            #"{"jsonrpc":"2.0","method":"form.submitEnabledChanged","params":{"form":"f","enabled":false}}"#,
            #"{"jsonrpc":"2.0","id":1,"result":{"form":"f","kind":"login","version":0,"locale":"en"}}"#,
        ])
        // Once the stalled client reads, it gets every answer, in order: none was lost.
        let answers = stalled.readLines { $0.hasPrefix(#"{"jsonrpc":"2.0","id":\#(sent),"#) }
        #expect(answers.filter { $0.contains(#""result":{"form":"f""#) }.count == sent + 1)
        #expect(answers.last?.hasPrefix(#"{"jsonrpc":"2.0","id":\#(sent),"result""#) == true)
        #expect(server.terminate() == 0)
    }

    /// The server's threads by name (`/proc/PID/task/*/comm`, cut at 15 bytes as Linux keeps them).
    private static func threadNames(of pid: Int32) throws -> [String] {
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")
        return try tasks.map {
            try String(contentsOfFile: "/proc/\(pid)/task/\($0)/comm", encoding: .utf8)
                .trimmingCharacters(in: .newlines)
        }.sorted()
    }

    /// Every connection is read and written on the one poller thread: no thread of its own, so
    /// the threads of the process are as many with 200 clients as with 2.
    @Test func connectionsShareOneThreadForTheirSockets() throws {
        let server = try ListeningServer("tcp:127.0.0.1:0", ["--debounce-ms", "0"])
        var clients: [SocketClient] = []
        func connect(upTo count: Int) throws {
            while clients.count < count {
                let client = try server.connect()
                client.send([Self.request(1, "form.open", #"{"form":"f","kind":"login"}"#)])
                #expect(client.readLines { $0.contains(#""id":1"#) }.last
                    == #"{"jsonrpc":"2.0","id":1,"result":{"form":"f","kind":"login","version":0,"locale":"en"}}"#)
                clients.append(client)
            }
        }
        try connect(upTo: 2)
        let few = try Self.threadNames(of: server.process.pid)
        try connect(upTo: 200)
        let many = try Self.threadNames(of: server.process.pid)
        #expect(few.filter { $0 == "signup.sockets" }.count == 1)
        #expect(many.filter { $0 == "signup.sockets" }.count == 1)
        // Dispatch's own workers come and go with load, never one a connection.
        #expect(many.count <= few.count + 4, "\(few.count) threads with 2 clients, \(many.count) with 200: \(many)")
        // Each is still served, the first as the last.
        for client in [clients[0], clients[199]] {
            client.send([Self.request(2, "form.snapshot", #"{"form":"f"}"#)])
            #expect(client.readLines { $0.contains(#""id":2"#) }.last?.hasPrefix(#"{"jsonrpc":"2.0","id":2,"result":{"form":"f""#) == true)
        }
        #expect(server.terminate() == 0)
    }

    @Test func aSignalEndsEverySessionOnceItsSubmissionHasFinished() throws {
        let folder = try TemporaryDirectory()
        let socket = folder.path("signup.sock")
        let server = try ListeningServer("unix:" + socket, ["--debounce-ms", "0"])
        let clients = try [server.connect(), server.connect()]
        for (client, name) in zip(clients, ["alice", "bob"]) {
            _ = Self.openValidForm(client, username: name)
            client.send([Self.request(2, "form.submit", #"{"form":"f"}"#)])
            #expect(client.readLines { $0.contains(#""id":2"#) }.map(withoutTime).suffix(1) == [
                #"{"jsonrpc":"2.0","id":2,"result":{"form":"f","accepted":true}}"#,
            ])
        }
        // Both submissions are in flight (the directory answers after a second) as the signal comes.
        server.process.send(signal: SIGTERM)
        for (client, name) in zip(clients, ["alice", "bob"]) {
            #expect(client.readToEnd()?.map(withoutTime) == [
                #"{"jsonrpc":"2.0","method":"form.submissionChanged","params":{"form":"f","state":"succeeded","account":{"username":"\#(name)"}}}"#,
            ])
        }
        #expect(server.process.wait(atMost: 30) == 0)
        #expect(!FileManager.default.fileExists(atPath: socket))
    }

    @Test func messagesThatComeWhileAShutdownWaitsAreAllServedAfterIt() throws {
        let folder = try TemporaryDirectory()
        let server = try ListeningServer(unixAddress(folder), ["--debounce-ms", "0"])
        let client = try server.connect()
        _ = Self.openValidForm(client, username: "dora")
        client.send([Self.request(2, "form.submit", #"{"form":"f"}"#), Self.request(3, "shutdown")])
        #expect(client.readLines { $0.contains(#""id":2,"#) }.map(withoutTime) == [
            #"{"jsonrpc":"2.0","method":"form.submissionChanged","params":{"form":"f","state":"submitting"}}"#,
            #"{"jsonrpc":"2.0","method":"form.submitEnabledChanged","params":{"form":"f","enabled":false}}"#,
            #"{"jsonrpc":"2.0","id":2,"result":{"form":"f","accepted":true}}"#,
        ])
        // While the shutdown waits for the submission (a second), requests come in reads of their
        // own, more than the reader's four batches in flight; every one is answered after it.
        for id in 4...9 {
            client.send([Self.request(id, "form.snapshot", #"{"form":"f"}"#)])
            usleep(30_000)
        }
        client.send([#"{"jsonrpc":"2.0","method":"exit"}"#])
        let rest = try #require(client.readToEnd()).map(withoutTime)
        #expect(rest.filter { $0.contains(#""method":"form.submi"#) } == [
            #"{"jsonrpc":"2.0","method":"form.submissionChanged","params":{"form":"f","state":"succeeded","account":{"username":"dora"}}}"#,
        ])
        #expect(rest.filter { !$0.contains(#""method":"form.submi"#) } == [#"{"jsonrpc":"2.0","id":3,"result":null}"#] + (4...9).map {
            #"{"jsonrpc":"2.0","id":\#($0),"error":{"code":-32003,"message":"The server is shutting down; only exit is accepted"}}"#
        })
        #expect(server.terminate() == 0)
    }

    @Test(arguments: [false, true]) func connectionsShareOneDirectory(onDisk: Bool) throws {
        let folder = try TemporaryDirectory()
        let server = try ListeningServer("tcp:127.0.0.1:0", ["--debounce-ms", "0"] + (onDisk ? ["--store", folder.path("users.db")] : []))
        let registering = try server.connect(), asking = try server.connect()
        _ = Self.openValidForm(registering, username: "carol")
        registering.send([Self.request(2, "form.submit", #"{"form":"f"}"#)])
        #expect(registering.readLines { $0.contains(#""state":"succeeded""#) }.last.map(withoutTime)
            == #"{"jsonrpc":"2.0","method":"form.submissionChanged","params":{"form":"f","state":"succeeded","account":{"username":"carol"}}}"#)
        // Another connection asks about the name just registered: the one directory says taken.
        asking.send([Self.open("f", id: 1, username: "carol")])
        #expect(asking.readLines { $0.contains(#""username.taken""#) }.last.map(withoutTime)
            == #"{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"f","field":"username","state":"failed","code":"username.taken","params":{},"message":"Username already taken","version":0}}"#)
        #expect(server.terminate() == 0)
    }

    @Test func eachConnectionChoosesItsFraming() throws {
        let server = try ListeningServer("tcp:127.0.0.1:0")
        let framed = try server.connect(), lines = try server.connect()
        framed.sendFramed([Self.request(1, "form.open", #"{"form":"f","kind":"login"}"#)])
        lines.send([Self.request(1, "form.open", #"{"form":"f","kind":"login"}"#)])
        let expected = [
            #"{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"f","field":"username","state":"empty","code":"username.empty","params":{},"message":"","version":0}}"#,
            #"{"jsonrpc":"2.0","method":"form.fieldChanged","params":{"form":"f","field":"password","state":"empty","code":"password.empty","params":{},"message":"","version":0}}"#,
            #"{"jsonrpc":"2.0","method":"form.submitEnabledChanged","params":{"form":"f","enabled":false}}"#,
            #"{"jsonrpc":"2.0","id":1,"result":{"form":"f","kind":"login","version":0,"locale":"en"}}"#,
        ]
        #expect((0..<4).compactMap { _ in framed.readFrame() }.map(withoutTime) == expected)
        #expect((0..<4).compactMap { _ in lines.readLine() }.map(withoutTime) == expected)
        #expect(server.terminate() == 0)
    }

    @Test func eachConnectionIsRecordedToItsOwnFile() throws {
        let folder = try TemporaryDirectory()
        let server = try ListeningServer(unixAddress(folder), ["--debounce-ms", "0", "--record", folder.path("session.jsonl")])
        for name in ["alice", "bob"] {
            let client = try server.connect()
            _ = Self.openValidForm(client, username: name)
            client.send([Self.request(2, "shutdown"), #"{"jsonrpc":"2.0","method":"exit"}"#])
            #expect(client.readToEnd() == [#"{"jsonrpc":"2.0","id":2,"result":null}"#])
        }
        #expect(server.terminate() == 0)
        for (number, name, other) in [(1, "alice", "bob"), (2, "bob", "alice")] {
            let path = folder.path("session-\(number).jsonl")
            let recording = try String(contentsOfFile: path, encoding: .utf8)
            #expect(recording.contains(#""username":"\#(name)""#))
            #expect(!recording.contains(other))
            #expect(!recording.contains("secret"), "the password is replaced by a placeholder")
            // Each replays on its own, as a stdio session's recording does.
            let replay = try Subprocess.run(["replay", path], input: "")
            #expect(replay.status == 0, "\(replay.stderr)")
        }
    }

    @Test func everyConnectionIsTracedUnderItsNumber() throws {
        let folder = try TemporaryDirectory()
        let server = try ListeningServer(unixAddress(folder), ["--trace", folder.path("trace.jsonl")])
        let exit = #"{"jsonrpc":"2.0","method":"exit"}"#
        for id in [1, 2] {
            let client = try server.connect()
            client.send([Self.request(id, "shutdown"), exit])
            #expect(client.readToEnd() == [#"{"jsonrpc":"2.0","id":\#(id),"result":null}"#])
        }
        #expect(server.terminate() == 0)
        // Each record whole, its time taken out; each direction in the order it happened.
        let records = try String(contentsOfFile: folder.path("trace.jsonl"), encoding: .utf8).split(separator: "\n")
            .map { $0.replacingOccurrences(of: #"^\{"time":"[^"]*","#, with: "{", options: .regularExpression) }
        #expect(records.count == 6)
        for number in [1, 2] {
            let traced = records.filter { $0.hasPrefix(#"{"connection":\#(number),"#) }
            #expect(traced.filter { $0.contains(#""dir":"in""#) } == [
                #"{"connection":\#(number),"dir":"in","message":\#(Self.request(number, "shutdown"))}"#,
                #"{"connection":\#(number),"dir":"in","message":\#(exit)}"#,
            ])
            #expect(traced.filter { $0.contains(#""dir":"out""#) } == [
                #"{"connection":\#(number),"dir":"out","message":{"jsonrpc":"2.0","id":\#(number),"result":null}}"#,
            ])
        }
    }

    @Test func aConnectionPastTheLimitIsClosedAndTheOthersAreServed() throws {
        let server = try ListeningServer("tcp:127.0.0.1:0", ["--max-connections", "1"])
        let first = try server.connect()
        first.send([Self.request(1, "shutdown")])
        #expect(first.readLine() == #"{"jsonrpc":"2.0","id":1,"result":null}"#)
        let refused = try server.connect()
        #expect(refused.readToEnd() == [])
        first.send([Self.request(2, "form.snapshot")])
        #expect(first.readLine() == #"{"jsonrpc":"2.0","id":2,"error":{"code":-32003,"message":"The server is shutting down; only exit is accepted"}}"#)
        #expect(server.terminate() == 0)
    }

    @Test func listeningAddressesAreCheckedBeforeServing() throws {
        let folder = try TemporaryDirectory()
        let badAddress = try Subprocess.run(["--listen", "tcp:localhost"], input: "")
        #expect(badAddress.status == 64)
        #expect(badAddress.stderr.hasPrefix("signup-rpc: --listen takes unix:PATH or tcp:HOST:PORT, not 'tcp:localhost'"))
        let badPort = try Subprocess.run(["--listen", "tcp:127.0.0.1:65536"], input: "")
        #expect(badPort.status == 64)
        #expect(badPort.stderr.hasPrefix("signup-rpc: --listen tcp: needs a host and a port from 0 to 65535, not 'tcp:127.0.0.1:65536'"))
        let virtual = try Subprocess.run(["--listen", unixAddress(folder), "--clock", "virtual"], input: "")
        #expect(virtual.status == 64)
        #expect(virtual.stderr.hasPrefix("signup-rpc: --listen serves clients in real time; it cannot take --clock virtual"))
        // A socket another process listens on is left alone; one left behind by a killed server is replaced.
        let running = try ListeningServer(unixAddress(folder))
        let second = try Subprocess.run(["--listen", unixAddress(folder)], input: "")
        #expect(second.status == 69)
        #expect(second.stderr == "signup-rpc: cannot listen on \(unixAddress(folder)): Address already in use (another process listens there)\n")
        running.process.killHard()
        let replacing = try ListeningServer(unixAddress(folder))
        let client = try replacing.connect()
        client.send([Self.request(1, "shutdown")])
        #expect(client.readLine() == #"{"jsonrpc":"2.0","id":1,"result":null}"#)
        #expect(replacing.terminate() == 0)
    }
}
