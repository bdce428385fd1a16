import Testing
@testable import SignupTools
@testable import SignupProtocol

/// The secrets a recording watches for in messages out and backend answers: found in one pass a
/// length, replaced leftmost first and, at one place, the longest.
@Suite struct WatchedSecretsTests {
    private func watching(_ secrets: [String]) -> WatchedSecrets {
        WatchedSecrets(secrets)
    }

    private func occurs(_ watched: WatchedSecrets, in text: String) -> Bool {
        Array(text.utf8).withUnsafeBufferPointer { watched.occurs(in: $0) }
    }

    @Test func everyOccurrenceIsReplacedLeftmostFirstAndLongestAtOnePlace() {
        let watched = watching(["abc", "abcdef", "cde", "é!"])
        let replaced = watched.replacingOccurrences(in: "xxabcdefyy cde abc abcd é!é! ab") { "<\($0)>" }
        #expect(replaced == "xx<abcdef>yy <cde> <abc> <abc>d <é!><é!> ab")
        #expect(watched.replacingOccurrences(in: "ab cd ef", with: { _ in "•" }) == nil)
        #expect(watched.replacingOccurrences(in: "", with: { _ in "•" }) == nil)
        #expect(occurs(watched, in: #"{"message":"xcdex"}"#))
        #expect(!occurs(watched, in: #"{"message":"xcd ex"}"#))
        #expect(!occurs(watched, in: "ab"))
    }

    @Test func aSecretAsLongAsTheTextOrLongerIsFoundOnlyWhole() {
        let watched = watching(["token-1234", "token-12345678"])
        #expect(occurs(watched, in: "token-1234"))
        #expect(!occurs(watched, in: "token-123"))
        #expect(watched.replacingOccurrences(in: "token-1234", with: { _ in "•" }) == "•")
        #expect(watched.replacingOccurrences(in: "token-12345678", with: { _ in "•" }) == "•")
        #expect(watched.replacingOccurrences(in: "token-1234567", with: { _ in "#" }) == "#567")
    }

    @Test func tenThousandTokensOfOneLengthAreEachFound() {
        let tokens = (0..<10_000).map { String(repeating: "0", count: 8 - String($0).count) + String($0) + "-token" }
        let watched = watching(tokens + [""])
        #expect(watched.replacingOccurrences(in: #"{"token":"00009999-token"}"#, with: { _ in "T" }) == #"{"token":"T"}"#)
        #expect(watched.replacingOccurrences(in: "a 00000000-token and 00004242-token", with: { "[\($0.prefix(8))]" })
                == "a [00000000] and [00004242]")
        #expect(!occurs(watched, in: #"{"token":"00010000-token"}"#))
        #expect(occurs(watched, in: #"{"token":"00000017-token"}"#))
    }

    @Test func nothingIsWatchedForUntilASecretIsGiven() {
        var watched = WatchedSecrets()
        #expect(watched.isEmpty)
        watched.insert([])
        #expect(watched.isEmpty)
        #expect(watched.replacingOccurrences(in: "anything", with: { _ in "•" }) == nil)
        watched.insert(Array("x".utf8))
        watched.insert(Array("x".utf8))
        #expect(!watched.isEmpty)
        #expect(watched.replacingOccurrences(in: "axbxx", with: { _ in "•" }) == "a•b••")
    }
}

/// A message out is written with every token a backend gave out replaced, whether the token is a
/// whole string of it or part of one.
@Suite struct TokensInMessagesOutTests {
    @Test func aTokenWithinAStringOfAMessageOutIsReplacedAsAWholeOneIs() throws {
        var secrets = RecordingSecrets(clock: .virtual, redaction: SecretRedaction(forms: [.signup]), logger: nil)
        guard case .login(.loggedIn(let placeholder)) = secrets.hiding(in: .login(.loggedIn(token: "tok-SECRET-1234")), number: 1) else {
            Issue.record("a log-in answer stays a log-in answer")
            return
        }
        #expect(placeholder != "tok-SECRET-1234")
        #expect(placeholder.count == "tok-SECRET-1234".count)
        let line = #"{"a":"tok-SECRET-1234","b":"your token tok-SECRET-1234 expires","c":"tok-SECRET-123"}"#
        let hidden = try #require(Array(line.utf8).withUnsafeBufferPointer { secrets.hiding(inOut: $0) })
        #expect(hidden == .object([
            .init(key: "a", value: .string(placeholder)),
            .init(key: "b", value: .string("your token \(placeholder) expires")),
            .init(key: "c", value: .string("tok-SECRET-123")),
        ]))
        #expect(Array(#"{"a":"nothing secret"}"#.utf8).withUnsafeBufferPointer { secrets.hiding(inOut: $0) } == nil)
    }
}
