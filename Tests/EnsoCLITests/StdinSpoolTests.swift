import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

/// `-` as input, end to end (issue 47, item 7): `info -` on a long WAV reads its header without spooling the rest;
/// `/dev/zero` is refused at once; a spool a killed process left is swept by the next run.
@Suite struct StdinSpoolTests {
    static let enso = ToolRunner.executablePath("enso")

    /// Runs `script` in bash (no pipefail: the writer of a pipe Enso stops reading gets SIGPIPE) with `$ENSO` set
    /// and `TMPDIR` set to `tmp`, so the spools are the test's to count.
    static func shell(_ script: String, in dir: String, tmp: String) throws -> ToolRunner.Result {
        try ToolRunner.run(
            "/bin/bash", ["-c", script], environment: ["ENSO": enso, "TMPDIR": tmp], currentDirectory: dir, timeout: 120
        )
    }

    /// A 44-byte WAV header, 16-bit stereo at 48 kHz, declaring `dataBytes` of data.
    static func header(dataBytes: UInt32) -> Data {
        func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        return Data(
            Array("RIFF".utf8) + le32(dataBytes &+ 36) + Array("WAVEfmt ".utf8) + le32(16) + le16(1) + le16(2)
                + le32(48_000) + le32(48_000 * 4) + le16(4) + le16(16) + Array("data".utf8) + le32(dataBytes))
    }

    @Test func infoOfALongWAVOnStandardInputReadsItsHeaderOnly() throws {
        let dir = ToolRunner.temporaryDirectory("stdin-long")
        let tmp = dir + "/tmp"
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        // 4 GB declared (6 h 12 min of 16-bit stereo); 2 GB of it follows, more than the spool would take.
        try Self.header(dataBytes: 4_000_000_000).write(to: URL(fileURLWithPath: dir + "/long.hdr"))
        let r = try Self.shell(
            "{ cat long.hdr; head -c 2000000000 /dev/zero; } | \"$ENSO\" info --json -; echo \"exit ${PIPESTATUS[1]}\"",
            in: dir, tmp: tmp)
        #expect(r.stdout.hasSuffix("exit 0\n"), "\(r.stdout) \(r.stderr)")
        let json = String(r.stdout.dropLast("exit 0\n".count))
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(rows.first?["file"] as? String == "-")
        #expect(rows.first?["frames"] as? Int == 1_000_000_000)
        #expect(rows.first?["peak"] == nil, "over the decode limit: header only")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp) == [], "no spool left")
    }

    @Test func endlessInputThatIsNoSoundIsRefusedAtOnce() throws {
        let dir = ToolRunner.temporaryDirectory("stdin-zero")
        let tmp = dir + "/tmp"
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        // 300 MB of zeros (the old spool took them all; /dev/zero itself never ends): refused after 64 KiB.
        let r = try Self.shell("head -c 300000000 /dev/zero | \"$ENSO\" info -", in: dir, tmp: tmp)
        #expect(r.exitCode == 2)
        #expect(r.stderr.contains("Error: -: standard input is not a sound file Enso reads"), "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp) == [])
    }

    @Test func aSpoolLeftByAKilledProcessIsSweptByTheNextRun() throws {
        let dir = ToolRunner.temporaryDirectory("stdin-stale")
        let tmp = dir + "/tmp"
        try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
        let input = try ConvertCommandTests.source(in: dir)
        // `kill -9` during `info -`: its spool stays behind.
        // (Its input is a FIFO held open and silent, so it waits on it; at most 10 s for the spool to appear.)
        let killed = try Self.shell(
            """
            mkfifo in.fifo; "$ENSO" info - < in.fifo & pid=$!; exec 3> in.fifo
            for i in $(seq 100); do ls "$TMPDIR" | grep -q enso-stdin && break; sleep 0.1; done
            kill -9 $pid; wait $pid; exec 3>&-; ls "$TMPDIR"
            """, in: dir, tmp: tmp)
        #expect(killed.stdout.contains("enso-stdin-"), "the killed run's spool: \(killed.stdout) \(killed.stderr)")
        let r = try Self.shell("\"$ENSO\" info - < '\(input)'", in: dir, tmp: tmp)
        #expect(r.exitCode == 0, "\(r.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp) == [], "the stale spool is removed")
    }
}
