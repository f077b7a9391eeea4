import Foundation
import Testing
import ZoneHarness
import ZoneSimulation
import ZoneTestSupport

/// `zonestream run` refuses a bad setting before anything starts, with a message naming the
/// key, the value, where it came from and what is allowed; an empty settings file means
/// "all defaults" and overrides still apply; `--print-config` tells where each value came from.
@Suite(.processSuite, .timeLimit(.minutes(10)))
struct SettingsValidationTests {
    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (
        status: Int32, output: String
    ) {
        try ZoneStreamProcess.runToExit(arguments, environment: environment)
    }

    static func file(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "zs-settings-\(UUID().uuidString).yaml"
        ).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    struct Refusal: Sendable, CustomStringConvertible {
        let arguments: [String]
        let environment: [String: String]
        /// Every one of these is in the message.
        let mentions: [String]
        var description: String { "\(arguments) \(environment)" }
    }

    static let refusals: [Refusal] = [
        Refusal(
            arguments: ["--set", "workers=1000000000"], environment: [:],
            mentions: ["'workers'", "1000000000", "--set workers=1000000000", "1 to 64"]),
        Refusal(arguments: ["--set", "workers=0"], environment: [:], mentions: ["'workers'", "'0'", "1 to 64"]),
        Refusal(arguments: ["--set", "workers=-1"], environment: [:], mentions: ["'workers'", "'-1'"]),
        Refusal(
            arguments: ["--set", "http.port=99999"], environment: [:], mentions: ["'http.port'", "99999", "0 to 65535"]),
        Refusal(arguments: ["--set", "max_gap_ms=-5"], environment: [:], mentions: ["'max_gap_ms'", "-5"]),
        Refusal(
            arguments: ["--set", "max_message_bytes=-1"], environment: [:], mentions: ["'max_message_bytes'", "-1"]),
        Refusal(
            arguments: ["--set", "memory.trim_interval_ms=-1"], environment: [:],
            mentions: ["'memory.trim_interval_ms'", "-1", "0 to 3600000"]),
        Refusal(
            arguments: ["--set", "log_level=loud"], environment: [:], mentions: ["'log_level'", "loud", "trace, debug"]),
        Refusal(
            arguments: ["--set", "processing_guarantee=maybe"], environment: [:],
            mentions: ["processing_guarantee", "exactly_once"]),
        Refusal(
            arguments: [], environment: ["ZONESTREAM_WORKERS": "abc"],
            mentions: ["'workers'", "abc", "environment ZONESTREAM_WORKERS"]),
        Refusal(
            arguments: [], environment: ["ZONESTREAM_WROKERS": "2"],
            mentions: ["ZONESTREAM_WROKERS", "unknown", "did you mean ZONESTREAM_WORKERS?"]),
        Refusal(
            arguments: ["--set", "wrokers=2"], environment: [:],
            mentions: ["'wrokers'", "unknown", "did you mean 'workers'?"]),
        Refusal(
            arguments: ["--set", "port=8081"], environment: [:], mentions: ["'port'", "did you mean 'http.port'?"]),
        Refusal(
            arguments: ["--set", "kafka.properties.no.such.property=1"], environment: [:],
            mentions: ["no.such.property"]),
        Refusal(
            arguments: ["--set", "normalize.heart_rate.boundaries=150,120"], environment: [:],
            mentions: ["normalize.heart_rate.boundaries", "150,120"]),
        Refusal(
            arguments: ["--config", "/no/such/zonestream.yaml"], environment: [:],
            mentions: ["/no/such/zonestream.yaml", "does not exist"]),
        Refusal(
            arguments: [], environment: ["ZONESTREAM_INSTANCE_ID": "pod 1"],
            mentions: ["'instance_id'", "pod 1", "letters, digits"]),
        // No cluster and no --embedded: the two ways on are named.
        Refusal(
            arguments: ["--http-port", "0"], environment: [:],
            mentions: ["kafka.bootstrap_servers", "--bootstrap-servers", "--embedded", "not for production"]),
        // Members' data beyond loopback needs a token, or the operator's word that the network is trusted.
        Refusal(
            arguments: ["--set", "http.host=0.0.0.0"], environment: [:],
            mentions: ["'0.0.0.0'", "http.token", "http.trusted_network"]),
        // librdkafka properties the processing guarantees rest on, each naming the setting in charge.
        Refusal(
            arguments: ["--set", "kafka.properties.enable.auto.commit=true"], environment: [:],
            mentions: ["enable.auto.commit", "processing_guarantee"]),
        Refusal(
            arguments: ["--set", "kafka.properties.enable.auto.offset.store=true"], environment: [:],
            mentions: ["enable.auto.offset.store", "processing_guarantee"]),
        Refusal(
            arguments: ["--set", "kafka.properties.isolation.level=read_uncommitted"], environment: [:],
            mentions: ["isolation.level", "read_uncommitted", "processing_guarantee"]),
        Refusal(
            arguments: ["--set", "kafka.properties.group.id=other"], environment: [:],
            mentions: ["group.id", "group_id"]),
        Refusal(
            arguments: ["--set", "kafka.properties.transactional.id=x"], environment: [:],
            mentions: ["transactional.id", "transactional_id_prefix"]),
        Refusal(
            arguments: ["--set", "kafka.properties.acks=0"], environment: [:],
            mentions: ["'acks'", "'0'", "--set kafka.properties.acks=0", "processing_guarantee"]),
        Refusal(
            arguments: [], environment: ["ZONESTREAM_KAFKA_PROPERTIES_ENABLE_IDEMPOTENCE": "false"],
            mentions: ["enable.idempotence", "processing_guarantee"]),
        // librdkafka's other names for guarded properties are guarded the same way.
        Refusal(
            arguments: ["--set", "kafka.properties.request.required.acks=1"], environment: [:],
            mentions: ["request.required.acks", "'acks'", "processing_guarantee"]),
        Refusal(
            arguments: ["--set", "kafka.properties.auto.commit.enable=true"], environment: [:],
            mentions: ["auto.commit.enable", "enable.auto.commit", "processing_guarantee"]),
        Refusal(
            arguments: ["--set", "create_topics.replication_factor=0"], environment: [:],
            mentions: ["'create_topics.replication_factor'", "-1 (the broker's default)"]),
        // Internal topics are named after the group, so the group must make a topic name.
        Refusal(
            arguments: ["--set", "group_id=gym chain"], environment: [:],
            mentions: ["group_id 'gym chain'", "cannot name internal topics", "topics.changelog"]),
        // A group whose derived names are another group's: gym-class's changelog would be
        // gym's class changelog, gym.people the consumer group of gym's person stage.
        Refusal(
            arguments: ["--set", "group_id=gym-class"], environment: [:],
            mentions: ["group_id 'gym-class'", "'gym-class-changelog'", "class stage's changelog of group_id 'gym'"]),
        Refusal(
            arguments: ["--set", "group_id=gym-person"], environment: [:],
            mentions: ["'gym-person-changelog'", "person stage's changelog of group_id 'gym'"]),
        Refusal(
            arguments: ["--set", "group_id=gym.people"], environment: [:],
            mentions: ["consumer group of the people stage of group_id 'gym'"]),
        Refusal(
            arguments: ["--set", "topics.changelog=bad name"], environment: [:],
            mentions: ["'topics.changelog'", "'bad name'", "named after group_id"]),
        // A token read from a secret file with its newline would make every request 401.
        Refusal(
            arguments: [], environment: ["ZONESTREAM_HTTP_TOKEN": "wall-screen-7f3a\n"],
            mentions: ["'http.token'", "whitespace", "environment ZONESTREAM_HTTP_TOKEN"]),
        Refusal(
            arguments: ["--set", "http.token= wall-screen-7f3a"], environment: [:],
            mentions: ["'http.token'", "whitespace"]),
    ]

