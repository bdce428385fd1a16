import Testing
@testable import SignupServer
@testable import SignupProtocol
@testable import SignupTools
@testable import SignupTransport

@Suite struct InputBatchTests {
    @Test func theLoopTakesTheItemsInTheirOwnStorageAndLeavesTheBatchEmpty() {
        let items: [InputItem] = [MessageDecoder.generic.message(Array("{}".utf8)), .oversizeLine, .oversizeLine]
        let storage = items.withUnsafeBufferPointer { $0.baseAddress }
        let batch = InputBatch(consume items)
        var taken = batch.take()
        // Changing the taken array in place must not copy it: the batch kept no second reference.
        taken.withUnsafeMutableBufferPointer { buffer in
            #expect(UnsafePointer(buffer.baseAddress) == storage)
            buffer[0] = .oversizeLine
        }
        #expect(taken.count == 3)
        #expect(batch.take().isEmpty)
    }
}
