// swift-tools-version:6.0
// The live-controller fuzzer: a separate package (like Benchmarks/) because its executable has no `main` of its own
// (libFuzzer supplies it) and must be built with `-sanitize=fuzzer,address -parse-as-library`, which the main
// build must not use. Built and run by run.sh (`make fuzz`).
import PackageDescription

let package = Package(
    name: "EnsoProtocolFuzz",
    dependencies: [.package(name: "Enso", path: "../..")],
    targets: [
        .executableTarget(
            name: "controller-fuzz",
            dependencies: [
                .product(name: "ControlProtocol", package: "Enso"),
                .product(name: "PlaybackService", package: "Enso"),
            ],
            path: ".", sources: ["Controller", "Shared"])
    ],
    swiftLanguageModes: [.v6]
)