    @Test(arguments: refusals)
    func aBadSettingIsRefusedBeforeAnythingStarts(_ refusal: Refusal) throws {
        let (status, output) = try Self.run(["run"] + refusal.arguments, environment: refusal.environment)
        #expect(status == 78, "a refused setting exits with EX_CONFIG: \(output)")
        for mention in refusal.mentions { #expect(output.contains(mention), "\(mention) in: \(output)") }
        #expect(!output.contains("wall-screen-7f3a"), "a token is never printed: \(output)")
        #expect(
            !output.contains("embedded broker started") && !output.contains("listening"), "nothing started: \(output)")
        #expect(!output.contains("NSCocoaErrorDomain"))
    }

    /// The embedded cluster's size, and the benchmarks' sizes, are refused out of range by every
    /// command that takes them, before a broker starts.
    @Test(arguments: [
        ["broker", "--brokers", "0"], ["bench", "--brokers", "17"], ["bench", "latency", "--brokers", "0"],
        ["broker", "--partitions", "0"], ["bench", "memory", "--sessions", "100,10"],
        ["bench", "memory", "--worker-threads", "0"], ["bench", "--workers", "0"],
        ["bench", "--partitions", "65"], ["bench", "--latency-partitions", "0"], ["broker", "--extra-topics", "a,b:0"],
        ["broker", "--extra-topics", ":4"], ["bench", "latency", "--traffic", "steady"],
    ])
    func aBadClusterSizeIsRefusedBeforeAnythingStarts(_ arguments: [String]) throws {
        let (status, output) = try Self.run(arguments)
        #expect(status != 0)
        #expect(output.contains(arguments[arguments.count - 2]), "the option is named: \(output)")
        #expect(!output.contains("127.0.0.1"), "nothing started: \(output)")
    }

