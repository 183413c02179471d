import AudioTestSupport
import Foundation
import SystemIO
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct ServeCommandTests {
    @Test func usageErrors() throws {
        for args in [["serve"], ["serve", "--stdio", "--socket"], ["serve", "--stdio", "/tmp/x.sock"]] {
            let r = try ToolRunner.run("enso", args)
            #expect(r.exitCode == 64, "\(args)")
            #expect(r.stderr.contains("Usage: enso serve"))
        }
        let bad = try ToolRunner.run("enso", ["serve", "--stdio", "--output", "speakers"])
        #expect(bad.exitCode == 64)
        #expect(bad.stderr.contains("--output: 'speakers' is not alsa[:DEVICE], null or file:PATH"))
        let rate = try ToolRunner.run("enso", ["serve", "--stdio", "--checkpoint-interval", "0"])
        #expect(rate.stderr.contains("--checkpoint-interval 0 is outside 0.1...60"))
    }

    @Test func stdioServerSaysHelloAndEndsAtEndOfInput() throws {
        let dir = ToolRunner.temporaryDirectory("serve-cli")
        let r = try ToolRunner.run(
            "enso", ["serve", "--stdio", "--output", "null", "--journal", dir + "/j.jsonl"],
            stdin: #"{"id":1,"command":"status"}"# + "\n")
        #expect(r.exitCode == 0)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines.first?.contains(#""event":"hello""#) == true)
        #expect(lines.last?.hasPrefix(#"{"data":{"#) == true)
        #expect(lines.last?.contains(#""state":"idle""#) == true)
        #expect(r.stderr.contains("end of input"))
        #expect(!r.stderr.lowercased().contains("warning"), "\(r.stderr)")
    }

    /// A pack folder that is not there is said at the start (the server still runs: a file named by its path
    /// plays); it started without a word, and only an `assets` request told.
    @Test func aMissingAssetPackIsSaidAtTheStart() throws {
        let dir = ToolRunner.temporaryDirectory("serve-cli")
        let r = try ToolRunner.run(
            "enso",
            ["serve", "--stdio", "--output", "null", "--journal", dir + "/j.jsonl", "--assets", dir + "/nonexistent"],
            stdin: #"{"id":1,"command":"status"}"# + "\n")
        #expect(r.exitCode == 0)
        #expect(
            r.stderr.contains(
                "Warning: \(dir)/nonexistent: no such asset pack folder: a sound named by id is refused; one named by its file still plays"
            ), "\(r.stderr)")
        #expect(r.stdout.contains(#""state":"idle""#))
    }

    @Test func aLiveSocketIsRefusedAndAStaleOneReplaced() throws {
        let dir = ToolRunner.temporaryDirectory("serve-sock")
        let path = dir + "/enso/control.sock"
        // A stale socket: bound by a process that is gone (a socket file nobody listens on).
        try FileManager.default.createDirectory(atPath: dir + "/enso", withIntermediateDirectories: true)
        let address = try UnixSocketAddress(path: path)
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(address.bind(stale) == 0)
        close(stale)
        let first = Process()
        first.executableURL = URL(fileURLWithPath: ToolRunner.executablePath("enso"))
        first.arguments = ["serve", "--socket", "--output", "null", "--journal", dir + "/j.jsonl"]
        first.environment = ProcessInfo.processInfo.environment.merging(["XDG_RUNTIME_DIR": dir]) { $1 }
        first.standardError = FileHandle.nullDevice
        try first.run()
        defer { if first.isRunning { kill(first.processIdentifier, SIGKILL) } }
        // Wait until the first server is listening (the stale file replaced by a live socket).
        let deadline = Date().addingTimeInterval(10)
        var live = false
        while !live && Date() < deadline {
            let s = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            live = address.connect(s) == 0
            close(s)
            if !live { usleep(20_000) }
        }
        #expect(live)
        let second = try ToolRunner.run(
            "enso", ["serve", "--socket", path, "--output", "null", "--journal", dir + "/j.jsonl"])
        #expect(second.exitCode == 1)
        #expect(second.stderr.contains("Error: another enso serve is already listening on \(path)"))
        kill(first.processIdentifier, SIGTERM)
        // Up to 10 s for it to exit; the deferred SIGKILL ends it otherwise, and the test fails here.
        let exitBy = Date().addingTimeInterval(10)
        while first.isRunning && Date() < exitBy { usleep(20_000) }
        #expect(!first.isRunning && first.terminationStatus == 0)
        #expect(!FileManager.default.fileExists(atPath: path))
    }
}
