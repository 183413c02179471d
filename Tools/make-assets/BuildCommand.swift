import CLISupport
import Foundation

/// `make-assets build`: the whole pipeline, from seed to a checked-in pack folder with its manifest.
enum BuildCommand {
    static let command = Command(
        name: "build",
        abstract: "Synthesise the pack and run it through Enso's pipeline (loops, loudness, FLAC, manifest).",
        discussion: """
            Needs the `enso` tool (built beside make-assets by `swift build -c release`, or --enso PATH).
            The result is byte-identical for the same seed on the same toolchain and libraries.
            Exit codes: 0 written, 1 a step failed (the message names it), 64 bad usage.
            """,
        options: [
            .value("out", valueName: "DIR", help: "The pack folder to write (default Assets)."),
            .value("seed", valueName: "N", help: "Random seed (default \(PackCatalog.defaultSeed))."),
            .value(
                "work", valueName: "DIR", help: "Folder for intermediate files (default: a temporary folder, removed)."),
            .value("enso", valueName: "PATH", help: "The enso executable (default: beside make-assets)."),
            .value(
                "only", valueName: "ID", help: "Build only this asset id (repeatable; the manifest lists only these).",
                repeatable: true),
        ],
        run: { args, _ in try run(args) })

    static func run(_ args: ParsedArguments) throws -> ExitCode {
        let seed = UInt64(try args.int("seed", in: 0...Int.max) ?? Int(PackCatalog.defaultSeed))
        let out = URL(fileURLWithPath: args.value("out") ?? "Assets").standardizedFileURL.path
        let only = args.allValues("only")
        if let bad = only.first(where: { id in !PackCatalog.items.contains { $0.id == id } }) {
            throw UsageError(
                "--only: no asset '\(bad)' (known: \(PackCatalog.items.map(\.id).joined(separator: ", ")))")
        }
        let keepWork = args.value("work") != nil
        let work = args.value("work") ?? NSTemporaryDirectory() + "make-assets-\(getpid())"
        defer { if !keepWork { try? FileManager.default.removeItem(atPath: work) } }
        let builder = PackBuilder(
            seed: seed, outDirectory: out, workDirectory: work, ensoPath: args.value("enso") ?? ensoBeside())
        let pack = try builder.build(only: only)
        Terminal.out("wrote \(pack.entries.count) assets and \(out)/manifest.json")
        return .success
    }

    /// `enso` in the same folder as this executable.
    static func ensoBeside() -> String {
        let exe =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("enso").path
    }
}
