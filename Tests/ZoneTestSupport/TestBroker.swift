import Foundation
public import ZoneHarness

/// The Kafka implementations the integration tests run on: each end-to-end test takes one as
/// its parameter, so the same test runs on both.
public enum BrokerKind: String, Sendable, CaseIterable, CustomStringConvertible {
    /// librdkafka's mock cluster in a `zonestream broker` child process: the embedded default.
    case mock
    /// noida-db, an independent implementation: transactions with markers and isolation.
    case noida

    public var description: String { rawValue }

    /// The brokers to run on: `ZONESTREAM_TEST_BROKERS` (comma-separated: `mock`, `noida`),
    /// both when it is unset or names neither.
    public static var selected: [BrokerKind] {
        let text = ProcessInfo.processInfo.environment["ZONESTREAM_TEST_BROKERS"] ?? ""
        let named = text.split(separator: ",").compactMap {
            BrokerKind(rawValue: $0.trimmingCharacters(in: .whitespaces))
        }
        return named.isEmpty ? allCases : allCases.filter(named.contains)
    }

    /// Only noida-db, for what the mock cannot show (transaction markers, for one). The test
    /// runs its case whatever is selected: when noida-db is not, it fails saying so (through
    /// ``TestBroker``) rather than passing with no case.
    public static var noidaOnly: [BrokerKind] { [.noida] }
    /// Only the mock: for tests noida-db cannot pass for reasons of its own (each such test says
    /// which; docs/explanation/guarantees.md lists them). Fails when the mock is not selected.
    public static var mockOnly: [BrokerKind] { [.mock] }
}

/// A broker for one test, of either kind, with the contract's topics; stopped by PID when
/// the test is done (also on failure, through the owned process's `deinit`).
public final class TestBroker: Sendable {
    public let kind: BrokerKind
    public let bootstrapServers: String
    /// The `zonestream broker` process (mock only): control lines inject broker errors.
    public let mock: BrokerProcess?
    /// The noida-db process (noida only).
    public let noida: NoidaBroker?

    /// `applications`: groups whose internal topics are created with the contract's (the mock
    /// broker cannot create topics when asked).
    public init(_ kind: BrokerKind, partitions: Int = 4, applications: [String] = []) throws {
        guard BrokerKind.selected.contains(kind) else {
            throw TestBrokerError(
                description:
                    "this test runs only on \(kind), which ZONESTREAM_TEST_BROKERS does not select: select it or skip the test by name"
            )
        }
        self.kind = kind
        switch kind {
        case .mock:
            let broker = try BrokerProcess(
                partitions: partitions,
                extraArguments: applications.isEmpty ? [] : ["--applications", applications.joined(separator: ",")])
            (mock, noida, bootstrapServers) = (broker, nil, broker.bootstrapServers)
        case .noida:
            let broker = try NoidaBroker(partitions: partitions, applications: applications)
            (mock, noida, bootstrapServers) = (nil, broker, broker.bootstrapServers)
        }
    }

    public func stop() {
        mock?.stop()
        noida?.stop()
    }
}
