import SignupCore
import Testing
@testable import SignupServer

/// Field results written from the fragment cache must read exactly as when encoded afresh.
@Suite struct ResultFragmentsTests {
    private func fresh(_ result: FieldResult) -> String {
        var writer = JSONWriter()
        Notifications.writeResult(result, to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    private func cached(_ result: FieldResult, _ fragments: inout ResultFragments) -> String {
        var writer = JSONWriter()
        fragments.write(result, to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    @Test func everyResultReadsAsEncodedAfreshHitOrMiss() {
        // More results than places, each written several times in turn: hits, misses and
        // evictions, with params and characters that need escaping.
        let results = (0..<200).map { number in
            FieldResult(
                state: FieldState.allCases[number % 4], code: "code.\(number)",
                params: number.isMultiple(of: 3) ? ["min": .int(Int64(number)), "field": .string("p\"w")] : [:],
                message: "Message \(number) \"quoted\"\n")
        }
        var fragments = ResultFragments()
        for round in 0..<3 {
            for result in results {
                #expect(cached(result, &fragments) == fresh(result), "round \(round): \(result)")
            }
        }
    }

    @Test func aResultWhoseStateChangesIsEncodedForItsNewState() {
        var fragments = ResultFragments()
        var result = FieldResult(state: .validating, code: "username.checking", message: "Checking availability...")
        #expect(cached(result, &fragments).hasPrefix(#","state":"validating","#))
        // Same texts, another state.
        result.state = .ok
        #expect(cached(result, &fragments) == fresh(result))
        #expect(cached(result, &fragments).hasPrefix(#","state":"ok","#))
    }
}
