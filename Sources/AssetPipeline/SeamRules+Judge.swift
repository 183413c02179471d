import AudioCore
import AudioDSP

/// The one place the pipeline, the loader and the CLI ask for a loop seam's verdict (issue #42 item 2).
///
/// Callers outside AudioDSP never ask ``SeamMetrics`` for a verdict themselves: they ask ``SeamRules``, the judgment
/// side, so that moving the limits, the statuses and the notes out of the measuring code (what is still left of
/// item 2, docs/ARCHITECTURE.md) changes this file and not every command. `SeamVerdictDoorTests` fails on a source
/// file that asks AudioDSP directly.
///
/// - Thread safety: pure functions; call from any thread.
/// - Real-time safe: no (decodes nothing, but allocates and runs FFTs).
extension SeamRules {
    /// The judged seam of `loop` (frames of `buffer`, end exclusive): every metric measured, worst first, with the
    /// verdict and its reasons. The same report as ``SeamMetrics/analyze(_:loop:)``.
    ///
    /// - Parameters:
    ///   - buffer: the decoded file.
    ///   - loop: the loop region; must lie within the buffer and hold at least 2 frames.
    public static func judge(_ buffer: AudioBuffer, loop: Range<Int>) -> SeamMetrics.Report {
        SeamMetrics.analyze(buffer, loop: loop)
    }

    /// ``judge(_:loop:)`` and the file's texture signature (``LikenessSignature/texture(_:)``, nil for a silent file)
    /// from one set of short-time spectra (``SeamMetrics/analyzeWithTexture(_:loop:)``): `loops verify`'s row.
    public static func judgeWithLikeness(
        _ buffer: AudioBuffer, loop: Range<Int>
    ) -> (report: SeamMetrics.Report, likeness: LikenessSignature?) {
        let (report, texture) = SeamMetrics.analyzeWithTexture(buffer, loop: loop)
        return (report, texture)
    }

    /// Whether the seam of `loop` passes, measuring no more than it takes to tell (the cheap metrics first; see
    /// ``SeamMetrics/passes(_:loop:)``): when a cheap metric already warns or fails the verdict is only "not pass",
    /// so read ``SeamMetrics/Report/seamPasses`` or the failing metrics, not `verdict`.
    public static func passes(_ buffer: AudioBuffer, loop: Range<Int>) -> SeamMetrics.Report {
        SeamMetrics.passes(buffer, loop: loop)
    }
}
