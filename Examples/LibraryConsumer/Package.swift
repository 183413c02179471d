// swift-tools-version:6.0
// A package that uses Enso as a library, as another Swift project would: it depends on Enso by path and imports only
// the products README.md calls the stable API. `make test` builds and runs it (Tests/Scripts/suite.sh); by hand:
// `swift run -c release enso-library-consumer OUT_FOLDER` in this folder.
import PackageDescription

let package = Package(
    name: "LibraryConsumer",
    dependencies: [.package(name: "Enso", path: "../..")],
    targets: [
        .executableTarget(
            name: "enso-library-consumer",
            dependencies: [
                .product(name: "AudioCore", package: "Enso"),
                .product(name: "AudioFile", package: "Enso"),
                .product(name: "AudioDSP", package: "Enso"),
                .product(name: "AudioEngine", package: "Enso"),
                .product(name: "AssetPipeline", package: "Enso"),
            ])
    ],
    swiftLanguageModes: [.v6]
)
