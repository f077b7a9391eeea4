public import Foundation
public import ZoneHarness

extension ZoneStreamProcess {
    /// A processor instance for a test: ``ZoneStreamProcess/processor(bootstrap:group:extra:environment:executable:ownTopics:)``
    /// whose session starts wait up to 15 s for the tables (`join_wait_ms`, 2 s by default).
    /// The tests check outputs against an oracle that reads every table as of the event, and a
    /// shared two-core runner may slow a table read past the product's bound, which would start
    /// a class member without its class's plan; the bound itself is tested by `TableJoinTests`.
    /// `extra` may set another.
    public static func testProcessor(
        bootstrap: String, group: String, extra: [String] = [], environment: [String: String] = [:],
        executable: URL = BrokerProcess.executable, ownTopics: Bool = false
    ) throws -> ZoneStreamProcess {
        try processor(
            bootstrap: bootstrap, group: group, extra: ["--set", "join_wait_ms=15000"] + extra,
            environment: environment, executable: executable, ownTopics: ownTopics)
    }
}
