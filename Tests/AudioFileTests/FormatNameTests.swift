import AudioCore
import AudioTestSupport
import CSndFile
import Foundation
import Testing

@testable import AudioFile

/// `info` names every container and encoding libsndfile reads: VOC, NIST (SPHERE), IRCAM, PAF, HTK and the rest
/// printed raw codes (`0x80000`) before.
@Suite struct FormatNameTests {
    /// Every major format and subtype this libsndfile lists (`SFC_GET_FORMAT_MAJOR`, `SFC_GET_FORMAT_SUBTYPE`).
    @Test func everyFormatThisLibsndfileListsHasAName() {
        for (command, countCommand, name) in [
            (SFC_GET_FORMAT_MAJOR, SFC_GET_FORMAT_MAJOR_COUNT, { formatName(major: $0) }),
            (SFC_GET_FORMAT_SUBTYPE, SFC_GET_FORMAT_SUBTYPE_COUNT, { subtypeName(minor: $0) }),
        ] as [(Int, Int, (Int32) -> String)] {
            var count: Int32 = 0
            sf_command(nil, Int32(countCommand), &count, Int32(MemoryLayout<Int32>.size))
            #expect(count > 10)
            for i in 0..<count {
                var f = SF_FORMAT_INFO()
                f.format = i
                sf_command(nil, Int32(command), &f, Int32(MemoryLayout<SF_FORMAT_INFO>.size))
                let shown = name(f.format)
                #expect(!shown.hasPrefix("0x"), "\(String(cString: f.name)): \(shown)")
            }
        }
    }

    @Test(
        "files of the rarer containers read back with their names",
        arguments: [
            (Int32(SF_FORMAT_VOC | SF_FORMAT_PCM_16), "VOC", "voc"),
            (Int32(SF_FORMAT_NIST | SF_FORMAT_PCM_16), "NIST", "sph"),
            (Int32(SF_FORMAT_IRCAM | SF_FORMAT_PCM_16), "IRCAM", "sf"),
            (Int32(SF_FORMAT_PAF | SF_FORMAT_PCM_16), "PAF", "paf"),
            (Int32(SF_FORMAT_HTK | SF_FORMAT_PCM_16), "HTK", "htk"),
        ])
    func rareContainers(format: Int32, name: String, ext: String) throws {
        let dir = TestFiles.folder("format-names")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/x." + ext
        let tone = SignalGenerator.sine(frequency: 440, amplitude: 0.5, frames: 1_000, sampleRate: 16_000)
        try #require(FormatCoverageTests.writeWithLibsndfile(tone, channels: 1, rate: 16_000, format: format, to: path))
        let info = try AudioFileDecoder.info(path: path)
        #expect(info.format == name)
        #expect(info.subtype == "PCM_16")
    }
}
