import Foundation
import Logging
import Synchronization
import Testing
import ZoneHarness
import ZoneKafka
import ZoneTestSupport

@testable import ZoneProcessor

/// The dead letter of a refused output reads its input again by its coordinates: the record's
/// own key and value, or a reason when it cannot be read.
@Suite(.processSuite, .serialized, .timeLimit(.minutes(5)))
struct InputRecordFetcherTests {
    @Test func readsARecordAgainByItsCoordinates() throws {
        let broker = try BrokerProcess(partitions: 1)
        defer { broker.stop() }
        let input = try TestInput(bootstrap: broker.bootstrapServers)
        for index in 0..<3 {
            try input.send("workout-events", key: "key-\(index)", value: Array("value-\(index)".utf8))
        }
        try input.flush()
        let fetcher = InputRecordFetcher(
            kafka: KafkaConfiguration(bootstrapServers: broker.bootstrapServers), logger: .init(label: "test"))
        let answers = Mutex<[Int64: Result<InputRecordFetcher.Fetched, InputRecordFetcher.Unreadable>]>([:])
        for offset: Int64 in [1, 2] {
            fetcher.fetch(topic: "workout-events", partition: 0, offset: offset) { answer in
                answers.withLock { $0[offset] = answer }
            }
        }
        #expect(Eventually.holds(within: 30) { answers.withLock { $0.count } == 2 })
        for offset: Int64 in [1, 2] {
            let fetched = try answers.withLock { try $0[offset]?.get() }
            #expect(fetched?.key == Array("key-\(offset)".utf8) && fetched?.value == Array("value-\(offset)".utf8))
        }

        // Stopped, it answers at once, with the reason.
        fetcher.stop()
        let late = Mutex<String?>(nil)
        fetcher.fetch(topic: "workout-events", partition: 0, offset: 0) { answer in
            if case .failure(let unreadable) = answer { late.withLock { $0 = unreadable.reason } }
        }
        #expect(late.withLock { $0 } == "the processor is stopping")
    }
}
