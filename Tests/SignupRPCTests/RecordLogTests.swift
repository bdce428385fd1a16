import SignupCore
import Testing
@testable import SignupServer
@testable import SignupProtocol
@testable import SignupTools
@testable import SignupTransport

/// What the loop notes for a recording reads back exactly, in order; and the encoder finds each
/// open form's kind by its id's hash, ids that share a hash included.
@Suite struct RecordLogTests {
    /// A record read back, as text to compare.
    private static func describe(_ entry: RecordLog.Entry, fields: EncodedFieldTable.Snapshot) -> String {
        func text(_ bytes: UnsafeRawBufferPointer?) -> String {
            bytes.map { String(decoding: $0, as: UTF8.self) } ?? "nil"
        }
        switch entry {
        case .keptEdit(let time):
            return "kept edit t=\(time)"
        case .teedOut(let time):
            return "teed out t=\(time)"
        case .fieldChanged(let time, let change):
            let members = fields.withMembers(change.fieldResult) { String(decoding: $0, as: UTF8.self) }
            return "field t=\(time) form=\(text(change.form)) version=\(change.version) at=\(change.at) \(members)"
        case .value(let record):
            return switch record.content {
            case .cancelled(let number): "cancel t=\(record.time) \(number)"
            case .end(let reason): "end t=\(record.time) \(reason)"
            default: "other t=\(record.time)"
            }
        case .context(.formKind(let id, _)):
            return "form kind \(id)"
        case .context(.editLines(let lines)):
            return "edit lines \(lines.count)"
        case .context(.comparedValues(let values)):
            return "compared \(values.sorted { $0.key < $1.key })"
        }
    }

    @Test func editsFieldChangesAndOtherRecordsReadBackInOrder() throws {
        let results = EncodedFieldResults()
        let update = FieldUpdate(
            field: "username", result: FieldResult(state: .ok, code: "username.available", params: [:], message: "Available"),
            version: 3)
        let entry = try #require(results.entry(for: update))
        var log = RecordLog(capacity: 16)
        // A form id longer than the capacity (the log grows), text that JSON escapes, Int64's extremes.
        let long = String(repeating: "é\"", count: 40)
        log.append(EncodingContext.editLines(KeptEditLines()))
        log.append(EncodingContext.comparedValues(["username": "ann"]))
        log.appendKeptEdit(at: 10)
        log.append(SessionRecord(time: 11, content: .cancelled(4)))
        log.appendFieldChanged(form: "f1", fieldResult: entry.number, version: 3, at: 12, time: 12)
        log.appendFieldChanged(form: long, fieldResult: entry.number, version: Int.max, at: Int64.min, time: 13)
        log.appendFieldChanged(form: "", fieldResult: entry.number, version: 0, at: -5, time: 14)
        log.appendKeptEdit(at: Int64.max)
        log.appendTeedOut(at: Int64.min)
        log.append(SessionRecord(time: 15, content: .end("input")))

        var read: [String] = []
        let fields = results.table.snapshot()
        log.forEach { read.append(Self.describe($0, fields: fields)) }
        let members = #","field":"username","state":"ok","code":"username.available","params":{},"message":"Available""#
        #expect(read == [
            "edit lines 0",
            #"compared [(key: "username", value: "ann")]"#,
            "kept edit t=10",
            "cancel t=11 4",
            "field t=12 form=f1 version=3 at=12 \(members)",
            "field t=13 form=\(long) version=\(Int.max) at=\(Int64.min) \(members)",
            "field t=14 form= version=0 at=-5 \(members)",
            "kept edit t=\(Int64.max)",
            "teed out t=\(Int64.min)",
            "end t=15 input",
        ])
        #expect(log.count == 10)
    }

    @Test func anEmptyLogReadsNothing() {
        let log = RecordLog(capacity: 0)
        var read = 0
        log.forEach { _ in read += 1 }
        #expect(log.isEmpty && read == 0)
    }

    private static let sharedHash: UInt64 = 42

    @Test func formsAreFoundByTheirIdsHashEvenWhenIdsShareOne() {
        let kinds = FormCatalog.builtIn.definitions.map {
            SecretFieldsOfKind($0, secretFieldsOfAnyKind: [:], secretNames: ["password"])
        }
        let signup = kinds[0], other = kinds[1]
        // Every id hashes alike: all but the first open one are kept apart by id.
        var forms = OpenFormKinds(hash: { _ in Self.sharedHash })
        forms.set(signup, ofForm: "a")
        forms.set(other, ofForm: "b")
        #expect(forms.kind(ofForm: "a", hash: Self.sharedHash) === signup)
        #expect(forms.kind(ofForm: "b", hash: Self.sharedHash) === other)
        #expect(forms.kind(ofForm: "c", hash: Self.sharedHash) == nil)
        // Closing the first leaves the second found; reopening the first as the other kind finds that.
        forms.set(nil, ofForm: "a")
        #expect(forms.kind(ofForm: "a", hash: Self.sharedHash) == nil)
        #expect(forms.kind(ofForm: "b", hash: Self.sharedHash) === other)
        forms.set(other, ofForm: "a")
        #expect(forms.kind(ofForm: "a", hash: Self.sharedHash) === other)
        forms.set(signup, ofForm: "b")
        #expect(forms.kind(ofForm: "b", hash: Self.sharedHash) === signup)
        forms.set(nil, ofForm: "b")
        #expect(forms.kind(ofForm: "b", hash: Self.sharedHash) == nil)
        #expect(forms.kind(ofForm: "a", hash: Self.sharedHash) === other)
    }
}

/// The bound on what waits for the recording's thread.
@Suite struct InFlightBudgetTests {
    @Test func takingWaitsOnlyWhileMoreWouldPassTheLimitAndSomethingIsInFlight() {
        let budget = InFlightBudget(limit: 10)
        #expect(!budget.wouldWait(for: 100), "one piece larger than the limit still goes when nothing waits")
        budget.take(6)
        #expect(budget.inFlight == 6)
        #expect(!budget.wouldWait(for: 4))
        #expect(budget.wouldWait(for: 5))
        budget.take(4)
        #expect(budget.wouldWait(for: 1))
        budget.giveBack(6)
        #expect(budget.inFlight == 4)
        #expect(!budget.wouldWait(for: 6))
        #expect(budget.wouldWait(for: 7))
        budget.giveBack(4)
        #expect(budget.inFlight == 0 && !budget.wouldWait(for: 1_000))
    }

    @Test func aWaitingTakerGoesOnOnceEnoughIsGivenBack() async {
        let budget = InFlightBudget(limit: 10)
        budget.take(8)
        let taker = Task.detached { budget.take(5) }
        budget.giveBack(8)
        await taker.value
        #expect(budget.inFlight == 5)
    }
}

private extension OpenFormKinds {
    /// The kind of the form `id`, whose id hashes to `hash`; nil when it is not open.
    func kind(ofForm id: String, hash: UInt64) -> SecretFieldsOfKind? {
        Array(id.utf8).withUnsafeBytes { kind(ofForm: $0, hash: hash) }
    }
}
