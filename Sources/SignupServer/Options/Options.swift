import Foundation
import SignupBackends
import SignupCore
import SignupProtocol
import SignupTransport

/// What the command line asks for.
package enum Invocation {
    case run(ServerConfiguration, directoryFile: String?, formsFolder: String?, tracePath: String? = nil, recordPath: String? = nil,
             listen: ListenAddress? = nil)
    /// `signup-rpc replay FILE [--write-fixture PATH]`.
    case replay(recording: String, fixture: String?)
    /// `signup-rpc validate SCHEMA [--draft 2020-12|7] [--assert-formats] [--output flag|basic|detailed]`.
    case validate(ValidateRequest)
    /// `signup-rpc schemas DIR [--check]`.
    case schemas(directory: String, check: Bool)
    case help
    case version
}

/// What `signup-rpc validate` is asked to do: judge each JSON instance on stdin against a schema.
package struct ValidateRequest: Equatable, Sendable {
    package enum Output: String, Sendable { case flag, basic, detailed }

    package var schemaPath: String
    /// The dialect of a schema without `$schema`: `2020-12` or `7`.
    package var draft = "2020-12"
    package var assertsFormats = false
    package var output = Output.basic
}

/// A command line the program cannot run with; exits 64 (EX_USAGE) after printing usage.
package struct UsageError: Error, Equatable, CustomStringConvertible {
    package var description: String
}

