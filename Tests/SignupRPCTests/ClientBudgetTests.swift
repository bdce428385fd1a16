import Foundation
import Testing
import SignupCore

/// Check budgets keyed by client (issue 54): a client that reconnects gets no fresh budget, and
/// the store's bound refuses the client that spent it, not the quiet ones.
@Suite struct ClientBudgetTests {
    @Test func aClientThatReconnectsFindsItsBudgetSpentAndAnotherClientIsServed() throws {
        let server = try ListeningServer("tcp:127.0.0.1:0", ["--debounce-ms", "0", "--session-checks-per-minute", "2", "--trust-client-keys"])
        func session(_ key: String, names: [String]) throws -> [String] {
            let client = try server.connect()
            let open = #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientKey":"\#(key)"}}"#
            #expect(client.send([open, #"{"jsonrpc":"2.0","id":2,"method":"form.open","params":{"form":"f"}}"#]))
            var shown: [String] = []
            for name in names {
                #expect(client.send([#"{"jsonrpc":"2.0","method":"form.edit","params":{"form":"f","field":"username","value":"\#(name)"}}"#]))
                while let line = client.readLine() {
                    guard line.contains(#""field":"username""#), !line.contains(#""state":"validating""#), !line.contains(#""state":"empty""#) else { continue }
                    let code = line.range(of: #""code":""#).map { String(line[$0.upperBound...].prefix { $0 != "\"" }) }
                    shown.append(code ?? "?")
                    break
                }
            }
            return shown
        }
        #expect(try session("ann", names: ["ann1", "ann2"]) == ["username.available", "username.available"])
        // The same person on a new connection: the budget is as the first left it.
        #expect(try session("ann", names: ["ann3"]) == ["check.budgetExceeded"])
        // Another person is not denied for it.
        #expect(try session("bob", names: ["bob1"]) == ["username.available"])
        #expect(server.terminate() == 0)
    }

    @Test func theStoresBoundRefusesTheHeavyClientNotTheQuietOnes() {
        let scheduler = VirtualTimeScheduler()
        let budgets = CheckBudgets(clientLimit: 100, storeLimit: 20, window: .seconds(60), quietShare: 3, scheduler: scheduler)
        // A harvester spends the store's twenty.
        for _ in 0..<20 { #expect(budgets.spend(for: "harvester") == nil) }
        #expect(budgets.spend(for: "harvester") == CheckBudget.Exceeded(retryAfter: .seconds(60)))
        // People asking a few are still answered; past the quiet share, they wait too.
        for _ in 0..<3 { #expect(budgets.spend(for: "ann") == nil) }
        #expect(budgets.spend(for: "ann") == CheckBudget.Exceeded(retryAfter: .seconds(60)))
        #expect(budgets.spend(for: "bob") == nil)
        // A client's own bound holds whatever the store's.
        let own = CheckBudgets(clientLimit: 2, storeLimit: 0, window: .seconds(60), quietShare: 3, scheduler: scheduler)
        #expect(own.spend(for: "ann") == nil && own.spend(for: "ann") == nil)
        #expect(own.spend(for: "ann") == CheckBudget.Exceeded(retryAfter: .seconds(60)))
        #expect(own.spend(for: "bob") == nil)
    }
}
