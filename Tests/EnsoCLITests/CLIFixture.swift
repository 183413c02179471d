import AudioCore
import AudioFile
import AudioTestSupport
import Foundation
import Testing

/// What `enso` command tests share: a fresh folder for each test, files written into it, and `enso` run in the
/// expectation that it succeeds.
///
/// A suite keeps one as a stored property: Swift Testing makes a suite instance for each test (and each argument of
/// a parameterized one), so every test has its own folder, removed when its instance goes, after the test.
///
///     @Suite struct RenderCommandTests {
///         let fixture = CLIFixture("render")
///         @Test func flac() throws {
///             let r = try CLIFixture.succeeds(["render", "-o", fixture.dir + "/s.flac", ...])
///         }
///     }
final class CLIFixture: Sendable {
    /// The test's folder.
    let dir: String

    /// A fresh folder named after `label` under the temporary directory.
    init(_ label: String) { dir = ToolRunner.temporaryDirectory(label) }

    deinit { try? FileManager.default.removeItem(atPath: dir) }

    /// Runs `enso` with `arguments` and expects it to exit 0; a failure shows what it wrote to stderr.
    ///
    /// - Returns: What it left, for the test's own checks.
    /// - Throws: ``ToolRunner/Timeout`` when it did not exit within ``ToolRunner/defaultTimeout``.
    @discardableResult
    static func succeeds(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) throws
        -> ToolRunner.Result
    {
        let r = try ToolRunner.run("enso", arguments)
        #expect(r.exitCode == 0, "\(r.stderr)", sourceLocation: sourceLocation)
        return r
    }

    /// Writes `mono` on both channels of a stereo file at `rate` in `format`, with `loop` in its metadata.
    ///
    /// - Returns: `path`.
    static func writeStereo(
        _ mono: [Float], rate: Int, format: EncodeFormat, loop: LoopRegion, to path: String
    ) throws -> String {
        try AudioFileEncoder.write(
            SignalGenerator.buffer(mono, channels: 2, sampleRate: rate), to: path,
            options: EncodeOptions(format: format, loops: [loop]))
        return path
    }
}