    /// Every problem of the file, the environment and the flags is reported at once.
    @Test func everyProblemIsReportedAtOnce() throws {
        let path = try Self.file("workers: 0\nhttp:\n  prot: 8080\nmax_gap_ms: -1\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (status, output) = try Self.run(
            ["run", "--config", path, "--set", "log_level=loud"], environment: ["ZONESTREAM_BATCH_SIZE": "0"])
        #expect(status == 78)
        #expect(output.contains("5 settings are not allowed:"), "\(output)")
        for mention in [
            "'workers' = '0' (from \(path):1)", "'http.prot' (from \(path):3); did you mean 'http.port'?",
            "'max_gap_ms' = '-1'", "'log_level' = 'loud'",
            "'batch_size' = '0' (from environment ZONESTREAM_BATCH_SIZE)",
        ] {
            #expect(output.contains(mention), "\(mention) in: \(output)")
        }
    }

    /// Exit statuses in the sysexits style: 64 a wrong command line, 69 no broker at start.
    @Test func aWrongCommandLineAndAnAbsentBrokerHaveTheirOwnExitStatus() throws {
        let usage = try Self.run(["run", "--no-such-option"])
        #expect(usage.status == 64, "\(usage.output)")
        let port = try FreePort.find()
        let started = Date()
        let absent = try Self.run([
            "run", "--no-http", "--bootstrap-servers", "127.0.0.1:\(port)", "--set", "kafka.connect_timeout_s=2",
        ])
        #expect(absent.status == 69, "\(absent.output)")
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(
            absent.output.contains("no Kafka broker answered at 127.0.0.1:\(port) within 2 s")
                && absent.output.contains("kafka.connect_timeout_s"), "\(absent.output)")
    }

    @Test func aBadValueInTheFileIsNamedByFileAndLine() throws {
        let path = try Self.file("workers: 2\nhttp:\n  port: 70000\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (status, output) = try Self.run(["run", "--config", path])
        #expect(status != 0)
        #expect(output.contains("'http.port' = '70000' (from \(path):3)"), "\(output)")
    }

    @Test func anEmptyOrCommentOnlyFileMeansDefaultsAndOverridesStillApply() throws {
        for text in ["", "# nothing here\n# at all\n"] {
            let path = try Self.file(text)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let (status, output) = try Self.run(
                [
                    "run", "--config", path, "--print-config", "--bootstrap-servers", "127.0.0.1:9", "--no-http",
                    "--set", "batch_size=64",
                ],
                environment: ["ZONESTREAM_GROUP_ID": "from-env"])
            #expect(status == 0, "\(output)")
            #expect(
                output.contains(
                    "kafka.bootstrap_servers = 127.0.0.1:9    # flag --set kafka.bootstrap_servers=127.0.0.1:9"))
            #expect(output.contains("http.enabled = false    # flag --set http.enabled=false"))
            #expect(output.contains("batch_size = 64    # flag --set batch_size=64"))
            #expect(output.contains("group_id = from-env    # environment ZONESTREAM_GROUP_ID"))
            #expect(output.contains("workers = 2    # default"))
        }
    }

