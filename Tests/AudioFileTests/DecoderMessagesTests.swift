import AudioCore
import AudioTestSupport
import Foundation
import Testing

@testable import AudioFile

/// libmpg123's messages named by file (issue 47, item 11): the naming rule, and which files are treated as MP3.
@Suite struct DecoderMessagesTests {
    @Test func libmpg123LinesAreNamedAndOtherLinesPassThrough() {
        let text = """
            Note: Illegal Audio-MPEG-Header 0x58bbbf2c at offset 23016.
            [src/libmpg123/layer3.c:III_get_side_info():202] error: big_values too large!
            checking 3/10

            """
        #expect(
            DecoderMessages.named(text, path: "a/b.mp3") == """
                a/b.mp3: mp3 decoder: Note: Illegal Audio-MPEG-Header 0x58bbbf2c at offset 23016.
                a/b.mp3: mp3 decoder: [src/libmpg123/layer3.c:III_get_side_info():202] error: big_values too large!
                checking 3/10

                """)
        // A line another thread wrote without its end stays without one.
        #expect(DecoderMessages.named("\r[####  ]", path: "x.mp3") == "\r[####  ]")
    }

    @Test func mpegIsKnownByExtensionOrFirstBytes() throws {
        let dir = ToolRunner.temporaryDirectory("mpeg-like")
        #expect(DecoderMessages.mayBeMPEG(dir + "/missing.MP3"))
        _ = writeTestFile(dir + "/tagged.bin", Data("ID3\u{4}\0\0\0\0\0\0".utf8))
        _ = writeTestFile(dir + "/sync.bin", Data([0xFF, 0xFB, 0x90, 0x64]))
        _ = writeTestFile(dir + "/riff.wav", Data("RIFF\0\0\0\0WAVE".utf8))
        #expect(DecoderMessages.mayBeMPEG(dir + "/tagged.bin"))
        #expect(DecoderMessages.mayBeMPEG(dir + "/sync.bin"))
        #expect(!DecoderMessages.mayBeMPEG(dir + "/riff.wav"))
    }
}
