// swift-tools-version:6.0
// Enso benchmarks: a separate package so the main build and `make test` never compile them.
// Run with `make bench` (or `swift run -c release enso-bench [filter]` in this folder).
import PackageDescription

let package = Package(
    name: "EnsoBenchmarks",
    dependencies: [.package(name: "Enso", path: "..")],
    targets: [
        .executableTarget(
            name: "enso-bench",
            dependencies: [
                .product(name: "AudioCore", package: "Enso"),
                .product(name: "AudioDevice", package: "Enso"),
                .product(name: "AudioEngine", package: "Enso"),
                .product(name: "AudioFile", package: "Enso"),
                .product(name: "AssetPipeline", package: "Enso"),
                .product(name: "SystemIO", package: "Enso"),
                "BenchSignals", "BenchCLISupport",
            ]),
        // The parent's AudioTestSupport and CLISupport, compiled here under their own names (the folders are
        // symbolic links into ../Sources): they are internal to Enso, not products it exports.
        .target(name: "BenchSignals", dependencies: [.product(name: "AudioCore", package: "Enso")]),
        .target(name: "BenchCLISupport", dependencies: [.product(name: "JSONText", package: "Enso")]),
    ],
    swiftLanguageModes: [.v6]
)
