import AudioCore
import AudioTestSupport
import CSndFile
import Foundation
import Testing

@testable import AudioFile

/// The one table of audio endings (``AudioFileExtensions``) against what the linked libsndfile reads.
@Suite struct AudioFileExtensionsTests {
    @Test func everyEndingNamesAFormatLibsndfileReads() {
        let formats = Set(AudioFileExtensions.libsndfileFormats().map(\.format))
        #expect(formats.count > 5)
        for (ending, format) in AudioFileExtensions.table {
            #expect(formats.contains(format), "\(ending): libsndfile does not list its format")
        }
    }

    @Test func theEndingsLibsndfileNamesForTheTablesFormatsAreInTheTable() {
        let used = Set(AudioFileExtensions.table.map(\.format))
        for (format, ending) in AudioFileExtensions.libsndfileFormats() where used.contains(format) {
            #expect(AudioFileExtensions.all.contains(ending.lowercased()), "libsndfile names .\(ending)")
        }
    }

    @Test func theWalkFindsEveryEndingItDecodesAndNothingElse() throws {
        let dir = TestFiles.folder("endings")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: "\(dir)/sub/x.wav", withIntermediateDirectories: true)
        let tone = AudioBuffer(
            channelData: [(0..<4_800).map { Float(sin(Double($0) * 0.05)) * 0.5 }], sampleRate: .hz48000)
        // `.wave`, `.aifc` and `.au` are what `bells audition DIR` used to skip while `loops verify DIR` read them.
        for name in ["a.wav", "b.WAVE", "sub/c.aifc", "d.au"] {
            let format: Int32 =
                name.hasSuffix("aifc")
                ? Int32(SF_FORMAT_AIFF | SF_FORMAT_PCM_16)
                : name.hasSuffix("au")
                    ? Int32(SF_FORMAT_AU | SF_FORMAT_PCM_16) : Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
            #expect(
                FormatCoverageTests.writeWithLibsndfile(
                    Array(tone.channel(0)), channels: 1, rate: 48_000, format: format, to: "\(dir)/\(name)"))
        }
        try Data("notes".utf8).write(to: URL(fileURLWithPath: "\(dir)/notes.txt"))
        let found = AudioFileExtensions.files(under: dir)
        #expect(found == ["a.wav", "b.WAVE", "d.au", "sub/c.aifc"])
        for relative in found {
            #expect(throws: Never.self) { try AudioFileDecoder.decode(path: "\(dir)/\(relative)") }
        }
    }

    /// A file whose name is not UTF-8 (a Latin-1 `ß`, byte 0xDF) was left out of a walk without a word: Foundation
    /// gives its name with U+FFFD, which no file has, and the walk kept only names it found. It is listed, and reading
    /// it says why it is not found.
    @Test func aNameThatIsNotUTF8IsListedAndReadingItSaysWhy() throws {
        let dir = TestFiles.folder("latin1-names")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        #expect(
            FormatCoverageTests.writeWithLibsndfile(
                [0, 0.5, -0.5, 0], channels: 1, rate: 48_000, format: Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16),
                to: "\(dir)/a.wav"))
        // "Glocke groß.wav" in Latin-1, moved into place by its bytes.
        let latin1 = Array("\(dir)/Glocke gro".utf8) + [0xDF] + Array(".wav".utf8) + [0]
        let renamed = latin1.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { rename("\(dir)/a.wav", $0.baseAddress!) }
        }
        #expect(renamed == 0)
        let found = AudioFileExtensions.files(under: dir)
        #expect(found == ["Glocke gro\u{FFFD}.wav"])
        do {
            _ = try AudioFileDecoder.decode(path: "\(dir)/\(found[0])")
            Issue.record("a name no file has was read")
        } catch {
            #expect(error.detail == .notFound)
            let said =
                "Glocke gro\u{FFFD}.wav: no file by that name: its name on disk, or a folder's on its path, is not UTF-8"
            #expect(error.message.contains(said), "\(error.message)")
            #expect(error.message.contains("convmv -f latin1 -t utf8"))
        }
    }
}
