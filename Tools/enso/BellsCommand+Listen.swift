import AssetPipeline
import AssetReports
import AudioCore
import AudioDevice
import AudioEngine
import AudioFile
import CLISupport
import Foundation
import SystemIO

extension BellsCommand {
    /// The decisions of a `--listen` audition, as written to `--selection` (docs/bells.md): each list holds the
    /// files as given on the command line, in rank order; `undecided` has the candidates played (verdict keep, fix
    /// or listen) neither kept nor rejected.
    struct Selection: Codable, Equatable {
        var kept: [String] = []
        var rejected: [String] = []
        var undecided: [String] = []
    }

    /// The keys of `--listen`, as shown to the user.
    static let listenKeys =
        "space/p play, r replay, n next, b previous, k keep, x reject, g group of 3, o original/matched level, q quit"

    /// `--listen`: plays the keep, fix and listen candidates in rank order on the output and records keep/reject decisions;
    /// writes the selection when the user quits (or stdin ends).
    ///
    /// Keys come from the terminal when stdin is one, otherwise one command per line from stdin (the line's first
    /// character; a line of spaces is "play"), each read once the current play has ended.
    static func listen(_ results: [BellAuditionResult], args: ParsedArguments) throws {
        let spacing = try args.valueOrDefault(of: BellsOptions.spacing)
        let path = try args.value(of: BellsOptions.selection) ?? "bells-selection.json"
        let candidates = results.filter { [.keep, .fix, .listen].contains($0.verdict) }
        var decisions: [String: Bool] = [:]
        guard !candidates.isEmpty else {
            Terminal.err("Nothing to listen to: no candidate is keep, fix or listen.")
            try writeSelection(Selection(), to: path)
            return
        }
        let output = try DeviceOptions.open(args, rate: .hz48000)
        let player = AuditionPlayer(output)
        let rate = output.format.sampleRate
        // Loudness-matched, as the HTML report's players: a louder candidate always sounds better to the ear, so
        // every candidate plays at one common level (ReportAudio.matchedLevel: at most -23 LUFS, low enough that
        // no candidate's peak passes -1 dBFS); `o` switches to the files' own levels and back.
        let buffers = try candidates.map { try decodeBell($0.file, rate: rate) }
        let levels = buffers.map { ReportAudio.level($0) }
        let target = ReportAudio.matchedLevel(levels)
        let gains = levels.map { l in l.loudness.map { target - $0 } ?? 0 }
        var matched = true
        var loaded: [Int: (matched: LoadedAsset, original: LoadedAsset)] = [:]
        func asset(_ i: Int) throws -> LoadedAsset {
            if let a = loaded[i] { return matched ? a.matched : a.original }
            var scaled = buffers[i]
            scaled.scale(by: Float(pow(10, gains[i] / 20)))
            let a = (
                matched: try makeAsset(candidates[i].file, scaled),
                original: try makeAsset(candidates[i].file, buffers[i])
            )
            loaded[i] = a
            return matched ? a.matched : a.original
        }
        func levelText(_ i: Int) -> String {
            let own = levels[i].loudness.map { String(format: "own level %.1f LUFS", $0) } ?? "own level unmeasured"
            return matched
                ? own + String(format: ", plays %+.1f dB at %.1f LUFS", gains[i], target) : own + ", played as it is"
        }
        let spacingFrames = Int((spacing * Double(rate.hertz)).rounded())
        let keys = TerminalKeys()
        let signals = StopSignals()
        var index = 0
        func announce() {
            let c = candidates[index]
            let decided = decisions[c.file].map { $0 ? " [kept]" : " [rejected]" } ?? ""
            Terminal.err(
                "[\(index + 1)/\(candidates.count)] \(c.file) (score \(f(c.score, "%.0f")); \(levelText(index)))\(decided)"
            )
        }
        func play(group: Bool) throws {
            let a = try asset(index)
            let offsets = group ? [0, spacingFrames, 2 * spacingFrames] : [0]
            try player.play(offsets.map { StrikeListSource.Strike(asset: a, at: $0) })
        }
        func move(_ step: Int) throws {
            guard (0..<candidates.count).contains(index + step) else {
                Terminal.err(step > 0 ? "That was the last candidate (q to finish)." : "This is the first candidate.")
                return
            }
            index += step
            announce()
            try play(group: false)
        }
        Terminal.err(
            "Listening to \(candidates.count) bell-like candidate\(candidates.count == 1 ? "" : "s") on '\(output.deviceName)'. Keys: \(listenKeys)"
        )
        announce()
        try play(group: false)
        loop: while let key = try nextKey(keys, player: player, signals: signals) {
            switch key {
            case " ", "p", "r": try play(group: false)
            case "g":
                Terminal.err(String(format: "Group of 3, %.1f s apart", spacing))
                try play(group: true)
            case "o":
                matched.toggle()
                Terminal.err(
                    matched
                        ? "Loudness-matched: every candidate at \(String(format: "%.1f", target)) LUFS"
                        : "Original levels")
                announce()
                try play(group: false)
            case "n": try move(1)
            case "b": try move(-1)
            case "k", "x":
                decisions[candidates[index].file] = key == "k"
                Terminal.err("\(key == "k" ? "Kept" : "Rejected"): \(candidates[index].file)")
                try move(1)
            case "q": break loop
            default: Terminal.err("Unknown key '\(key)'. Keys: \(listenKeys)")
            }
        }
        keys.restore()
        try player.finish(drain: !signals.stopRequested)
        var selection = Selection()
        for c in candidates {
            switch decisions[c.file] {
            case true?: selection.kept.append(c.file)
            case false?: selection.rejected.append(c.file)
            case nil: selection.undecided.append(c.file)
            }
        }
        try writeSelection(selection, to: path)
        Terminal.err(
            "Wrote \(path): \(selection.kept.count) kept, \(selection.rejected.count) rejected, \(selection.undecided.count) undecided"
        )
    }

