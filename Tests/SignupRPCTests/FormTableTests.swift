import Testing
import SignupBackends
import SignupCore
@testable import SignupServer
@testable import SignupProtocol
@testable import SignupTools
@testable import SignupTransport

@Suite struct FormTableTests {
    private let scheduler = VirtualTimeScheduler()

    private func session(_ id: String) -> FormSession {
        let services = FormServices(directory: ScriptedDirectory(scheduler: scheduler))
        return FormSession(id: id, pipeline: FormPipeline(definition: .signup, services: services, scheduler: scheduler))
    }

    /// Against a `Dictionary` kept alongside: every id, open or closed, is found exactly when the
    /// dictionary has it, through growth and through removals that shift later slots back. With
    /// few ids the table stays small and runs of slots often wrap around its end.
    @Test(arguments: [7, 600], 0..<8 as Range<UInt64>)
    func findsExactlyTheOpenFormsThroughGrowthAndRemoval(idCount: Int, seed: UInt64) {
        var table = FormTable(seed: seed)
        var expected: [String: FormSession] = [:]
        var random = SeededGenerator(seed: seed)
        let ids = (0..<idCount).map { "f\($0)" } + ["", "é", "a much longer form id than sixteen bytes"]
        for round in 0..<4000 {
            let id = ids.randomElement(using: &random)!
            if expected[id] == nil, round % 3 != 0 {
                let opened = session(id)
                table.insert(opened)
                expected[id] = opened
            } else {
                #expect(table.remove(id)?.pipeline === expected.removeValue(forKey: id)?.pipeline)
            }
            #expect(table.count == expected.count)
            if round % 50 == 0 || idCount < 100 {
                for id in ids {
                    #expect(table[id]?.pipeline === expected[id]?.pipeline, "\(id) after round \(round)")
                    #expect(table.pipeline(id) === expected[id]?.pipeline)
                    // A table of its own seed hashes the id again rather than take the process's hash.
                    #expect(table.pipeline(id, processHash: FormIDHash.process(id)) === expected[id]?.pipeline)
                }
            }
        }
        #expect(Set(table.values.map(\.id)) == Set(expected.keys))
        table.removeAll()
        #expect(table.count == 0)
        #expect(ids.allSatisfy { table[$0] == nil })
    }

    /// With the process's seed, the table finds a form by the hash its edit line came with
    /// (`FormEditLine.formHash`), and only by the id's own hash.
    @Test func aTableOfTheProcessSeedTakesTheHashAnEditCameWith() {
        var table = FormTable()
        let ids = (0..<300).map { "f\($0)" } + ["", "a much longer form id than sixteen bytes"]
        let sessions = ids.map(session)
        sessions.forEach { table.insert($0) }
        for (id, opened) in zip(ids, sessions) {
            #expect(table.pipeline(id, processHash: FormIDHash.process(id)) === opened.pipeline)
        }
        #expect(table.pipeline("f300", processHash: FormIDHash.process("f300")) == nil)
        #expect(table.pipeline("f1", processHash: FormIDHash.process("f1") ^ 1) == nil)
    }
}
