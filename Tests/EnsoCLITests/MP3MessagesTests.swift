import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

/// libmpg123's notes about a damaged MP3 name the file (issue 47, item 11): in a scan of many files, each line
/// says which one it is about.
@Suite struct MP3MessagesTests {
    @Test func aDamagedMP3sDecoderNotesNameTheFile() throws {
        let dir = ToolRunner.temporaryDirectory("mp3-notes")
        let wave = SignalGenerator.whiteNoise(frames: 96_000, amplitude: 0.3, seed: 7)
        let good = dir + "/good.mp3"
        try AudioFileEncoder.write(
            AudioBuffer(channelData: [wave, wave], sampleRate: SampleRate(checked: 48_000)), to: good,
            options: EncodeOptions(format: .mp3))
        // Damage: 40 bytes overwritten every 3001 bytes past the first frames.
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: good)))
        var rng = SeededRandom(seed: 1)
        for start in stride(from: 4_000, to: bytes.count - 100, by: 3_001) {
            for k in 0..<40 { bytes[start + k] = UInt8.random(in: 0...255, using: &rng) }
        }
        let bad = dir + "/bad.mp3"
        try Data(bytes).write(to: URL(fileURLWithPath: bad))
        let r = try ToolRunner.run("enso", ["info", good, bad])
        #expect(r.exitCode == 0, "\(r.stderr)")
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("\(bad): mp3 decoder: ") }, "\(r.stderr)")
        // No note of libmpg123's reaches stderr without the file's name.
        #expect(
            !lines.contains {
                $0.hasPrefix("Note: ") || $0.hasPrefix("[src/libmpg123")
                    || ($0.hasPrefix("Warning: ") && !$0.hasPrefix("Warning: \(bad): "))  // Enso's own names the file
            },
            "\(r.stderr)")
        #expect(!lines.contains { $0.hasPrefix("\(good):") }, "the good file has no notes: \(r.stderr)")
    }
}
