import Foundation
import Testing
import ZoneProcessor
import ZoneTestSupport

/// The README's first example, read from the README itself: its input records are produced
/// in order through the embedded broker and the processor, and every output the README shows
/// must come out byte for byte, and nothing else. So the README cannot go stale.
@Suite(.processSuite, .serialized, .timeLimit(.minutes(10)))
struct ReadmeExampleTests {
    /// Profiles of other members published just before the example's: enough that the profile
    /// reader is still reading them when the session starts.
    static let otherProfiles = 50_000

    @Test func theReadmeExampleComesOutAsShown() throws {
        let example = try ReadmeExample.load()
        #expect(example.inputs.count >= 5 && example.outputs.count == 4, "the README's example markers")
        let broker = try TestBroker(.mock, partitions: 8)
        defer { broker.stop() }
        let input = try TestInput(bootstrap: broker.bootstrapServers)
        var configuration = ProcessorConfiguration.forTest(bootstrap: broker.bootstrapServers)
        // The join waits for the profile reader as long as it takes here: with the default
        // 2 s, a machine busy with other suites had not read the 50,000 profiles in time, and
        // the session rightly started without its profile.
        configuration.joinWaitMs = 60_000
        let running = try RunningProcessor(configuration: configuration)
        let topics = example.outputs.keys.sorted()
        let collector = try OutputCollector(bootstrap: broker.bootstrapServers, topics: topics)
        defer { collector.stop() }
        // Back to back, as a gateway would send them, the profile first, with no pause and one
        // flush, behind other members' profiles the reader has yet to read: the profile is read
        // as of the session's first event (contract, section 1).
        for index in 0..<Self.otherProfiles {
            let person = "member-\(index)"
            try input.send("zone-profiles", key: person, value: Array(#"{"person":"\#(person)","age":40}"#.utf8))
        }
        for record in example.inputs {
            try input.send(record.topic, key: record.key, value: Array(record.value.utf8))
        }
        try input.flush()
        let complete = collector.wait { collected in
            topics.allSatisfy { collected.records($0).count >= example.outputs[$0, default: []].count }
        }
        #expect(running.stop() == nil)
        #expect(complete, "the outputs did not all arrive")
        for topic in topics {
            #expect(collector.records(topic).map(\.value) == example.outputs[topic], "\(topic)")
        }
    }
}
