import AudioCore
import AudioFile
import CLISupport
import Foundation

/// `make-assets synth`: renders the raw assets (before loop baking and normalisation) as float WAV.
enum SynthCommand {
    static let command = Command(
        name: "synth",
        abstract: "Render the raw bells and soundscapes (float WAV) from a seed, before the pipeline.",
        discussion: "Exit codes: 0 written, 1 a file could not be written, 64 bad usage.",
        options: [
            .value("out", valueName: "DIR", help: "Folder to write bells/*.wav and soundscapes/*.wav into (required)."),
            .value("seed", valueName: "N", help: "Random seed (default \(PackCatalog.defaultSeed))."),
            .value(
                "seconds", valueName: "S",
                help: "Soundscape length in seconds (default \(PackCatalog.rawSoundscapeSeconds))."),
            .value("only", valueName: "ID", help: "Render only this asset id (repeatable).", repeatable: true),
        ],
        run: { args, _ in try run(args) })

    static func run(_ args: ParsedArguments) throws -> ExitCode {
        guard let out = args.value("out") else { throw UsageError("--out DIR is required") }
        let seed = UInt64(try args.int("seed", in: 0...Int.max) ?? Int(PackCatalog.defaultSeed))
        let seconds = try args.double("seconds", in: 1...600) ?? PackCatalog.rawSoundscapeSeconds
        let only = args.allValues("only")
        let unknown = only.filter { id in !PackCatalog.items.contains { $0.id == id } }
        if let bad = unknown.first {
            throw UsageError(
                "--only: no asset '\(bad)' (known: \(PackCatalog.items.map(\.id).joined(separator: ", ")))")
        }
        let items = PackCatalog.items.filter { only.isEmpty || only.contains($0.id) }
        for item in items {
            let path = try render(item, seed: seed, seconds: seconds, into: out)
            Terminal.out(path)
        }
        return .success
    }

    /// Renders one item into `dir/<folder>/<id>.wav` (32-bit float) and returns the path.
    static func render(_ item: PackCatalog.Item, seed: UInt64, seconds: Double, into dir: String) throws -> String {
        let folder = dir + "/" + item.folder
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("\(folder): cannot create folder: \(error.localizedDescription)")
        }
        let channels = item.render(seed, seconds, item.sampleRate)
        let buffer = AudioBuffer(channelData: channels, sampleRate: SampleRate(checked: Int(item.sampleRate)))
        let path = folder + "/" + item.id + ".wav"
        do {
            try AudioFileEncoder.write(buffer, to: path, options: EncodeOptions(format: .wavf))
        } catch {
            throw CommandFailure(error.message)
        }
        return path
    }
}
