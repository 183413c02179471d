import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

/// What the file commands got wrong in small ways (issue 46, section 4): digital silence's peak, a journal folder
/// that is not there.
@Suite struct FileDetailsTests {
    let fixture = CLIFixture("file-details")
    var dir: String { fixture.dir }

    @Test func digitalSilenceHasAPeakOfMinusInfinityDBFS() throws {
        let path = dir + "/silence.wav"
        try AudioFileEncoder.write(
            SignalGenerator.buffer([Float](repeating: 0, count: 4_800), sampleRate: 48_000), to: path,
            options: EncodeOptions(format: .wav16))
        let r = try CLIFixture.succeeds(["info", path])
        #expect(r.stdout.contains("peak      0.0000 (-inf dBFS)"), "\(r.stdout)")
    }

    @Test func sessionsListOnAMissingJournalFolderExits2NamingIt() throws {
        let folder = dir + "/no-such-folder"
        for sub in [["list"], ["list", "--json"], ["export", "--csv"], ["stats"]] {
            let r = try ToolRunner.run("enso", ["sessions"] + sub + ["--journal", folder + "/sessions.jsonl"])
            #expect(r.exitCode == 2, "\(sub): \(r.stderr)")
            #expect(r.stderr.contains(folder), "\(sub): \(r.stderr)")
            #expect(r.stdout.isEmpty || sub.contains("--json"), "\(sub): \(r.stdout)")
        }
        // A journal not written yet in a folder that exists is an empty journal.
        let empty = try CLIFixture.succeeds(["sessions", "list", "--journal", dir + "/sessions.jsonl"])
        #expect(empty.stdout.contains("No sessions recorded"))
    }
}
