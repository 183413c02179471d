import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

/// `loops find` shows what its rank rests on (issue #48 §3: rank 1 had the lowest SCORE with nothing saying why).
@Suite struct LoopsFindRankTests {
    /// Noise that never repeats ranks its longest loop whose ends match first, whatever the score: the table's last
    /// column says so for each place, and the JSON's last reason of each candidate is the same.
    @Test func theTableSaysWhatEachPlaceRestsOn() throws {
        let dir = ToolRunner.temporaryDirectory("loops-find-rank")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        // As LoopsCommandTests' rain: a click at its end, so the whole file does not loop.
        let rain = LoopSignals.addingClick(
            to: LoopSignals.periodicNoise(
                period: 4 * 48_000, frames: 4 * 48_000, smoothingHz: 2_000, poles: 2, seed: 5),
            at: 4 * 48_000 - 3, amplitude: 0.5, frames: 3)
        try AudioFileEncoder.write(rain, to: dir + "/rain.wav", options: EncodeOptions(format: .wavf))
        let r = try ToolRunner.run("enso", ["loops", "find", dir + "/rain.wav"], environment: ["COLUMNS": "400"])
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(r.stdout.contains("WHY THIS RANK"), "\(r.stdout)")
        let rows = r.stdout.split(separator: "\n").filter { $0.first == " " || $0.first?.isNumber == true }
        let first = try #require(rows.first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("1 ") })
        #expect(first.contains("ranks first"), "\(r.stdout)")
        let second = rows.first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("2 ") }
        #expect(second.map { $0.contains("ranks 2") } ?? true, "\(r.stdout)")
    }
}
