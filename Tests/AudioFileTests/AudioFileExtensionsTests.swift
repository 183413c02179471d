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
}
