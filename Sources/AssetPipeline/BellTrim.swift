import AudioCore
import AudioDSP
import AudioFile
import Foundation

/// Prepares a chosen bell for use: pre-roll cut to at most 10 ms, DC removed, and (for `normalize`) the
/// integrated loudness brought to a target by an iterated gain.
///
/// The gain is iterated because the −70 LUFS absolute gate makes the integrated loudness of a decaying sound
/// depend on its level: a one-step "target minus measured" gain misses by up to 2 LU. Each step applies the
/// remaining difference and re-measures (the chosen ``Measure``, BS.1770-4 integrated by default) until within 0.05 LU.
/// Samples are never clipped; if the result's true peak exceeds `maxTruePeak`, normalisation fails instead.
public enum BellTrim {
    /// The most pre-roll kept before the sound (``trim(_:)``).
    public static let preRoll = 0.01
    /// `enso bells normalize`'s default loudness target, LUFS integrated.
    public static let defaultTarget = -20.0
    /// `enso bells normalize`'s default true-peak limit, dBTP.
    public static let defaultMaxTruePeak = -1.0

    /// Which loudness `normalize` brings to its target.
    ///
    /// - `integrated`: BS.1770-4 of the file as it is (the default: what every standard meter reads);
    /// - `padded`: the same with 0.4 s of silence at both ends: a one-shot's value then does not move with its
    ///   lead-in, so bells trimmed differently are levelled alike;
    /// - `maxMomentary`: the loudest 400 ms: levels sounds of different lengths by how loud their strike is heard,
    ///   and works for sounds shorter than 0.4 s, which have no integrated loudness.
    public enum Measure: String, Sendable, Codable, CaseIterable {
        case integrated, padded
        case maxMomentary = "max-momentary"

        /// This measure of `report`, in LUFS; nil when the sound has none.
        public func value(_ report: LoudnessReport) -> Double? {
            switch self {
            case .integrated: return report.integrated
            case .padded: return report.integratedPadded
            case .maxMomentary: return report.maxMomentary
            }
        }
    }

    /// What was done to a buffer.
    public struct Report: Sendable, Codable, Equatable {
        public var removedSeconds: Double
        public var dcRemoved: [Double]
        public var gain: Double
        /// The measure brought to the target, and its value afterwards (LUFS).
        public var measure: Measure?
        public var loudness: Double?
        /// BS.1770-4 integrated loudness of the result (LUFS).
        public var integrated: Double?
        public var truePeak: Double?
        public var iterations: Int
    }

    /// Cuts pre-roll to ``preRoll``, removes each channel's DC (the mean of what is kept) and leaves the kept
    /// pre-roll silent.
    ///
    /// The pre-roll is what lies before the sound (``OnsetAnalysis/firstSoundFrame(_:baseline:)``, as `leadingSilence`
    /// reads it): what stays at the room's level before the sound rises over it (hiss or room tone 50 dB or more
    /// under the loudest 10 ms), and from there the leading run of frames where every channel's departure from its own
    /// starting level (the mean of its first 10 ms) stays under a line 60 dB under the file's largest departure
    /// (−60 dBFS, 0.001, for a file at full scale; the same at any gain): digital silence, or a constant offset. Both
    /// are read on each channel's departure from that starting level, before the DC is removed, so neither an offset
    /// in the pre-roll nor one only in the sound can hide it; the ≤ 10 ms kept are set to 0 after the DC removal (they
    /// were silence, or the room, and stay silence). Silencing or cutting what lies before the sound leaves where it rises
    /// over the room and all after it as they were, so a second trim cuts nothing.
    ///
    /// - Throws: `EnsoError` `.invalidInput` when the buffer is silent (nothing departs from its starting
    ///   level by more than −60 dBFS) or holds non-finite samples.
    public static func trim(_ buffer: AudioBuffer) throws(EnsoError) -> (AudioBuffer, Report) {
        guard buffer.samples.withUnsafeBufferPointer({ PeakScan.firstNonFinite($0) }) == nil else {
            throw EnsoError(.invalidInput, "contains NaN or infinite samples")
        }
        let n = buffer.frameCount
        let baselineFrames = max(1, min(n, Int(buffer.sampleRate.frames(seconds: 0.01))))
        // Each channel's starting level: the mean of its first 10 ms.
        let bases = buffer.samples.withUnsafeBufferPointer { s in
            (0..<buffer.channels).map { ch -> Float in
                guard n > 0 else { return 0 }
                var sum = 0.0
                for i in 0..<baselineFrames { sum += Double(s[ch * n + i]) }
                return Float(sum / Double(baselineFrames))
            }
        }
        // The sound's first frame, read on each channel's departure from its starting level.
        let lead = OnsetAnalysis.firstSoundFrame(buffer, baseline: bases)
        guard lead < n else {
            throw EnsoError(
                .invalidInput, "silent: every sample lies within −60 dBFS (0.001) of the level the file starts at")
        }
        let keep = Int(buffer.sampleRate.frames(seconds: preRoll))
        let cut = max(0, lead - keep)
        var out = cut > 0 ? buffer.slice(frames: cut..<n) : buffer
        let silent = lead - cut
        var dc: [Double] = []
        for ch in 0..<out.channels {
            out.withMutableChannel(ch) { p in
                let mean = p.isEmpty ? 0 : p.reduce(0.0) { $0 + Double($1) } / Double(p.count)
                for i in p.indices { p[i] = i < silent ? 0 : p[i] - Float(mean) }
                dc.append(mean)
            }
        }
        let report = Report(
            removedSeconds: out.sampleRate.seconds(frames: Int64(cut)), dcRemoved: dc, gain: 0, measure: nil,
            loudness: nil, integrated: nil, truePeak: nil, iterations: 0)
        return (out, report)
    }

