import Foundation
import Synchronization
import Testing
import ZoneEngine
import ZoneTestSupport

@testable import ZoneProcessor

/// The profile table is bounded (`max_profiles`): past the cap a new person's profile is
/// refused and counted, while updates and deletions of persons it holds still apply.
@Suite(.processSuite, .serialized, .timeLimit(.minutes(10)))
struct ProfileTableTests {
    @Test func pastTheCapANewPersonIsRefusedAndAKnownOneStillUpdates() {
        let table = ProfileTable(limit: 2)
        #expect(table.upsert(PersonProfile(person: "a", age: 30)))
        #expect(table.upsert(PersonProfile(person: "b", age: 31)))
        #expect(!table.upsert(PersonProfile(person: "c", age: 32)), "a third person past a cap of 2")
        #expect(table.profile(for: "c") == nil && table.count == 2)
        #expect(table.upsert(PersonProfile(person: "a", age: 40)), "an update of a person held")
        #expect(table.profile(for: "a")?.age == 40)
        table.delete("b")
        #expect(table.upsert(PersonProfile(person: "c", age: 32)), "room again after a deletion")
    }

    /// The table keeps a person in a compact form and gives back the very profile it took:
    /// every figure, the absent ones absent, and preferred zones when there are any.
    @Test func aStoredProfileIsTheProfileItWasAndSmall() throws {
        let zones = try ZoneConfiguration.validated(
            quantity: .heartRate, source: .user, boundaries: [120, 140, 160, 180], unit: "count/min")
        let profiles = [
            PersonProfile(
                person: "gym1/member-00017", name: "Ana", age: 38.5, restingHeartRate: 52, maximumHeartRate: 187,
                functionalThresholdPower: 240, weightKg: 61.3, sex: .female,
                preferredZones: PerQuantity(heartRate: zones, cyclingPower: nil)),
            PersonProfile(person: "p2", age: 40),
            PersonProfile(person: "p3"),
        ]
        let table = ProfileTable()
        for profile in profiles { table.upsert(profile) }
        for profile in profiles { #expect(table.profile(for: profile.person) == profile) }
        #expect(MemoryLayout<StoredProfile>.stride <= 72, "\(MemoryLayout<StoredProfile>.stride) bytes")
        #expect(MemoryLayout<PersonProfile>.stride >= 3 * MemoryLayout<StoredProfile>.stride)
    }

    /// Through the broker: five persons' profiles against a cap of three; two are refused and
    /// counted in `zonestream_profiles_refused_total` (and logged once per interval).
    @Test func aProcessorCountsTheProfilesItRefuses() throws {
        let broker = try TestBroker(.mock, partitions: 2)
        defer { broker.stop() }
        let input = try TestInput(bootstrap: broker.bootstrapServers)
        for index in 0..<5 {
            try input.send("zone-profiles", key: "p\(index)", value: Array(#"{"person":"p\#(index)","age":40}"#.utf8))
        }
        try input.flush()
        var configuration = ProcessorConfiguration.forTest(bootstrap: broker.bootstrapServers, group: "profile-cap")
        configuration.maxProfiles = 3
        let running = try RunningProcessor(configuration: configuration)
        Eventually.holds(within: 30) { running.processor.metrics.profilesRefused.load(ordering: .relaxed) >= 2 }
        #expect(running.processor.metrics.profilesRefused.load(ordering: .relaxed) == 2)
        #expect(running.processor.profiles.count == 3)
        #expect(running.stop() == nil)
    }
}