    /// The next command: a key press on a terminal (the current play goes on meanwhile), else the first character
    /// of the next stdin line once the current play has ended. `nil` at end of input or on SIGINT/SIGTERM.
    static func nextKey(_ keys: TerminalKeys, player: AuditionPlayer, signals: StopSignals) throws -> Character? {
        if Terminal.stdinIsTerminal {
            while !signals.stopRequested {
                if let byte = keys.poll() { return Character(Unicode.Scalar(byte)) }
                try player.settle()
                usleep(10_000)
            }
            return nil
        }
        while true {
            try player.wait(signals)
            guard !signals.stopRequested, let line = readLine() else { return nil }
            if line.isEmpty { continue }
            return line.trimmingCharacters(in: .whitespaces).first ?? " "
        }
    }

    /// Decodes `file` and resamples it to the output rate.
    static func decodeBell(_ file: String, rate: SampleRate) throws -> AudioBuffer {
        do {
            return try Resampler.resample(AudioFileDecoder.decode(path: file).buffer, to: rate, quality: .medium)
        } catch {
            throw CommandFailure(error.message, exitCode: .inputError)
        }
    }

    /// `buffer` (of `file`) as an engine asset.
    static func makeAsset(_ file: String, _ buffer: AudioBuffer) throws -> LoadedAsset {
        do {
            return try LoadedAsset(id: file, buffer: buffer)
        } catch {
            throw CommandFailure(error.message, exitCode: .inputError)
        }
    }

    /// Writes `selection` as the CLI's JSON (``JSONOutput``: indented, sorted keys), atomically (``AtomicFile``: a
    /// replaced selection keeps its mode).
    static func writeSelection(_ selection: Selection, to path: String) throws {
        do {
            try AtomicFile.write(Array((try JSONOutput.string(selection) + "\n").utf8), to: path)
        } catch let e as EnsoError {
            throw CommandFailure("cannot write the selection: \(e.message)")
        }
    }
}
