import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

/// `enso bells audition --listen` end to end: commands from stdin (not a terminal), the plays written to a raw
/// float32 stereo file, the decisions to the selection JSON.
@Suite struct BellsListenTests {
    struct Selection: Decodable, Equatable {
        var kept: [String]
        var rejected: [String]
        var undecided: [String]
    }

    /// Two bell-like candidates and a notification-like chime (which is not auditioned).
    static func makeCandidates() throws -> String {
        try BellsCommandTests.makeCandidates("bells-listen", clipped: false)
    }

    /// The files `--listen` plays (keep, fix, listen) in rank order, from `--json`.
    static func ranked(_ dir: String) throws -> [String] {
        struct Row: Decodable {
            var file: String
            var verdict: String
        }
        let r = try ToolRunner.run("enso", ["bells", "audition", "--json", dir])
        return try JSONDecoder().decode([Row].self, from: Data(r.stdout.utf8))
            .filter { ["keep", "fix", "listen"].contains($0.verdict) }.map(\.file)
    }

    /// Runs the audition with `commands` on stdin; returns the result, the selection and the audio frames written.
    static func listen(_ dir: String, _ commands: String, extra: [String] = []) throws
        -> (ToolRunner.Result, Selection?, frames: Int, peak: Float)
    {
        let raw = "\(dir)/out.raw"
        let selection = "\(dir)/selection.json"
        try? FileManager.default.removeItem(atPath: raw)
        try? FileManager.default.removeItem(atPath: selection)
        let r = try ToolRunner.run(
            "enso",
            ["bells", "audition", "--listen", "--output", "file:\(raw)", "--selection", selection, "--spacing", "1"]
                + extra + [dir], stdin: commands)
        let sel = FileManager.default.contents(atPath: selection).flatMap {
            try? JSONDecoder().decode(Selection.self, from: $0)
        }
        let data = FileManager.default.contents(atPath: raw) ?? Data()
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        return (r, sel, data.count / 8, samples.map(abs).max() ?? 0)
    }

    /// The peaks of the plays in a raw float32 stereo output, split at runs of 0.25 s or more below -60 dBFS (a play
    /// ends once its bell has decayed below -60 dBFS).
    static func playPeaks(_ raw: String) -> [Float] {
        let data = FileManager.default.contents(atPath: raw) ?? Data()
        let samples = data.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        var peaks: [Float] = []
        var current: Float = 0
        var silent = 0
        for frame in 0..<(samples.count / 2) {
            let a = max(abs(samples[2 * frame]), abs(samples[2 * frame + 1]))
            if a < 0.001 {
                silent += 1
                if silent == 12_000 && current > 0 { peaks.append(current); current = 0 }
            } else {
                silent = 0
                current = max(current, a)
            }
        }
        if current > 0 { peaks.append(current) }
        return peaks
    }