/// Parses `signup-rpc [--clock real|virtual] [--debounce-ms N] [--directory FILE] [--log-level LEVEL] …`.
/// Each option takes its value as the next argument or after `=`.
package enum Options {
    package static let usage = """
        usage: signup-rpc [options]

        Speaks JSON-RPC 2.0 over stdin/stdout, one message per line or LSP-framed (see protocol.md).

        options:
          --clock real|virtual     real: debounce and latency in wall-clock time (default);
                                   virtual: time moves only by clock.advance or a message's "at"
          --framing auto|lines|lsp one message per line, or LSP's Content-Length headers;
                                   auto (default) follows the client's first bytes
          --listen unix:PATH|tcp:HOST:PORT
                                   serve every client that connects there, each its own session
                                   sharing the store, instead of one client on stdin/stdout
          --max-connections N      most clients connected at once under --listen (default 16384)
          --trace FILE             write every message in and out to FILE, timed, secrets hidden
          --record FILE            record the session to FILE for `signup-rpc replay` and
                                   signup-marbles: messages and backend answers, timed, secrets
                                   replaced by placeholders of the same validity; under --listen
                                   each connection N to FILE-N (x.jsonl: x-1.jsonl, x-2.jsonl, …)

        signup-rpc validate SCHEMA [--draft 2020-12|7] [--assert-formats] [--output flag|basic|detailed]
                                   judges each JSON instance on stdin (one a line) against the
                                   JSON Schema in SCHEMA; prints one output a line (protocol.md §17)

        signup-rpc schemas DIR [--check]
                                   writes the protocol's OpenRPC document and messages.schema.json
                                   into DIR; --check exits 1 if the files there differ from them

        signup-rpc replay FILE [--write-fixture PATH]
                                   replays a recording on the virtual clock, its backend
                                   answering as recorded; exits 1 at the first difference.
                                   --write-fixture writes PATH.jsonl, PATH.out.jsonl,
                                   PATH.directory.json and PATH.flags, a fixture of it
          --debounce-ms N          quiet time before a remote check runs (default 300; 0 = at once)
          --directory FILE         scripted user directory as JSON (default: the built-in one)
          --store PATH|URI         durable user directory: an SQLite file (created if missing), or a
                                   PostgreSQL database shared by many processes (postgresql://…
                                   or a libpq key=value string; PG* environment variables apply)
          --availability-url URL   HTTP backend: GET URL with {username}; 404 means available
          --signup-url URL         HTTP backend: POST {"username","password"} as JSON to register
          --login-url URL          HTTP backend: POST {"username","password"} as JSON to log in
          --friends-url URL        HTTP backend: POST a friend to add, PATCH URL/ID to update
          --http-timeout-ms N      HTTP backend: request timeout (default 5000)
          --session-checks-per-minute N
                                   availability checks a client may ask per minute (default 120;
                                   0 = unbounded), however often it reconnects: a client is a remote
                                   peer's address, a local connection, or the key a trusted frontend
                                   names; past it the field fails with check.budgetExceeded
          --store-checks-per-minute N
                                   the same for all clients on the store (default 6000; counted by
                                   every process on PostgreSQL, by this one otherwise); once spent,
                                   a client that asked at most 12 this minute is still answered
          --trust-client-keys      take initialize's clientKey as whose check budget a connection
                                   spends (for a bridge that names the person behind it)
          --log-level LEVEL        error, warning (default), info or debug, on stderr
          --parent-pid PID         exit when this process (the client) has exited
          --forms DIR              load more form kinds from the JSON files in DIR
          --max-line-bytes N       longest accepted line (default 1048576)
          --max-value-length N     longest field value in characters (default 4096)
          --max-value-bytes N      longest field value in UTF-8 bytes (default 16384)
          --max-forms N            most forms open at once (default 10000)
          --max-batch N            most messages in one batch (default 1000)
          --help                   show this help
          --version                show the version

        """

    package static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        if arguments.first == "replay" { return try parseReplay(Array(arguments.dropFirst())) }
        if arguments.first == "validate" { return try parseValidate(Array(arguments.dropFirst())) }
        if arguments.first == "schemas" { return try parseSchemas(Array(arguments.dropFirst())) }
        var configuration = ServerConfiguration()
        var directoryFile: String?
        var storePath: String?
        var availabilityTemplate: String?
        var signupURL: String?
        var loginURL: String?
        var friendsURL: String?
        var httpTimeout = TimeSpan.milliseconds(5000)
        var formsFolder: String?
        var tracePath: String?
        var recordPath: String?
        var listen: ListenAddress?
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func value() throws(UsageError) -> String {
                if let inlineValue { return inlineValue }
                guard index < arguments.count else { throw UsageError(description: "\(name) needs a value") }
                index += 1
                return arguments[index - 1]
            }
            func count(maximum: Int64 = Int64(Int32.max)) throws(UsageError) -> Int {
                let text = try value()
                guard let number = Int64(text), number >= 0, number <= maximum else {
                    throw UsageError(description: "\(name) needs a whole number from 0 to \(maximum), not '\(text)'")
                }
                return Int(number)
            }
            func positive() throws(UsageError) -> Int {
                let number = try count()
                guard number > 0 else { throw UsageError(description: "\(name) must be at least 1") }
                return number
            }
            switch name {
            case "--help", "-h":
                return .help
            case "--version":
                return .version
            case "--trace":
                tracePath = try value()
            case "--record":
                recordPath = try value()
            case "--listen":
                listen = try ListenAddress(parsing: try value())
            case "--max-connections":
                configuration.maxConnections = try positive()
            case "--framing":
                let text = try value()
                guard let framing = Framing(rawValue: text) else {
                    throw UsageError(description: "--framing takes auto, lines or lsp, not '\(text)'")
                }
                configuration.framing = framing
            case "--clock":
                let text = try value()
                guard let mode = ClockMode(rawValue: text) else {
                    throw UsageError(description: "--clock takes real or virtual, not '\(text)'")
                }
                configuration.clock = mode
            case "--debounce-ms":
                configuration.debounce = .milliseconds(Int64(try count()))
            case "--directory":
                directoryFile = try value()
            case "--store":
                storePath = try value()
                guard !storePath!.isEmpty else { throw UsageError(description: "--store needs a file path") }
            case "--availability-url":
                availabilityTemplate = try value()
            case "--signup-url":
                signupURL = try value()
            case "--login-url":
                loginURL = try value()
            case "--friends-url":
                friendsURL = try value()
            case "--forms":
                formsFolder = try value()
            case "--parent-pid":
                configuration.parentProcessID = Int32(try positive())
            case "--session-checks-per-minute":
                configuration.checkBudget.session = try count()
            case "--store-checks-per-minute":
                configuration.checkBudget.store = try count()
            case "--trust-client-keys":
                configuration.trustsClientKeys = true
            case "--http-timeout-ms":
                httpTimeout = .milliseconds(Int64(try positive()))
            case "--log-level":
                let text = try value()
                guard let level = LogLevel(name: text) else {
                    throw UsageError(description: "--log-level takes error, warning, info or debug, not '\(text)'")
                }
                configuration.logLevel = level
            default:
                if let limit = Limits.members.first(where: { $0.option == name })?.value {
                    configuration.limits[keyPath: limit] = try positive()
                    continue
                }
                throw UsageError(description: argument.hasPrefix("-")
                    ? "unknown option '\(name)'" : "unexpected argument '\(argument)'")
            }
        }
        if listen != nil && configuration.clock == .virtual {
            throw UsageError(description: "--listen serves clients in real time; it cannot take --clock virtual")
        }
        configuration.backend = try backend(
            directoryFile: directoryFile, storePath: storePath,
            availabilityTemplate: availabilityTemplate, signupURL: signupURL, loginURL: loginURL, friendsURL: friendsURL,
            httpTimeout: httpTimeout, clock: configuration.clock)
        return .run(configuration, directoryFile: directoryFile, formsFolder: formsFolder, tracePath: tracePath,
                    recordPath: recordPath, listen: listen)
    }

    /// `replay FILE [--write-fixture PATH]`.
    private static func parseReplay(_ arguments: [String]) throws(UsageError) -> Invocation {
        var recording: String?
        var fixture: String?
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--write-fixture" || argument.hasPrefix("--write-fixture=") {
                if let equals = argument.firstIndex(of: "=") {
                    fixture = String(argument[argument.index(after: equals)...])
                } else {
                    guard let path = rest.popFirst() else { throw UsageError(description: "--write-fixture needs a path") }
                    fixture = path
                }
            } else if argument.hasPrefix("-") {
                throw UsageError(description: "unknown option '\(argument)' for replay")
            } else if recording == nil {
                recording = argument
            } else {
                throw UsageError(description: "replay takes one recording, not also '\(argument)'")
            }
        }
        guard let recording else { throw UsageError(description: "replay needs a recording file") }
        if fixture?.isEmpty == true { throw UsageError(description: "--write-fixture needs a path") }
        return .replay(recording: recording, fixture: fixture)
    }

    /// `validate SCHEMA [--draft 2020-12|7] [--assert-formats] [--output flag|basic|detailed]`.
    private static func parseValidate(_ arguments: [String]) throws(UsageError) -> Invocation {
        var schema: String?
        var request = ValidateRequest(schemaPath: "")
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--assert-formats": request.assertsFormats = true
            case "--draft":
                guard let draft = rest.popFirst(), ["2020-12", "7"].contains(draft) else {
                    throw UsageError(description: "--draft takes 2020-12 or 7")
                }
                request.draft = draft
            case "--output":
                guard let name = rest.popFirst(), let output = ValidateRequest.Output(rawValue: name) else {
                    throw UsageError(description: "--output takes flag, basic or detailed")
                }
                request.output = output
            default:
                if argument.hasPrefix("-") { throw UsageError(description: "unknown option '\(argument)' for validate") }
                guard schema == nil else { throw UsageError(description: "validate takes one schema, not also '\(argument)'") }
                schema = argument
            }
        }
        guard let schema else { throw UsageError(description: "validate needs a schema file") }
        request.schemaPath = schema
        return .validate(request)
    }

    /// A libpq connection string (a `postgresql://` or `postgres://` URI, or `key=value` pairs);
    /// anything else names an SQLite file.
    static func isPostgres(_ store: String) -> Bool {
        store.hasPrefix("postgresql://") || store.hasPrefix("postgres://")
            || store.split(separator: " ").contains { $0.range(of: #"^[a-z_]+="#, options: .regularExpression) != nil }
    }

    /// Exactly one source of truth per process.
    private static func backend(
        directoryFile: String?, storePath: String?, availabilityTemplate: String?, signupURL: String?,
        loginURL: String?, friendsURL: String?, httpTimeout: TimeSpan, clock: ClockMode
    ) throws(UsageError) -> BackendChoice {
        let usesHTTP = [availabilityTemplate, signupURL, loginURL, friendsURL].contains { $0 != nil }
        let sources = [directoryFile != nil ? "--directory" : nil, storePath != nil ? "--store" : nil,
                       usesHTTP ? "the HTTP URLs" : nil].compactMap { $0 }
        if sources.count > 1 {
            throw UsageError(description: "choose one user directory: \(sources.joined(separator: " or ")), not several")
        }
        if let storePath { return isPostgres(storePath) ? .postgres(conninfo: storePath) : .store(path: storePath) }
        guard usesHTTP else { return .scripted }
        guard let availabilityTemplate, let signupURL else {
            throw UsageError(description: "the HTTP backend needs both --availability-url and --signup-url")
        }
        guard availabilityTemplate.contains("{username}"),
              URL(string: availabilityTemplate.replacingOccurrences(of: "{username}", with: "x"))?.scheme != nil else {
            throw UsageError(description: "--availability-url must be an absolute URL containing {username}")
        }
        func absolute(_ text: String?, _ option: String) throws(UsageError) -> URL? {
            guard let text else { return nil }
            guard let url = URL(string: text), url.scheme != nil else {
                throw UsageError(description: "\(option) must be an absolute URL")
            }
            return url
        }
        let endpoints = HTTPDirectory.Configuration(
            availabilityTemplate: availabilityTemplate, signupURL: try absolute(signupURL, "--signup-url")!,
            loginURL: try absolute(loginURL, "--login-url"), friendsURL: try absolute(friendsURL, "--friends-url"),
            timeout: httpTimeout)
        guard clock == .real else {
            throw UsageError(description: "the HTTP backend answers in real time; it needs --clock real")
        }
        return .http(endpoints)
    }
}
