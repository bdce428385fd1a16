import SignupCore
import Testing
@testable import SignupServer
@testable import SignupProtocol
@testable import SignupTools
@testable import SignupTransport

/// A field's result is encoded once per field, texts and state, and reads exactly as encoded afresh.
@Suite struct EncodedFieldResultsTests {
    private func fresh(_ update: FieldUpdate) -> String {
        var writer = JSONWriter()
        writer.verbatim(#","field":"#)
        writer.string(update.field)
        Notifications.writeResult(update.result, to: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    private func members(_ entry: EncodedFieldResult) -> String {
        String(decoding: entry.members, as: UTF8.self)
    }

    @Test func everyEntryReadsAsEncodedAfreshAndIsFoundAgain() throws {
        // More results than the recent places, each asked for several times in turn, with params
        // and characters that need escaping.
        let updates = (0..<200).map { number in
            FieldUpdate(
                field: number.isMultiple(of: 2) ? "username" : "repeated\"Password",
                result: FieldResult(
                    state: FieldState.allCases[number % 4], code: "code.\(number)",
                    params: number.isMultiple(of: 3) ? ["min": .int(Int64(number)), "field": .string("p\"w")] : [:],
                    message: "Message \(number) \"quoted\"\n"),
                version: number)
        }
        let results = EncodedFieldResults()
        var first: [EncodedFieldResult] = []
        for update in updates {
            let entry = try #require(results.entry(for: update))
            #expect(members(entry) == fresh(update))
            first.append(entry)
        }
        for round in 0..<2 {
            for (update, entry) in zip(updates, first) {
                #expect(results.entry(for: update) === entry, "round \(round): \(update)")
            }
        }
        #expect(results.count == updates.count)
    }

    @Test func theSameTextsInAnotherStateOrFieldHaveTheirOwnEntry() throws {
        let results = EncodedFieldResults()
        var result = FieldResult(state: .validating, code: "username.checking", message: "Checking availability...")
        let validating = try #require(results.entry(for: FieldUpdate(field: "username", result: result, version: 1)))
        result.state = .ok
        let ok = try #require(results.entry(for: FieldUpdate(field: "username", result: result, version: 2)))
        let otherField = try #require(results.entry(for: FieldUpdate(field: "nickname", result: result, version: 2)))
        #expect(members(validating).hasPrefix(#","field":"username","state":"validating","#))
        #expect(members(ok).hasPrefix(#","field":"username","state":"ok","#))
        #expect(members(otherField).hasPrefix(#","field":"nickname","state":"ok","#))
        #expect(results.count == 3)
        // A copy of a result shares its texts, and so its entry.
        let copy = result
        #expect(results.entry(for: FieldUpdate(field: "username", result: copy, version: 9)) === ok)
        #expect(results.count == 3)
    }

    @Test func aFullRegistryAddsNothingAndStillFindsWhatItHas() throws {
        let results = EncodedFieldResults()
        let kept = FieldUpdate(field: "username", result: FieldResult(state: .ok, code: "kept", message: ""), version: 0)
        let keptEntry = try #require(results.entry(for: kept))
        for number in 1..<EncodedFieldResults.mostEntries {
            let update = FieldUpdate(field: "username", result: FieldResult(state: .ok, code: "c\(number)", message: ""), version: 0)
            #expect(results.entry(for: update) != nil)
        }
        #expect(results.count == EncodedFieldResults.mostEntries)
        let extra = FieldUpdate(field: "username", result: FieldResult(state: .ok, code: "one too many", message: ""), version: 0)
        #expect(results.entry(for: extra) == nil)
        #expect(results.entry(for: kept) === keptEntry)
        #expect(results.count == EncodedFieldResults.mostEntries)
    }
}
