// swift-tools-version:6.0
// The protocol fuzzers: a separate package (like Benchmarks/) because their executables have no `main` of their own
// (libFuzzer supplies it) and every module under them must be built with `-sanitize=fuzzer,address
// -parse-as-library`, which the main build and its tests must not be. One package, so one build instruments each
// Enso module once for all three. Built and run by run.sh (`make fuzz`).
import PackageDescription

let swiftSettings: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "EnsoProtocolFuzz",
    dependencies: [.package(name: "Enso", path: "../..")],
    targets: [
        // The JSON line parser alone.
        .executableTarget(
            name: "parser-fuzz", dependencies: [.product(name: "ControlProtocol", package: "Enso"), "FuzzSupport"],
            path: "Parser", swiftSettings: swiftSettings),
        // Framing, decoding and the dispatcher with a stand-in service.
        .executableTarget(
            name: "protocol-fuzz",
            dependencies: [.product(name: "ControlProtocol", package: "Enso"), "FuzzSupport"], path: "Protocol",
            swiftSettings: swiftSettings),
        // The same path into the real SessionController.
        .executableTarget(
            name: "controller-fuzz",
            dependencies: [
                .product(name: "ControlProtocol", package: "Enso"),
                .product(name: "PlaybackService", package: "Enso"),
                "FuzzSupport",
            ],
            path: "Controller", swiftSettings: swiftSettings),
        // What the fuzzers share: their start (libFuzzer's driver) and the protocol's promises on replies.
        .target(
            name: "FuzzSupport", dependencies: [.product(name: "ControlProtocol", package: "Enso")], path: "Shared",
            swiftSettings: swiftSettings),
    ],
    swiftLanguageModes: [.v6]
)
