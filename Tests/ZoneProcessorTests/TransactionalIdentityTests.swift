import Testing
import ZoneKafka

@testable import ZoneProcessor

/// Exactly-once producers of two applications on one cluster never share a transactional id,
/// even when their instances have the same identities (two copies of the StatefulSet overlay,
/// both with pods `zonestream-0` and `zonestream-1`).
@Suite struct TransactionalIdentityTests {
    static func configuration(group: String, prefix: String = "") -> ProcessorConfiguration {
        var configuration = ProcessorConfiguration(kafka: KafkaConfiguration(bootstrapServers: "127.0.0.1:9092"))
        configuration.groupID = group
        configuration.transactionalIDPrefix = prefix
        configuration.transactionalIdentity = "zonestream-0"
        return configuration
    }

    @Test func theDefaultPrefixIsTheApplicationsGroup() {
        let gym = Self.configuration(group: "gym")
        let staging = Self.configuration(group: "gym-staging")
        #expect(gym.transactionalID(role: "w0") == "gym-zonestream-0-w0")
        #expect(staging.transactionalID(role: "w0") == "gym-staging-zonestream-0-w0")
        let roles = ["w0", "w1", "people", "classes"]
        #expect(Set(roles.map(gym.transactionalID(role:))).isDisjoint(with: roles.map(staging.transactionalID(role:))))
        #expect(
            Self.configuration(group: "zonestream").transactionalID(role: "people") == "zonestream-zonestream-0-people")
    }

    @Test func aPrefixSetByTheOperatorIsKept() {
        #expect(
            Self.configuration(group: "gym", prefix: "zonestream").transactionalID(role: "w1")
                == "zonestream-zonestream-0-w1")
    }
}
