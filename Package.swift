// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "SignupRPC",
    products: [
        .library(name: "SignupCore", targets: ["SignupCore"]),
        .library(name: "SignupBackends", targets: ["SignupBackends"]),
        .executable(name: "signup-rpc", targets: ["SignupRPC"]),
        .executable(name: "signup-fuzz", targets: ["SignupFuzz"]),
        .executable(name: "signup-bench", targets: ["SignupBench"]),
        .executable(name: "signup-echo", targets: ["SignupEcho"]),
        .executable(name: "signup-marbles", targets: ["SignupMarbles"]),
        .executable(name: "signup-bowtie", targets: ["SignupBowtie"]),
    ],
    targets: [
        // SQLite's API (header from libsqlite3-dev); libsqlite3.so.0 is loaded on first use.
        .target(name: "CSQLite"),
        .systemLibrary(name: "CCrypt", providers: [.apt(["libcrypt-dev"])]),
        // libcurl for the HTTP backend, loaded with dlopen on first use (see CCurl.h).
        .target(name: "CCurl"),
        // libpq for `--store postgresql://…`, loaded with dlopen on first use (see CPostgres.h);
        // its header comes from Debian's libpq-dev.
        .target(name: "CPostgres"),
        // ICU's C API: regular expressions whose matches stop after a number of steps, and NFKC
        // in linear time; loaded with dlopen on first use (see CICU.h); headers from libicu-dev.
        .target(name: "CICU"),
        // The reactive core, the forms and the validation an app uses, and the ports its backends
        // answer through.
        .target(name: "SignupCore", dependencies: ["CICU"]),
        // The backends behind those ports: the SQLite and PostgreSQL stores, the HTTP engine and
        // what it asks (checks, submissions, breached passwords, the HTTP directory), the
        // scripted directory, and password hashing.
        .target(name: "SignupBackends", dependencies: ["SignupCore", "CSQLite", "CCrypt", "CCurl", "CPostgres"]),
        // The protocol's model and codec: messages to typed requests and results to bytes, with
        // no I/O of its own.
        .target(name: "SignupProtocol", dependencies: ["SignupCore"]),
        // Linux's epoll for `--listen`'s sockets, without its packed event struct (see EventPoll.h).
        .target(name: "CEventPoll"),
        // Bytes and framing: cutting messages out of a byte stream (lines or LSP's base protocol),
        // writing whole buffers to a descriptor, and every socket on one poller thread. Knows
        // nothing of messages or forms.
        .target(name: "SignupTransport", dependencies: ["CEventPoll"]),
        // JSON Schema (draft 2020-12 and draft-07): a registry of schemas by URI, and a validator
        // whose output is the specification's; reads the protocol's JSON, no I/O of its own.
        .target(name: "SignupSchema", dependencies: ["SignupCore", "SignupProtocol", "CICU"]),
        // The validator as a Bowtie harness (IHOP version 1 on stdio), for the JSON-Schema-Test-Suite.
        .executableTarget(name: "SignupBowtie", dependencies: ["SignupSchema", "SignupProtocol", "SignupCore"]),
        // The readers of form definitions: form files (protocol.md §13) and JSON Schemas (§17).
        .target(name: "SignupFormFiles", dependencies: ["SignupCore", "SignupProtocol", "SignupSchema"]),
        .target(name: "SignupServer", dependencies: ["SignupCore", "SignupBackends", "SignupProtocol", "SignupTransport", "SignupFormFiles"]),
        // Beside the server, not in its path: recording (`--record`), replay, marble diagrams, and
        // the server driven in process that they, the fuzzer and the tests run on.
        .target(name: "SignupTools", dependencies: ["SignupCore", "SignupBackends", "SignupProtocol", "SignupTransport", "SignupServer", "SignupSchema", "SignupFormFiles"]),
        // Blocks SIGTERM and SIGINT before main, so that none is lost while the process starts.
        .target(name: "CEarlySignals"),
        .executableTarget(name: "SignupRPC", dependencies: ["SignupServer", "SignupTools", "CEarlySignals"]),
        .target(name: "CFuzzerDriver"),
        .executableTarget(name: "SignupFuzz", dependencies: ["SignupServer", "SignupProtocol", "SignupTools", "CFuzzerDriver"]),
        .executableTarget(name: "SignupEcho"),
        // Draws recorded sessions and fixtures as marble diagrams (SVG).
        .executableTarget(name: "SignupMarbles", dependencies: ["SignupServer", "SignupProtocol", "SignupTools"]),
        // Depends on the two executables it runs, so `swift run -c release signup-bench` builds them.
        .target(name: "CProcessPlacement"),
        .executableTarget(name: "SignupBench", dependencies: ["SignupCore", "SignupBackends", "SignupRPC", "SignupEcho", "CProcessPlacement", "CEventPoll"]),
        .target(name: "SignupTestSupport", path: "Tests/SignupTestSupport"),
        .testTarget(name: "SignupCoreTests", dependencies: ["SignupCore", "SignupBackends", "SignupTestSupport"]),
        .testTarget(name: "SignupSchemaTests", dependencies: ["SignupSchema", "SignupProtocol", "SignupCore"]),
        .testTarget(
            name: "SignupRPCTests",
            dependencies: ["SignupServer", "SignupProtocol", "SignupTransport", "SignupTools", "SignupRPC", "SignupFuzz", "SignupBench", "SignupMarbles", "SignupCore", "SignupBackends", "SignupTestSupport", "CProcessPlacement", "SignupFormFiles", "SignupSchema"],
            exclude: ["BadInput"]),
    ]
)
