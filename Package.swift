// swift-tools-version: 6.2
import PackageDescription

/// Strict settings applied to every Swift target in one place.
let strictSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    // A debug build (the test build) keeps the code free of warnings.
    .treatAllWarnings(as: .error, .when(configuration: .debug)),
    // A release build lets the optimizer inline across the layers' modules (a worker's calls
    // into the Kafka layer and the codecs): 3% fewer instructions per record on a worker
    // (benchmarks/results/cross-module-optimization.json).
    .unsafeFlags(["-cross-module-optimization"], .when(configuration: .release)),
]

let package = Package(
    name: "ZoneStream",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "zonestream", targets: ["zonestream"]),
        .library(name: "ZoneEngine", targets: ["ZoneEngine"]),
        .library(name: "ZoneCodecs", targets: ["ZoneCodecs"]),
        .library(name: "ZoneSupport", targets: ["ZoneSupport"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        // NIOConcurrencyHelpers only: a pthread-based lock, which ThreadSanitizer can see
        // (Synchronization.Mutex's futex is invisible to it; docs/explanation/testing.md).
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        // NIOHTTPTypes only: the HTTP parts the endpoint's connection guard sees.
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
    ],
    targets: [
        // C libraries from Debian, found through pkg-config.
        .systemLibrary(
            name: "CRdKafka", pkgConfig: "rdkafka",
            providers: [.apt(["librdkafka-dev"])]),
        .systemLibrary(
            name: "CJansson", pkgConfig: "jansson",
            providers: [.apt(["libjansson-dev"])]),
        // glibc's malloc.h (part of libc: nothing to link).
        .systemLibrary(name: "CMalloc"),

        // Layer 1: the zone engine. Pure Swift value types, no I/O.
        .target(name: "ZoneEngine", swiftSettings: strictSettings),
        // Layer 2: decoding input and encoding output.
        .target(name: "ZoneCodecs", dependencies: ["ZoneEngine", "CJansson"], swiftSettings: strictSettings),
        // Layer 3: a thin Swift layer over librdkafka.
        .target(
            name: "ZoneKafka",
            dependencies: [
                "CRdKafka", "CJansson", .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: strictSettings),
        // Layer 4: the stream processor.
        .target(
            name: "ZoneProcessor",
            dependencies: [
                "ZoneEngine", "ZoneCodecs", "ZoneKafka", "CMalloc",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: strictSettings),
        // Beside layer 5: the operator's HTTP endpoint (metrics, health, sessions, the gym board).
        .target(
            name: "ZoneHTTP",
            dependencies: [
                "ZoneEngine", "ZoneCodecs", "ZoneProcessor",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSettings),
        // Beside layer 5: simulated workout traffic for the demo, the load generator and tests.
        .target(name: "ZoneSimulation", swiftSettings: strictSettings),
        // The jansson reference decoder and its agreement with the fast one: the proof the
        // differential tests and the fuzzer run. Never linked by the executable.
        .target(
            name: "ZoneSupport", dependencies: ["ZoneEngine", "ZoneCodecs", "CJansson"], swiftSettings: strictSettings),
        // Beside layer 5, the lab: the benchmark (`zonestream bench`), the board load run and
        // the child processes they start (a broker, a processor), as parts the command calls
        // and tests can reach.
        // The child-process harness the benchmark and the tests share: `zonestream` broker and
        // processor processes, stopped by PID, watched so they never outlive their parent.
        .target(name: "ZoneHarness", dependencies: ["ZoneProcessor"], swiftSettings: strictSettings),
        .target(
            name: "ZoneBench",
            dependencies: [
                "ZoneKafka", "ZoneProcessor", "ZoneSimulation", "ZoneHTTP", "ZoneHarness",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: strictSettings),
        // Layer 5: the command line.
        .executableTarget(
            name: "zonestream",
            dependencies: [
                "ZoneEngine", "ZoneCodecs", "ZoneKafka", "ZoneProcessor", "ZoneSimulation", "ZoneHTTP", "ZoneBench",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: strictSettings,
            plugins: ["BuildInfo"]),
        // Writes the git commit and the compiler's version into the executable at build time.
        .plugin(name: "BuildInfo", capability: .buildTool()),

        .target(
            name: "ZoneTestSupport",
            dependencies: [
                "ZoneEngine", "ZoneSimulation", "ZoneKafka", "ZoneProcessor", "ZoneHarness",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Yams", package: "Yams"),
            ],
            path: "Tests/ZoneTestSupport",
            swiftSettings: strictSettings),
        .testTarget(
            name: "ZoneEngineTests",
            dependencies: [
                "ZoneEngine", "ZoneTestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "ZoneProcessorTests",
            dependencies: [
                "ZoneEngine", "ZoneCodecs", "ZoneKafka", "ZoneProcessor", "ZoneHTTP", "ZoneTestSupport",
                "ZoneSimulation", "ZoneHarness",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "ZoneKafkaTests", dependencies: ["ZoneKafka", "ZoneHarness", "CRdKafka", "ZoneTestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "ZoneHTTPTests",
            dependencies: [
                "ZoneEngine", "ZoneCodecs", "ZoneProcessor", "ZoneHTTP", "ZoneTestSupport", "ZoneHarness",
                "ZoneSimulation",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "ZoneStreamCommandTests",
            dependencies: [
                "zonestream", "ZoneProcessor", .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: strictSettings),
        .testTarget(name: "DocumentationTests", dependencies: ["ZoneTestSupport"], swiftSettings: strictSettings),
        // The deploy files (Kubernetes, the Debian package, Docker, systemd, the dashboards and
        // alerts) checked with their own tools.
        .testTarget(
            name: "DeploymentTests",
            dependencies: [
                "ZoneProcessor", "ZoneHTTP", "ZoneHarness", "ZoneTestSupport",
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: strictSettings),
        // The operator's commands (reset, probe, state dump, dead-letter replay, demo) run as
        // processes against a broker.
        .testTarget(
            name: "OperatorToolTests",
            dependencies: ["ZoneProcessor", "ZoneHTTP", "ZoneHarness", "ZoneTestSupport"],
            swiftSettings: strictSettings),
        .testTarget(
            name: "ZoneBenchTests",
            dependencies: [
                "ZoneBench", "ZoneEngine", "ZoneCodecs", "ZoneKafka", "ZoneHarness", "ZoneSimulation",
                "ZoneTestSupport",
            ],
            swiftSettings: strictSettings),
        .testTarget(
            name: "ZoneCodecsTests",
            dependencies: ["ZoneEngine", "ZoneCodecs", "CJansson", "ZoneTestSupport", "ZoneSimulation", "ZoneSupport"],
            swiftSettings: strictSettings),
    ]
)
