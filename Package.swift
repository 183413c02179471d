// swift-tools-version:6.0
// Enso: the audio asset pipeline and player engine behind meditation and focus timers.
// Module map and the reasons for it: docs/ARCHITECTURE.md. Dependencies point one way only.
import Foundation
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

/// The test targets (they mirror the sources) and what each imports.
///
/// They compile unoptimised, whatever the configuration. What they test is the libraries' optimised build (`make
/// test` builds `-c release`: the DSP is numeric code 20-50x slower unoptimised); the test files themselves are
/// set-up and macro-expanded expectations, whose optimisation took a third of the suite's build (a fresh build on two
/// cores: 236 s optimised, 164 s not) and bought nothing in the run (the test phase 82-96 s either way).
let testTargets: [Target] = [
    ("AudioCoreTests", ["AudioCore", "AudioTestSupport"]),
    ("SystemIOTests", ["SystemIO", "AudioTestSupport"]),
    ("AudioFileTests", ["AudioFile", "SystemIO", "AudioTestSupport", "CSndFile"]),
    ("AudioDSPTests", ["AudioDSP", "AudioTestSupport"]),
    ("AudioEngineTests", ["AudioEngine", "AudioTestSupport"]),
    ("AudioDeviceTests", ["AudioDevice", "AudioEngine", "AudioTestSupport"]),
    ("AssetPipelineTests", ["AssetPipeline", "AudioFile", "AudioTestSupport"]),
    ("AssetReportsTests", ["AssetReports", "AssetPipeline", "AudioFile", "AudioTestSupport", "CZlib"]),
    ("ControlProtocolTests", ["ControlProtocol", "AudioEngine", "AudioTestSupport"]),
    ("PlaybackServiceTests", ["PlaybackService", "AssetLoading", "SystemIO", "AudioTestSupport"]),
    ("CLISupportTests", ["CLISupport"]),
    ("JSONTextTests", ["JSONText"]),
    ("FileBatchTests", ["FileBatch", "AudioTestSupport"]),
    ("EnsoCLITests", ["AssetPipeline", "AudioFile", "AudioDSP", "SystemIO", "ControlProtocol", "AudioTestSupport"]),
].map { (name: String, dependencies: [Target.Dependency]) in
    .testTarget(name: name, dependencies: dependencies, swiftSettings: [.unsafeFlags(["-Onone"])])
}

/// RealtimeSanitizer's runtime from the running toolchain (`<toolchain>/usr/lib/clang/*/lib/linux`), linked whole
/// into `engine-rtcheck` so its real-time regions are checked (docs/engine.md). Without it the tool still runs
/// (with the malloc counter only) and says so.
let rtsanLinkerFlags: [String] = {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    let roots = path.split(separator: ":").map { "\($0)/.." } + ["/opt/swift/usr", "/usr"]
    for root in roots {
        let clang = "\(root)/lib/clang"
        for version in ((try? FileManager.default.contentsOfDirectory(atPath: clang)) ?? []).sorted().reversed() {
            let archive = "\(clang)/\(version)/lib/linux/libclang_rt.rtsan-x86_64.a"
            if FileManager.default.fileExists(atPath: archive) {
                return [
                    "-Xlinker", "--whole-archive", "-Xlinker", archive, "-Xlinker", "--no-whole-archive",
                    "-Xlinker", "-lstdc++", "-Xlinker", "--export-dynamic",
                ]
            }
        }
    }
    return ["-Xlinker", "--export-dynamic"]
}()

