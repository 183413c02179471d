import AudioTestSupport
import Foundation
import Testing

/// The render path under RealtimeSanitizer and the malloc counter, through the `engine-rtcheck` tool
/// (RTSan must be linked into the process it checks, so it runs as its own executable).
@Suite(
    .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/cc"), "needs a C compiler for the preload shim")
)
struct RealtimeSafetyTests {
    /// Builds the malloc-count preload shim from the repository copy into a temporary folder.
    static func buildPreload() throws -> String {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Tools/engine-rtcheck/preload/malloc-count-preload.c")
            .path
        let dir = ToolRunner.temporaryDirectory("rtcheck")
        let library = dir + "/malloc-count.so"
        let cc = try ToolRunner.run("/usr/bin/cc", ["-shared", "-fPIC", "-O2", "-o", library, source])
        #expect(cc.exitCode == 0, "cc failed on \(source): \(cc.stderr)")
        return library
    }

    @Test func tenToTheFiveRenderCallsReportNothing() throws {
        let preload = try Self.buildPreload()
        let r = try ToolRunner.run(
            "engine-rtcheck", ["--calls", "100000"],
            environment: ["LD_PRELOAD": preload, "TMPDIR": ToolRunner.temporaryDirectory("rtcheck")])
        #expect(r.exitCode == 0, "\(r.stdout)\n\(r.stderr)")
        #expect(r.stdout.contains("rtsan: active"), "\(r.stdout)")
        #expect(!r.stdout.contains("skips: 0,"), "the mix includes stall skips: \(r.stdout)")
        #expect(r.stdout.contains("malloc counter: active, 0 calls in render"), "\(r.stdout)")
        #expect(r.stdout.contains("dropped commands: 0, dropped events: 0"), "\(r.stdout)")
        #expect(r.stdout.contains("state after stop: ended"), "\(r.stdout)")
        // The new paths: interval bells rang, and the finite session (every fade 0, until-time, a pause) reached its
        // end ramp and its end inside the regions.
        #expect(!r.stdout.contains("interval strikes: 0;"), "\(r.stdout)")
        #expect(r.stdout.contains("to its end (ended)"), "\(r.stdout)")
        // A streamed theme played, its ring ran dry while the loader stalled, and the underrun path ran in the regions.
        #expect(!r.stdout.contains("streamed theme underruns reported: 0"), "\(r.stdout)")
        #expect(!r.stderr.contains("RealtimeSanitizer"), "\(r.stderr)")
    }

    @Test func anAllocationInsideARegionIsCaught() throws {
        // The negative control: the same tool with one deliberate allocation in a region must fail. RTSan ends the
        // process there, before the tool removes its seam file, so the file goes to a folder the suite removes.
        let r = try ToolRunner.run(
            "engine-rtcheck", ["--calls", "1000", "--violate"],
            environment: ["TMPDIR": ToolRunner.temporaryDirectory("rtcheck")])
        #expect(r.exitCode != 0)
        #expect(r.stderr.contains("RealtimeSanitizer: unsafe-library-call"), "\(r.stderr)")
    }
}
