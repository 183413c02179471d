import AudioCore
import AudioDSP
import Foundation

/// The one place the pipeline, the loader and the CLI ask for a loop seam's verdict (issue #42 item 2).
///
/// ``SeamMetrics`` measures (values and the facts behind them, no verdict, no words); this judges each measure by
/// its ``SeamRule`` and adds them up into a ``SeamRules/Report``. `SeamVerdictDoorTests` fails on a source file
/// outside AudioDSP and this one that asks the measuring code itself.
///
/// - Thread safety: pure functions; call from any thread.
/// - Real-time safe: no (decodes nothing, but allocates and runs FFTs).
extension SeamRules {
    /// The judged seam of `loop` (frames of `buffer`, end exclusive): every metric measured, worst first, with the
    /// verdict and its reasons.
    ///
    /// - Parameters:
    ///   - buffer: the decoded file.
    ///   - loop: the loop region; must lie within the buffer and hold at least 2 frames.
    public static func judge(_ buffer: AudioBuffer, loop: Range<Int>) -> Report {
        report(SeamMetrics.measure(buffer, loop: loop))
    }

    /// Whether the seam of `loop` passes, measuring no more than it takes to tell: the pulse and the cheap metrics
    /// first (continuity, click, DC offset, rhythm, dip: a few ms per 30 s), the spectral and level metrics (the
    /// FFTs) only when none of those but the DC offset (a flag, not a seam fault) warns or fails. `loops find` asks
    /// this of the file's own loop before it searches: the answer and the pulse period are those of
    /// ``judge(_:loop:)``.
    ///
    /// - Returns: the report; when a cheap metric already warns or fails, the spectral and level metrics are not
    ///   measured, and the verdict may read `warn` where the whole report would read `fail`: it is only "not pass",
    ///   so read ``Report/seamPasses`` or the failing metrics, not `verdict`.
    public static func passes(_ buffer: AudioBuffer, loop: Range<Int>) -> Report {
        report(
            SeamMetrics.measure(buffer, loop: loop) { cheap in
                !cheap.contains { m in
                    m.name != .dcOffset && [.warn, .fail].contains(rule(m.name).judge(m).status)
                }
            })
    }

    /// The judged continuity metric of `loop` alone (``SeamMetrics/continuity(_:loop:)``): what ``judge(_:loop:)``
    /// reports for it, with nothing else measured.
    public static func continuity(_ buffer: AudioBuffer, loop: Range<Int>) -> Metric {
        rule(.continuity).judge(SeamMetrics.continuity(buffer, loop: loop))
    }

    /// Why the spectral and level metrics of ``passes(_:loop:)`` were not measured.
    static let alreadyFails = "not measured: the seam already does not pass"

    /// The report that `measures` add up to: each judged by its rule (a metric measured at several scales, the
    /// level, by the scale where it stands out most: the highest ``Metric/severity``, the first on a tie), a metric
    /// not measured at all because the measuring stopped early (``passes(_:loop:)``) said so, then worst first with
    /// the verdict and its reasons.
    public static func report(_ measures: SeamMetrics.Measures) -> Report {
        var metrics: [Metric] = []
        for measure in measures.taken {
            let judged = rule(measure.name).judge(measure)
            if let i = metrics.firstIndex(where: { $0.name == measure.name }) {
                if judged.severity > metrics[i].severity { metrics[i] = judged }
            } else {
                metrics.append(judged)
            }
        }
        for name in SeamMetrics.Name.allCases where !metrics.contains(where: { $0.name == name }) {
            metrics.append(rule(name).notMeasured(because: alreadyFails, by: .material))
        }
        return Report(
            metrics: metrics, pulsePeriod: measures.pulsePeriod, repeatsAtPeriod: measures.repeatsAtPeriod,
            pulseOfEvents: measures.pulseOfEvents)
    }

    /// A loop's length in words: seconds to the millisecond, or milliseconds under one (a 6-frame file is
    /// "0.14 ms" long, not "0.000 s").
    static func length(_ seconds: Double) -> String {
        seconds >= 0.001 ? String(format: "%.3f s", seconds) : String(format: "%.2f ms", seconds * 1000)
    }

    /// Why a metric was not measured, in words.
    public static func because(_ cause: SeamMetrics.Unmeasured) -> String {
        switch cause {
        case .silentLoop:
            return "the loop is silent (peak below −90 dBFS); there is nothing to hear at the seam"
        case .tooShort(let frames):
            return "the loop is too short (\(frames) frames) to compare the seam with the rest"
        case .tooShortForSpectrum(let seconds, let needs):
            return String(
                format: "the loop is too short (%@) for spectral statistics (needs %.2f s)", length(seconds), needs)
        case .tooShortForLevel(let seconds):
            return String(
                format:
                    "the loop is too short (%@) for a level step: it repeats ten or more times a second (needs %.1f s)",
                length(seconds), SeamMetrics.shortestLevelLoop)
        case .tooShortForDips(let seconds):
            return String(
                format:
                    "the loop is too short (%@) for dips: it repeats ten or more times a second (needs %.1f s)",
                length(seconds), SeamMetrics.shortestLevelLoop)
        case .tooShortForPulse(let seconds):
            return String(format: "the loop is too short (%@) to hold two pulses of at least 50 ms", length(seconds))
        case .quietAtSeam:
            return "too quiet near the seam (below −70 dBFS) to measure a level step"
        case .silentAtSeam:
            return "the loop is silent around the seam"
        case .noPulse(let why, let pitch):
            let unsteady = pitch.map {
                String(
                    format: "; no steady pitch (self-similarity %.2f at %.1f ms at a quarter of the loop's points)",
                    $0.similarity, $0.period * 1000)
            }
            return because(why) + (unsteady ?? "")
        }
    }

    /// Why the material has no pulse, in words.
    static func because(_ why: SeamMetrics.NoPulse) -> String {
        switch why {
        case .noPeriod(let best):
            // No peak at all: smooth noise, whose self-similarity falls from lag 0.
            guard best > 0 else {
                return
                    "no steady pulse (its self-similarity has no peak above 0 from 50 ms on, as a smooth noise's falls from lag 0)"
            }
            return String(format: "no steady pulse (best self-similarity %.2f)", best)
        case .weakPeriod(let similarity, let period):
            return String(
                format: "no steady pulse (self-similarity %.2f at the best period, %.3f s)", similarity, period)
        case .tooFewEvents(let count):
            return
                "no pulse: \(count) event\(count == 1 ? "" : "s") 10 dB above the floor and the waveform has a pitch (a tone's period or a slow swell is not a pulse)"
        case .unrelatedEvents(let count, let period, let share):
            return String(
                format: "no pulse: the %d events do not recur at the %.3f s period (%.0f %% do)", count, period,
                share * 100)
        case .chancePeriod(let similarity, let period, let chance):
            return String(
                format:
                    "no steady pulse (self-similarity %.2f at the best period, %.3f s, no more than chance gives in this material: %.2f)",
                similarity, period, chance)
        }
    }

    /// ``judge(_:loop:)`` and the file's texture signature (``LikenessSignature/texture(_:)``, nil for a silent file)
    /// from one set of short-time spectra (``SeamMetrics/measureWithTexture(_:loop:)``): `loops verify`'s row.
    public static func judgeWithLikeness(
        _ buffer: AudioBuffer, loop: Range<Int>
    ) -> (report: Report, likeness: LikenessSignature?) {
        let (measures, texture) = SeamMetrics.measureWithTexture(buffer, loop: loop)
        return (report(measures), texture)
    }
}
