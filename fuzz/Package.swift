// swift-tools-version: 6.1
import PackageDescription

// The decoder's fuzz target, a package of its own because it is built with
// -sanitize=fuzzer. Run it through scripts/fuzz.sh.
let package = Package(
    name: "ZoneStreamFuzz",
    dependencies: [.package(name: "ZoneStream", path: "..")],
    targets: [
        .target(name: "CFuzzerDriver"),
        .executableTarget(
            name: "DecoderFuzzer",
            dependencies: ["CFuzzerDriver", .product(name: "ZoneSupport", package: "ZoneStream")],
            swiftSettings: [.swiftLanguageMode(.v6)]),
    ]
)