    /// config/zonestream.yaml states every setting at its default, value for value, so the
    /// file users start from cannot drift from the one place defaults are defined (the
    /// settings table, which reads the processor's own defaults).
    @Test func theShippedSettingsFileHoldsEveryDefault() throws {
        let empty = try Self.file("")
        defer { try? FileManager.default.removeItem(atPath: empty) }
        let (status, output) = try Self.run(["run", "--print-config", "--config", empty])
        #expect(status == 0, "\(output)")
        var defaults: [String: String] = [:]
        for line in output.split(separator: "\n") {
            guard let equals = line.range(of: " = ") else { continue }
            let rest = line[equals.upperBound...]
            defaults[String(line[..<equals.lowerBound])] = String(
                rest[..<(rest.range(of: "    # ")?.lowerBound ?? rest.endIndex)])
        }
        var shipped: [String: String] = [:]
        func walk(_ node: Any, _ prefix: String) {
            if let map = node as? [String: Any], !map.isEmpty {
                for (key, value) in map { walk(value, prefix.isEmpty ? key : "\(prefix).\(key)") }
            } else if let list = node as? [Any] {
                shipped[prefix] = list.map { "\($0)" }.joined(separator: ",")  // boundaries: a list in YAML
            } else if !(node is [String: Any]) {
                shipped[prefix] = "\(node)"
            }
        }
        walk(try RepositoryFiles.yaml("config/zonestream.yaml"), "")
        #expect(!shipped.isEmpty && defaults.count >= shipped.count, "\(output)")
        for (key, value) in shipped.sorted(by: { $0.key < $1.key }) {
            #expect(
                defaults[key] == value,
                "config/zonestream.yaml has \(key): \(value), the default is \(defaults[key] ?? "absent")")
        }
        let missing = Set(defaults.keys).subtracting(shipped.keys).filter { !$0.hasPrefix("kafka.properties") }
        #expect(missing.isEmpty, "settings config/zonestream.yaml does not state: \(missing.sorted())")
    }

    @Test func secretsAreMaskedInThePrintout() throws {
        let (status, output) = try Self.run(
            ["run", "--print-config"], environment: ["ZONESTREAM_KAFKA_PROPERTIES_SASL_PASSWORD": "hunter2"])
        #expect(status == 0, "\(output)")
        #expect(output.contains("kafka.properties.sasl.password = ********"))
        #expect(!output.contains("hunter2"))
    }

    @Test func aBusyPortIsNamedWithTheSettingToChange() throws {
        // Hold a port with a listening socket of our own, then ask zonestream for it.
        let (socket, port) = try FreePort.listeningSocket()
        defer { close(socket) }
        let (status, output) = try Self.run(["run", "--http-port", "\(port)", "--bootstrap-servers", "127.0.0.1:9"])
        #expect(status != 0)
        #expect(output.contains("127.0.0.1:\(port)") && output.contains("http.port"), "\(output)")
        #expect(!output.contains("processor started"), "\(output)")
    }

    /// The load generator against a port nobody listens on gives up after its connect
    /// timeout with a message that says so, instead of repeating librdkafka's errors.
    @Test func loadgenGivesUpOnAnUnreachableBroker() throws {
        let port = try FreePort.find()
        let started = Date()
        let (status, output) = try ZoneStreamProcess.runToExit(
            ["loadgen", "--bootstrap-servers", "127.0.0.1:\(port)", "--connect-timeout-s", "2"], seconds: 30)
        #expect(status == 69)
        #expect(Date().timeIntervalSince(started) < 20)
        #expect(output.contains("no Kafka broker answered at 127.0.0.1:\(port) within 2 s"), "\(output)")
        #expect(!output.contains("records/s"), "\(output)")
    }
}