let package = Package(
    name: "Enso",
    // The libraries, each with a DocC catalog (`make docs`). CLISupport (the CLI's argument parsing and help) and
    // AudioTestSupport (signal generators for tests) are internal to this package and not products.
    products: [
        "AudioCore", "SystemIO", "AudioFile", "AudioDSP", "AudioEngine", "AudioDevice", "AssetPipeline",
        "AssetReports", "ControlProtocol", "AssetLoading", "PlaybackService", "JSONText",
    ].map { .library(name: $0, targets: [$0]) } + [
        .executable(name: "enso", targets: ["enso"]),
        .executable(name: "make-assets", targets: ["make-assets"]),
    ],
    targets: [
        // MARK: - C libraries from Debian (module.modulemap + shim.h, no Swift code)
        .systemLibrary(name: "CSndFile", pkgConfig: "sndfile", providers: [.apt(["libsndfile1-dev"])]),
        .systemLibrary(name: "CSampleRate", pkgConfig: "samplerate", providers: [.apt(["libsamplerate0-dev"])]),
        .systemLibrary(name: "CALSA", pkgConfig: "alsa", providers: [.apt(["libasound2-dev"])]),
        .systemLibrary(name: "CEBUR128", pkgConfig: "libebur128", providers: [.apt(["libebur128-dev"])]),
        .systemLibrary(name: "CKissFFT", providers: [.apt(["libkissfft-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CXXHash", pkgConfig: "libxxhash", providers: [.apt(["libxxhash-dev"])]),

        // MARK: - Libraries
        .target(name: "AudioCore", swiftSettings: swiftSettings),
        .target(name: "SystemIO", dependencies: ["AudioCore"], swiftSettings: swiftSettings),
        .target(
            name: "AudioFile", dependencies: ["AudioCore", "SystemIO", "CSndFile", "CSampleRate"],
            swiftSettings: swiftSettings),
        .target(name: "AudioDSP", dependencies: ["AudioCore", "CEBUR128", "CKissFFT"], swiftSettings: swiftSettings),
        .target(name: "AudioEngine", dependencies: ["AudioCore", "JSONText"], swiftSettings: swiftSettings),
        .target(name: "AudioDevice", dependencies: ["AudioCore", "SystemIO", "CALSA"], swiftSettings: swiftSettings),
        .target(
            name: "AssetPipeline", dependencies: ["AudioCore", "SystemIO", "AudioFile", "AudioDSP", "JSONText"],
            swiftSettings: swiftSettings),
        // The report kit (HTML pages, SVG plots, PNG through zlib, Ogg excerpts): it reads the judgments, which
        // never need it (docs/ARCHITECTURE.md).
        .target(
            name: "AssetReports", dependencies: ["AudioCore", "AudioFile", "AudioDSP", "AssetPipeline", "CZlib"],
            swiftSettings: swiftSettings),
        .target(
            name: "ControlProtocol", dependencies: ["AudioCore", "AudioEngine", "JSONText"],
            swiftSettings: swiftSettings),
        .target(
            name: "AssetLoading", dependencies: ["AudioCore", "AudioDSP", "AudioEngine", "AudioFile", "AssetPipeline"],
            swiftSettings: swiftSettings),
        .target(
            name: "PlaybackService",
            dependencies: [
                "AudioCore", "SystemIO", "AudioEngine", "AudioDevice", "AudioFile", "AssetPipeline", "AssetLoading",
                "ControlProtocol", "JSONText",
            ],
            swiftSettings: swiftSettings),
        // One batch of files for every file command: the walk, shards, worker threads, identities (xxHash) and
        // the JSON Lines results (docs/ARCHITECTURE.md).
        .target(
            name: "FileBatch", dependencies: ["AudioCore", "SystemIO", "AudioFile", "CXXHash"],
            swiftSettings: swiftSettings),
        // The one shape of the JSON text written for people (the CLI's --json, a pack's manifest, a loop sidecar), and the
        // one spelling of the numbers messages quote.
        .target(name: "JSONText", swiftSettings: swiftSettings),
        .target(name: "CLISupport", dependencies: ["JSONText"], swiftSettings: swiftSettings),
        .target(name: "AudioTestSupport", dependencies: ["AudioCore"], swiftSettings: swiftSettings),

        // MARK: - Tools
        .executableTarget(
            name: "enso",
            dependencies: [
                "AudioCore", "SystemIO", "AudioFile", "AudioDSP", "AudioEngine", "AudioDevice", "AssetPipeline",
                "AssetReports", "AssetLoading", "ControlProtocol", "PlaybackService", "CLISupport", "FileBatch",
                "JSONText",
            ],
            path: "Tools/enso", swiftSettings: swiftSettings),
        .executableTarget(
            name: "make-assets",
            dependencies: [
                "AudioCore", "AudioFile", "AudioDSP", "AssetPipeline", "CLISupport", "JSONText", "AudioTestSupport",
            ],
            path: "Tools/make-assets", swiftSettings: swiftSettings),
        .executableTarget(
            name: "engine-rtcheck", dependencies: ["AudioCore", "AudioEngine", "AssetLoading", "AudioFile"],
            path: "Tools/engine-rtcheck",
            exclude: ["preload"], swiftSettings: swiftSettings, linkerSettings: [.unsafeFlags(rtsanLinkerFlags)]),
    ] + testTargets,
    swiftLanguageModes: [.v6]
)