    /// Trims, then scales `measure` (default: BS.1770-4 integrated) to `target` LUFS, the pre-roll cut at the final
    /// level (so a second normalize to the same target cuts nothing and changes nothing).
    ///
    /// - Parameter loudestUnderPeak: when `target` would put the true peak above `maxTruePeak`, scale to the
    ///   loudest level under it instead of failing (what `enso bells fix` does: a peaky bell gets as loud as it
    ///   can be; the report's `loudness` says where it got).
    /// - Throws: `EnsoError` `.invalidInput` as ``trim(_:)``, when the sound has no such loudness
    ///   (shorter than 0.4 s or below the gate), when it does not converge in 8 steps, or when the
    ///   true peak would exceed `maxTruePeak` dBTP (the message names both numbers).
    public static func normalize(
        _ buffer: AudioBuffer, target: Double, maxTruePeak: Double = -1, measure: Measure = .integrated,
        loudestUnderPeak: Bool = false
    ) throws(EnsoError) -> (AudioBuffer, Report) {
        var (out, report) = try trim(buffer)
        var gain = 0.0
        var measured: LoudnessReport
        var steps = 0
        repeat {
            do { measured = try LoudnessAnalysis.measure(out, momentaryHopSeconds: 0.1) } catch {
                throw EnsoError(.invalidInput, error.message)
            }
            guard let i = measure.value(measured) else {
                throw EnsoError(
                    .invalidInput,
                    measure == .maxMomentary
                        ? "no momentary loudness (silent)"
                        : "no integrated loudness (shorter than 0.4 s or below −70 LUFS)"
                )
            }
            if abs(i - target) <= 0.05 { break }
            gain += target - i
            // The pre-roll is found again in the file as it will be written (read against −60 dBFS, a bell made
            // quieter had less above it, and a second normalize found more to cut; the line is the sound's own now).
            var scaled = buffer
            scaled.scale(by: Float(pow(10, gain / 20)))
            (out, report) = try trim(scaled)
            steps += 1
            if steps > 8 {
                throw EnsoError(.invalidInput, "loudness did not converge to \(target) LUFS in 8 steps")
            }
        } while true
        if let tp = measured.truePeak, tp > maxTruePeak {
            // Loudness follows the gain almost exactly (only blocks near the −70 LUFS gate move): a tenth of a dB
            // under the linear estimate keeps the true peak under the limit.
            let loudest = ((target - (tp - maxTruePeak)) * 10).rounded(.down) / 10 - 0.1
            if loudestUnderPeak {
                return try normalize(buffer, target: loudest, maxTruePeak: maxTruePeak, measure: measure)
            }
            throw EnsoError(
                .invalidInput,
                String(
                    format:
                        "reaching %.1f LUFS puts the true peak at %.1f dBTP, above the %.1f dBTP limit; the loudest it can be is about %.1f LUFS",
                    target, tp, maxTruePeak, loudest))
        }
        report.gain = gain
        report.measure = measure
        report.loudness = measure.value(measured)
        report.integrated = measured.integrated
        report.truePeak = measured.truePeak
        report.iterations = steps
        return (out, report)
    }

    /// The `--target` with which `enso bells normalize` succeeds on the sound that
    /// ``normalize(_:target:maxTruePeak:measure:loudestUnderPeak:)`` with `loudestUnderPeak` left as `report`:
    /// `target`, or, for a bell too peaky for it, the loudest level under the true-peak limit that it stopped at (to
    /// 0.1 LU). The one place that level is read: `enso bells fix` prints it in its `command`, and the audition's
    /// `fix` of a loudness defect gives it, so the command printed is a command that works.
    public static func commandTarget(_ report: Report, target: Double) -> Double {
        let reached = report.loudness.map { ($0 * 10).rounded() / 10 } ?? target
        return reached < target - 0.05 ? reached : target
    }

    /// ``commandTarget(_:target:)`` for `buffer` normalised to `target` (integrated, true peak at most
    /// ``defaultMaxTruePeak``); nil when no target would do (``normalize(_:target:maxTruePeak:measure:loudestUnderPeak:)``
    /// refuses the sound: silent, shorter than 0.4 s, NaN or infinite samples).
    public static func commandTarget(_ buffer: AudioBuffer, target: Double) -> Double? {
        guard let (_, report) = try? normalize(buffer, target: target, loudestUnderPeak: true) else { return nil }
        return commandTarget(report, target: target)
    }

    /// How far under the true-peak limit a sound's true peak must stay, after the gain to `target`, for
    /// ``commandTarget(_:target:measured:)`` to read `target` from the loudness already measured: 0.5 dB. A gain moves
    /// the loudness and the true peak alike; the trim's DC removal and pre-roll cut move the true peak by less.
    static let commandTargetMargin = 0.5

    /// ``commandTarget(_:target:)`` from `measured` (the sound's loudness as the audition read it) where that tells:
    /// `target` when the gain to it leaves the true peak ``commandTargetMargin`` under ``defaultMaxTruePeak``. Only a
    /// sound near the limit, or one with no integrated loudness, is normalised to read the level (an audition of a
    /// thousand sounds normalised every quiet one: a fifth of its time).
    public static func commandTarget(_ buffer: AudioBuffer, target: Double, measured: LoudnessReport) -> Double? {
        if let integrated = measured.integrated, let truePeak = measured.truePeak,
            truePeak + (target - integrated) <= defaultMaxTruePeak - commandTargetMargin
        {
            return target
        }
        return commandTarget(buffer, target: target)
    }
}