    /// Two copies of one bell, one 12 dB quieter: matched, they play at one level (the same peak within 0.5 dB);
    /// `o` plays them as they are (12 dB apart). The announcement gives each file's own level and its gain.
    @Test func candidatesPlayLoudnessMatchedAndOSwitchesToTheirOwnLevels() throws {
        let dir = ToolRunner.temporaryDirectory("bells-listen-matched")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bell = BellSignals.bell(seconds: 8, channels: 2)
        var quiet = bell
        for i in quiet.samples.indices { quiet.samples[i] *= 0.25119 }  // -12 dB
        try AudioFileEncoder.write(bell, to: "\(dir)/loud.wav", options: EncodeOptions(format: .wav24))
        try AudioFileEncoder.write(quiet, to: "\(dir)/quiet.wav", options: EncodeOptions(format: .wav24))
        let raw = "\(dir)/out.raw"
        let (r, _, _, _) = try Self.listen(dir, "n\nq\n")
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stderr.contains("own level") && r.stderr.contains("LUFS, plays"), "\(r.stderr)")
        let matched = Self.playPeaks(raw)
        try #require(matched.count == 2, "\(matched)")
        #expect(abs(20 * log10(matched[0] / matched[1])) < 0.5, "matched peaks \(matched)")
        let (o, _, _, _) = try Self.listen(dir, "o\nn\nq\n")
        #expect(o.exitCode == 0 && o.stderr.contains("Original levels"), "\(o.stderr)")
        // The first play (matched), the replay at its own level after `o`, then the next candidate at its own level.
        let original = Self.playPeaks(raw)
        try #require(original.count == 3, "\(original)")
        #expect(abs(abs(20 * log10(original[1] / original[2])) - 12) < 0.5, "own-level peaks \(original)")
    }

    @Test func keysMoveDecideAndWriteTheSelection() throws {
        let dir = try Self.makeCandidates()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let order = try Self.ranked(dir)
        try #require(order.count == 2)
        // k keeps #1 and moves on; b goes back; x rejects #1 (overriding the keep); k keeps #2 (the last: no
        // move); g strikes #2 as a group; an unknown key is reported; q writes the selection.
        let (r, selection, frames, peak) = try Self.listen(dir, "k\nb\nx\nk\n?\ng\nq\n")
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(selection == Selection(kept: [order[1]], rejected: [order[0]], undecided: []))
        #expect(r.stderr.contains("Unknown key '?'"))
        #expect(r.stderr.contains("Wrote \(dir)/selection.json: 1 kept, 1 rejected, 0 undecided"))
        #expect(!r.stderr.contains("ding-dong"), "the notification-like chime is not auditioned")
        // Four single plays (each bell rings ~5.4 s to -60 dBFS, plus 0.5 s of silence) and a group of three:
        // at least 4 × 5 + 2 + 5 s, at most 4 × 8.5 + 2 + 8.5 s (an 8 s file cannot ring longer than itself).
        #expect(frames >= 27 * 48_000 && frames <= 45 * 48_000, "\(frames) frames")
        // The bells peak near 0.5; overlapping strikes of a group stay under full scale (soft clipper).
        #expect(peak > 0.3 && peak <= 1, "peak \(peak)")
    }

    @Test func aGroupIsThreeStrikesAtTheSpacing() throws {
        let dir = try Self.makeCandidates()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // End of input quits like q; the first candidate stays undecided.
        let (one, selection, single, _) = try Self.listen(dir, "")
        #expect(one.exitCode == 0, "\(one.stderr)")
        #expect(selection?.kept == [] && selection?.rejected == [] && selection?.undecided.count == 2)
        let (r, _, withGroup, _) = try Self.listen(dir, "g\nq\n")
        #expect(r.exitCode == 0, "\(r.stderr)")
        // The group is the single play with two more strikes, the last 2 × 1 s later: exactly 96000 frames longer.
        #expect(withGroup - 2 * single == 2 * 48_000)
    }

    @Test func nothingBellLikeWritesAnEmptySelectionAndBadSpacingIsUsage() throws {
        let dir = ToolRunner.temporaryDirectory("bells-listen-none")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try AudioFileEncoder.write(
            BellSignals.twoNoteChime(), to: "\(dir)/ding-dong.wav", options: EncodeOptions(format: .wav24))
        let (r, selection, frames, _) = try Self.listen(dir, "k\nq\n")
        #expect(r.exitCode == 1, "\(r.stderr)")
        #expect(selection == Selection(kept: [], rejected: [], undecided: []))
        #expect(frames == 0)
        #expect(r.stderr.contains("no candidate is keep, fix or listen"))
        let bad = try Self.listen(dir, "q\n", extra: ["--spacing", "0"])
        #expect(bad.0.exitCode == 64)
        #expect(bad.0.stderr.contains("--spacing"))
        // A selection that could not be written at the end would lose every decision: refused before listening.
        let nowhere = try ToolRunner.run(
            "enso",
            ["bells", "audition", "--listen", "--output", "null", "--selection", dir + "/missing/sel.json", dir],
            stdin: "k\nq\n")
        #expect(nowhere.exitCode == 64)
        #expect(
            nowhere.stderr.contains("--selection \(dir)/missing/sel.json: the folder \(dir)/missing does not exist"),
            "\(nowhere.stderr)")
        #expect(!nowhere.stdout.contains("ding-dong"), "the audition ran first: \(nowhere.stdout)")
    }
}
