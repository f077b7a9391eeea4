// swift-tools-version: 6.1
import PackageDescription

// Micro-benchmarks, kept out of the main package so its build stays lean.
// Run: cd benchmarks && swift package benchmark
let package = Package(
    name: "ZoneStreamBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // The engine's store workload, which the benchmark times and EngineInstructions runs
        // under callgrind.
        .target(
            name: "EngineWorkload", dependencies: [.product(name: "ZoneEngine", package: "main")],
            path: "Benchmarks/EngineWorkload"),
        .executableTarget(
            name: "EngineBenchmarks",
            dependencies: [
                "EngineWorkload",
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "ZoneEngine", package: "main"),
            ],
            path: "Benchmarks/EngineBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
        // valgrind --tool=callgrind .build/release/EngineInstructions KIND SAMPLES
        .executableTarget(
            name: "EngineInstructions",
            dependencies: ["EngineWorkload", .product(name: "ZoneEngine", package: "main")],
            path: "Tools/EngineInstructions"),
        // valgrind --tool=callgrind .build/release/DecodeInstructions SAMPLES
        .executableTarget(
            name: "DecodeInstructions",
            dependencies: [
                .product(name: "ZoneEngine", package: "main"), .product(name: "ZoneCodecs", package: "main"),
            ],
            path: "Tools/DecodeInstructions"),
        .executableTarget(
            name: "CodecBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "benchmark"),
                .product(name: "ZoneEngine", package: "main"),
                .product(name: "ZoneCodecs", package: "main"),
            ],
            path: "Benchmarks/CodecBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]),
    ]
)
