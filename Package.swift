// swift-tools-version:6.0
// Enso: the audio asset pipeline and player engine behind meditation and focus timers.
// Module map and the reasons for it: docs/ARCHITECTURE.md. Dependencies point one way only.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "Enso",
    products: [
        .library(name: "AudioCore", targets: ["AudioCore"]),
        .library(name: "AudioFile", targets: ["AudioFile"]),
        .library(name: "AudioDSP", targets: ["AudioDSP"]),
        .library(name: "AudioEngine", targets: ["AudioEngine"]),
        .library(name: "AudioDevice", targets: ["AudioDevice"]),
        .library(name: "AssetPipeline", targets: ["AssetPipeline"]),
        .library(name: "ControlProtocol", targets: ["ControlProtocol"]),
        .library(name: "PlaybackService", targets: ["PlaybackService"]),
        .library(name: "CLISupport", targets: ["CLISupport"]),
        .library(name: "AudioTestSupport", targets: ["AudioTestSupport"]),
        .executable(name: "enso", targets: ["enso"]),
        .executable(name: "make-assets", targets: ["make-assets"]),
    ],
    targets: [
        // MARK: - C libraries from Debian (module.modulemap + shim.h, no Swift code)
        .systemLibrary(name: "CSndFile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CSampleRate", pkgConfig: "samplerate", providers: [.apt(["libsamplerate0-dev"])]),
        .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(name: "CEBUR128", pkgConfig: "libebur128", providers: [.apt(["libebur128-dev"])]),
        .systemLibrary(name: "CKissFFT", pkgConfig: "kissfft-float", providers: [.apt(["libkissfft-dev"])]),

        // MARK: - Libraries
        .target(name: "AudioCore", swiftSettings: swiftSettings),
        .target(name: "AudioFile", dependencies: ["AudioCore", "CSndFile", "CSampleRate"], swiftSettings: swiftSettings),
        .target(name: "AudioDSP", dependencies: ["AudioCore", "CEBUR128", "CKissFFT"], swiftSettings: swiftSettings),
        .target(name: "AudioEngine", dependencies: ["AudioCore", "AudioDSP"], swiftSettings: swiftSettings),
        .target(name: "AudioDevice", dependencies: ["AudioCore", "CALSA"], swiftSettings: swiftSettings),
        .target(name: "AssetPipeline", dependencies: ["AudioCore", "AudioFile", "AudioDSP"], swiftSettings: swiftSettings),
        .target(name: "ControlProtocol", dependencies: ["AudioCore"], swiftSettings: swiftSettings),
        .target(
            name: "PlaybackService",
            dependencies: ["AudioCore", "AudioEngine", "AudioDevice", "AudioFile", "AssetPipeline", "ControlProtocol"],
            swiftSettings: swiftSettings),
        .target(name: "CLISupport", swiftSettings: swiftSettings),
        .target(name: "AudioTestSupport", dependencies: ["AudioCore"], swiftSettings: swiftSettings),

        // MARK: - Tools
        .executableTarget(
            name: "enso",
            dependencies: [
                "AudioCore", "AudioFile", "AudioDSP", "AudioEngine", "AudioDevice", "AssetPipeline",
                "ControlProtocol", "PlaybackService", "CLISupport",
            ],
            path: "Tools/enso", swiftSettings: swiftSettings),
        .executableTarget(
            name: "make-assets",
            dependencies: ["AudioCore", "AudioFile", "AudioDSP", "AssetPipeline", "CLISupport"],
            path: "Tools/make-assets", swiftSettings: swiftSettings),

        // MARK: - Tests (mirror the sources)
        .testTarget(name: "AudioCoreTests", dependencies: ["AudioCore", "AudioTestSupport"]),
        .testTarget(name: "AudioFileTests", dependencies: ["AudioFile", "AudioTestSupport", "CSndFile"]),
        .testTarget(name: "AudioDSPTests", dependencies: ["AudioDSP", "AudioTestSupport"]),
        .testTarget(name: "AudioEngineTests", dependencies: ["AudioEngine", "AudioTestSupport"]),
        .testTarget(name: "AudioDeviceTests", dependencies: ["AudioDevice", "AudioEngine", "AudioTestSupport"]),
        .testTarget(name: "AssetPipelineTests", dependencies: ["AssetPipeline", "AudioFile", "AudioTestSupport"]),
        .testTarget(name: "ControlProtocolTests", dependencies: ["ControlProtocol"]),
        .testTarget(name: "PlaybackServiceTests", dependencies: ["PlaybackService", "AudioTestSupport"]),
        .testTarget(name: "CLISupportTests", dependencies: ["CLISupport"]),
        .testTarget(name: "EnsoCLITests", dependencies: ["AudioFile", "AudioTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
