import AssetPipeline
import AudioCore
import AudioFile
import CLISupport
import Foundation
import JSONText

/// The asset pipeline the bundled pack goes through, the same one a user's generated assets go through:
///
/// 1. synthesise the raw asset (float WAV, `make-assets synth`);
/// 2. soundscapes: `enso loops find --write` picks the loop points, `enso loops bake` crossfades the seam
///    so the file loops by itself;
/// 3. one gain, iterated with the EBU R 128 meter (``AssetPack/measureLoudness(_:)``), brings each asset to
///    its kind's loudness target (the synthesised bells start on their first frame with no DC, so level is
///    all that needs setting);
/// 4. encode as 16-bit FLAC (lossless and byte-reproducible; the manifest keeps the loop points);
/// 5. measure the stored file's loudness and write `manifest.json`.
struct PackBuilder {
    var seed: UInt64
    var outDirectory: String
    var workDirectory: String
    var ensoPath: String
    var log: (String) -> Void = { Terminal.err($0) }

    static let packName = "Enso bundled pack"
    /// The licence of every bundled asset: the project's own (LICENSE), as they are synthesised from a seed by
    /// make-assets with no third-party material (NOTICE).
    static let licence = "Apache-2.0"

    /// Runs the whole pipeline and returns the pack it wrote.
    func build(only ids: [String] = []) throws -> AssetPack {
        try makeFolder(outDirectory)
        let items = PackCatalog.items.filter { ids.isEmpty || ids.contains($0.id) }
        var entries: [AssetPack.Entry] = []
        for item in items {
            let started = Date()
            let entry = try process(item)
            log(
                String(
                    format: "%@: %@ %.1f LUFS (target %.0f)%@, %.1f s", item.id, entry.file, entry.loudness.integrated,
                    entry.loudness.target, entry.loop.map { ", loop \($0.start)..<\($0.end)" } ?? "",
                    Date().timeIntervalSince(started)))
            entries.append(entry)
        }
        let pack = AssetPack(name: Self.packName, entries: entries, directory: outDirectory)
        if let problem = pack.validationProblems().first {
            throw CommandFailure("the generated manifest is invalid: \(problem)")
        }
        try pack.writeManifest()
        return pack
    }

    /// Takes one asset from synthesis to its stored file and manifest entry.
    func process(_ item: PackCatalog.Item) throws -> AssetPack.Entry {
        let rawDir = workDirectory + "/raw"
        let raw = try SynthCommand.render(item, seed: seed, seconds: PackCatalog.rawSoundscapeSeconds, into: rawDir)
        let stageDir = workDirectory + "/stages/" + item.folder
        try makeFolder(stageDir)
        let target = item.kind.loudnessTarget
        var steps = ["make-assets synth --seed \(seed) --only \(item.id)"]
        var buffer: AudioBuffer
        var loop: LoopRegion?
        switch item.kind {
        case .bell:
            // The synthesised strike starts on frame 0 with no DC, so only the level needs setting.
            buffer = try decode(raw).buffer
        case .soundscape:
            let length = NumberText.plain(PackCatalog.loopSeconds) + "s"
            let crossfade = NumberText.plain(PackCatalog.seamCrossfadeSeconds) + "s"
            let findArgs = [
                "loops", "find", raw, "--min-length", length, "--max-length", length, "--crossfade", crossfade,
                "--write",
            ]
            try runEnso(findArgs)
            steps.append(
                "enso loops find --min-length \(length) --max-length \(length) --crossfade \(crossfade) --write")
            let baked = stageDir + "/\(item.id).baked.wav"
            try runEnso(["loops", "bake", raw, baked, "--crossfade", crossfade])
            steps.append("enso loops bake --crossfade \(crossfade)")
            let decoded = try decode(baked)
            buffer = decoded.buffer
            loop = decoded.info.loops.first ?? LoopRegion(start: 0, end: FramePosition(buffer.frameCount))
        }
        let gain: Float
        do { gain = try AssetPack.normalizationGain(buffer, target: target, name: item.id) } catch {
            throw CommandFailure(error.message)
        }
        buffer.scale(by: gain)
        steps.append("gain \(String(format: "%+.2f", 20 * log10(Double(gain)))) dB to \(NumberText.plain(target)) LUFS")
        let file = "\(item.folder)/\(item.id).flac"
        let out = outDirectory + "/" + file
        try makeFolder(outDirectory + "/" + item.folder)
        do {
            try AudioFileEncoder.write(buffer, to: out, options: EncodeOptions(format: .flac))
        } catch {
            throw CommandFailure(error.message)
        }
        steps.append("flac 16-bit")
        let stored = try decode(out).buffer
        guard let measured = try AssetPack.measureLoudness(stored) else {
            throw CommandFailure("\(out): too short or silent to have an integrated loudness")
        }
        return AssetPack.Entry(
            id: item.id, displayName: item.displayName, kind: item.kind, file: file, loop: loop, gainDB: 0,
            loudness: .init(integrated: (measured * 100).rounded() / 100, target: target), licence: Self.licence,
            command: steps.joined(separator: " | "))
    }

    private func decode(_ path: String) throws -> DecodedAudio {
        do {
            return try AudioFileDecoder.decode(path: path)
        } catch {
            throw CommandFailure(error.message)
        }
    }

    private func makeFolder(_ path: String) throws {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure("\(path): cannot create folder: \(error.localizedDescription)")
        }
    }

    /// Runs `enso` with `arguments`; a failure names the command and repeats its error output.
    private func runEnso(_ arguments: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ensoPath)
        process.arguments = arguments
        let errPipe = Pipe()
        process.standardError = errPipe
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw CommandFailure(
                "cannot run \(ensoPath): \(error.localizedDescription) (build it: swift build -c release)")
        }
        let err = errPipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let text = String(decoding: err, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            throw CommandFailure(
                "enso \(arguments.joined(separator: " ")) failed (exit \(process.terminationStatus)): \(text)")
        }
    }
}
