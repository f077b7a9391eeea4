import Foundation
import Prometheus
import Synchronization
import Testing
import ZoneHTTP
import ZoneProcessor
import ZoneTestSupport

/// The person stage as a consumer of its own topic: what a hand or another program writes to
/// the repartition topic is read like any input, a valid record counted, a bad one dead-lettered
/// with its reason while the partition goes on.
@Suite(.processSuite, .serialized, .timeLimit(.minutes(10)))
struct PersonStageTests {
    static let good =
        #"{"schema":1,"type":"person_workout","person":"pia","session":"pia-1","start_ts":1717200000000,"end_ts":1717200600000,"duration_ms":600000,"points_tenths":125,"calories_kcal":80,"kilojoules_tenths":0}"#

    @Test(arguments: BrokerKind.selected)
    func handWrittenRecordsOnTheRepartitionTopicAreCountedOrDeadLettered(on kind: BrokerKind) throws {
        let broker = try TestBroker(kind, partitions: 2)
        defer { broker.stop() }
        let registry = PrometheusCollectorRegistry()
        let running = try RunningProcessor(
            configuration: .forTest(bootstrap: broker.bootstrapServers, group: "people"),
            metricsFactory: MetricsExposition.makeFactory(registry: registry))
        let collector = try OutputCollector(
            bootstrap: broker.bootstrapServers, topics: ["person-summaries", "zonestream-dlq"])
        defer { collector.stop() }
        let input = try TestInput(bootstrap: broker.bootstrapServers)
        let topic = "zonestream-person-workouts"
        let bad: [(key: String, value: String, reason: String)] = [
            ("pia", "{not json", "malformed_json"),
            ("pia", #"{"schema":1,"type":"person_workout","person":"pia","session":"pia-2"}"#, "missing_field"),
            (
                "pia", Self.good.replacingOccurrences(of: #""duration_ms":600000"#, with: #""duration_ms":"long""#),
                "bad_type"
            ),
            ("someone-else", Self.good, "key_mismatch"),
            (
                "pia", Self.good.replacingOccurrences(of: #""duration_ms":600000"#, with: #""duration_ms":5"#),
                "out_of_range"
            ),
            // Figures no finished workout can have, which overflowed the summary's arithmetic
            // and crash-looped every instance that took the partition.
            (
                "pia",
                Self.good.replacingOccurrences(
                    of: #""points_tenths":125"#, with: #""points_tenths":20000000000000000"#),
                "out_of_range"
            ),
            (
                "pia",
                Self.good.replacingOccurrences(
                    of: #""calories_kcal":80"#, with: #""calories_kcal":9223372036854775807"#),
                "out_of_range"
            ),
        ]
        // The largest figures a record may carry, twice: summed without trapping.
        for session in ["max-1", "max-2"] {
            let largest = Self.good.replacingOccurrences(of: "pia-1", with: session)
                .replacingOccurrences(of: #""person":"pia""#, with: #""person":"max""#)
                .replacingOccurrences(
                    of: #""points_tenths":125,"calories_kcal":80"#,
                    with: #""points_tenths":1000000000000000,"calories_kcal":1000000000000000"#)
            try input.send(topic, key: "max", value: Array(largest.utf8))
        }
        for record in bad { try input.send(topic, key: record.key, value: Array(record.value.utf8)) }
        try input.send(topic, key: "pia", value: Array(Self.good.utf8))
        try input.send(topic, key: "pia", value: Array(Self.good.utf8))  // delivered again: counted once
        try input.flush()
        let arrived = collector.wait {
            $0.records("zonestream-dlq").count >= bad.count && $0.records("person-summaries").count >= 3
        }
        #expect(running.stop() == nil)
        #expect(arrived, "dead letters and the summary")
        // The stage's own figures: each summary counted, its outputs' delivery times recorded.
        #expect(running.processor.metrics.people.summariesOut.load(ordering: .relaxed) == 3)
        let exported = registry.emitToString()
        #expect(exported.contains(#"zonestream_events_out_total{type="person_summary"} 3"#), "\(exported)")
        let deliveries = exported.split(separator: "\n").first {
            $0.hasPrefix(#"zonestream_delivery_duration_seconds_count{stage="people"}"#)
        }
        #expect(deliveries.flatMap { Int($0.split(separator: " ").last ?? "") }.map { $0 > 0 } == true, "\(exported)")
        let letters = try collector.records("zonestream-dlq").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.value.utf8)) as? [String: Any])
        }
        // Keyed by person: records of different keys may sit on different partitions.
        #expect(letters.map { $0["reason"] as? String ?? "" }.sorted() == bad.map(\.reason).sorted())
        #expect(letters.allSatisfy { $0["topic"] as? String == topic })
        let largest = collector.records("person-summaries").filter { $0.key == "max" }
        #expect(largest.count == 2, "both of the largest workouts are counted")
        #expect(largest.last?.value.contains(#""calories_kcal":2000000000000000"#) == true, "\(largest)")
        let summaries = collector.records("person-summaries").filter { $0.key == "pia" }
        #expect(summaries.count == 1, "the same workout twice is counted once")
        let summary = try #require(
            try JSONSerialization.jsonObject(with: Data((summaries.first?.value ?? "").utf8)) as? [String: Any])
        #expect(summary["person"] as? String == "pia")
        #expect((summary["days_7"] as? [String: Any])?["points"] as? Double == 12.5)
        #expect((summary["days_7"] as? [String: Any])?["calories_kcal"] as? Int == 80)
        #expect(summaries.first?.key == "pia")
    }

    /// `max_persons`: at the cap, persons with no workout in the 28 days before now make room;
    /// a new person beyond that is dead-lettered as `person_limit` and counted.
    @Test(arguments: BrokerKind.selected)
    func theCapOnPersonsMakesRoomFromIdlePersonsThenDeadLetters(on kind: BrokerKind) throws {
        let broker = try TestBroker(kind, partitions: 2)
        defer { broker.stop() }
        var configuration = ProcessorConfiguration.forTest(bootstrap: broker.bootstrapServers, group: "person-cap")
        configuration.maxPersons = 2
        let running = try RunningProcessor(configuration: configuration)
        let collector = try OutputCollector(
            bootstrap: broker.bootstrapServers, topics: ["person-summaries", "zonestream-dlq"])
        defer { collector.stop() }
        let input = try TestInput(bootstrap: broker.bootstrapServers)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        func workout(_ person: String, end: Int64) -> [UInt8] {
            Array(
                #"{"schema":1,"type":"person_workout","person":"\#(person)","session":"\#(person)-1","start_ts":\#(end - 60_000),"end_ts":\#(end),"duration_ms":60000,"points_tenths":10,"calories_kcal":0,"kilojoules_tenths":0}"#
                    .utf8)
        }
        // One at a time, so the stage sees them in this order whatever their partitions.
        let persons: [(String, Int64)] = [("ana", now), ("old-ben", 1_717_200_000_000), ("cleo", now), ("dan", now)]
        for (index, (person, end)) in persons.enumerated() {
            try input.send("zonestream-person-workouts", key: person, value: workout(person, end: end))
            try input.flush()
            let expected = min(index + 1, 3)
            #expect(
                collector.wait {
                    $0.records("person-summaries").count >= expected
                        && (index < 3 || !$0.records("zonestream-dlq").isEmpty)
                },
                "after \(person)")
        }
        #expect(running.stop() == nil)
        #expect(collector.records("person-summaries").compactMap(\.key) == ["ana", "old-ben", "cleo"])
        let letters = collector.records("zonestream-dlq").map(\.value)
        #expect(letters.count == 1 && letters.first?.contains(#""reason":"person_limit""#) == true, "\(letters)")
        #expect(running.processor.metrics.personsRefused.load(ordering: .relaxed) == 1)
    }
}
