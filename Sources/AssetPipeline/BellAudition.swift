import AudioCore
import AudioDSP
import AudioFile
import Dispatch
import Foundation
import Synchronization

/// Measures, explains and ranks bell candidates (`enso bells audition`).
///
/// Each file is decoded, measured (``BellAuditionMetrics``), checked for defects (``BellDefect``),
/// classified (``BellAuditionVerdict``) and scored (``BellScore``). Files are auditioned in parallel, one
/// per core; a file that cannot be auditioned gets an `error` row and the batch goes on.
///
/// - Thread safety: stateless; call from any thread.
/// - Real-time safe: no.
public enum BellAudition {
    /// The shortest candidate auditioned (shorter ones get an error row).
    public static let minimumDuration = 0.1
    /// The most channels auditioned (mono or stereo bells).
    public static let maximumChannels = 2
    /// The longest candidate auditioned or played as a bell: 120 s (a struck bell rings for seconds, not hours).
    /// Longer files get an error row from their header alone, before any sample is decoded.
    public static let maximumDuration = 120.0

    /// Refuses, from its header, a file longer than ``maximumDuration``: the message names it and its length.
    public static func checkLength(_ path: String) throws(AudioFileError) {
        let info = try AudioFileDecoder.info(path: path)
        guard info.duration <= maximumDuration else {
            throw AudioFileError(
                .tooLarge, path: path,
                "\(path): \(String(format: "%.1f", info.duration)) s long: too long for a bell (at most \(Int(maximumDuration)) s)")
        }
    }

    /// Auditions `paths` in parallel and returns the results in rank order.
    ///
    /// - Parameters:
    ///   - figures: also draw each candidate's spectrogram and decay curve (for the HTML report).
    ///   - progress: called once per finished file, from any thread.
    public static func audition(
        paths: [String], profile: BellProfile, figures: Bool = false,
        progress: (@Sendable (String) -> Void)? = nil
    ) -> [(result: BellAuditionResult, figures: BellReportFigures?)] {
        let slots = Mutex([(BellAuditionResult, BellReportFigures?)?](repeating: nil, count: paths.count))
        DispatchQueue.concurrentPerform(iterations: paths.count) { i in
            let r = auditionFile(paths[i], profile: profile, figures: figures)
            slots.withLock { $0[i] = r }
            progress?(paths[i])
        }
        let all = slots.withLock { $0.map { $0! } }
        let ranked = BellAuditionResult.ranked(all.map(\.0))
        var byFile: [String: [BellReportFigures?]] = [:]
        for (r, f) in all { byFile[r.file, default: []].append(f) }
        return ranked.map { r in (r, byFile[r.file]?.removeFirst() ?? nil) }
    }

    /// Decodes and auditions one file; decoding and input problems become an `error` result.
    public static func auditionFile(
        _ path: String, profile: BellProfile, figures: Bool = false
    ) -> (BellAuditionResult, BellReportFigures?) {
        let buffer: AudioBuffer
        do {
            try checkLength(path)
            buffer = try AudioFileDecoder.decode(path: path).buffer
        } catch {
            return (errorResult(path, error.message), nil)
        }
        return audition(buffer, file: path, profile: profile, figures: figures)
    }

    /// Auditions a buffer already in memory.
    public static func audition(
        _ buffer: AudioBuffer, file: String, profile: BellProfile, figures: Bool = false
    ) -> (BellAuditionResult, BellReportFigures?) {
        if buffer.channels > maximumChannels {
            return (errorResult(file, "\(buffer.channels) channels: bells are auditioned in mono or stereo"), nil)
        }
        if buffer.duration < minimumDuration {
            let ms = String(format: "%.0f", buffer.duration * 1000)
            return (errorResult(file, "only \(ms) ms long: too short to audition (needs ≥ 100 ms)"), nil)
        }
        let scan = SignalDefectScan(buffer)
        if scan.nonFinite > 0 {
            let at = String(format: "%.3f", scan.firstNonFinite ?? 0)
            let d = BellDefect(.nonFinite, .major, "\(scan.nonFinite) NaN or infinite samples, the first at \(at) s")
            var r = errorResult(file, "\(scan.nonFinite) non-finite samples (first at \(at) s): cannot measure")
            r.defects = [d.kind.rawValue]
            r.defectDetails = [d]
            return (r, nil)
        }
        if scan.peak <= OnsetAnalysis.silenceThreshold {
            return (errorResult(file, "silent: no sample above −60 dBFS"), nil)
        }
        let loudness: LoudnessReport
        do { loudness = try LoudnessAnalysis.measure(buffer) } catch {
            return (errorResult(file, "loudness: \(error.message)"), nil)
        }
        // A DC offset is its own defect, measured above on the file as it is. The analyses below see the sound without
        // it, so a constant offset does not read as a noise floor under the tail or as sound in a silent pre-roll. An
        // offset under −80 dBFS, below any level they test, is left alone (digital silence stays exactly zero).
        let sound = scan.dcOffset >= 1e-4 ? Self.removingDC(buffer) : buffer
        let mono = sound.finiteMonoMix()
        guard let decay = DecayAnalysis(sound, mono: mono) else { return (errorResult(file, "silent: no energy"), nil) }
        let rate = buffer.sampleRate.double
        let onset = OnsetAnalysis(sound, mono: mono)
        let spectrogram = Spectrogram(mono: mono, sampleRate: rate)
        let partials = PartialAnalysis(mono: mono, sampleRate: rate, peakTime: decay.peakTime, spectrogram: spectrogram)
        let strong = partials.partials.filter { $0.level >= -25 }.map(\.frequency)
        let beating = BeatingAnalysis(spectrogram: spectrogram, frequencies: strong)
        let m = BellAuditionMetrics(
            duration: buffer.duration, sampleRate: buffer.sampleRate.hertz, channels: buffer.channels,
            loudness: loudness, leadingSilence: onset.leadingSilence, attack: onset.attack, onsets: onset.onsetCount,
            onsetTimes: onset.onsetTimes, peakTime: decay.peakTime, d20: decay.d20, d40: decay.d40, d60: decay.d60,
            edt: decay.edt, t20: decay.t20, t30: decay.t30, noiseFloor: decay.noiseFloor,
            ringingAtEnd: decay.ringingAtEnd, endsWithFade: decay.endsWithFade, endLevel: decay.endLevel,
            endSlope: decay.endSlope, partials: partials.partials, strongPartials: partials.strongCount,
            partialRatios: partials.ratios, inharmonicity: partials.inharmonicity, strikePitch: partials.strikePitch,
            centroid: partials.centroid, earlyCentroid: partials.earlyCentroid, beatRate: beating.rate,
            beatDepth: beating.depth, clippedSamples: scan.clippedSamples, clipRuns: scan.clipRuns,
            longestClipRun: scan.longestClipRun, dcOffset: scan.dcOffset, channelCorrelation: scan.channelCorrelation,
            channelBalance: scan.channelBalance)
        let defects = BellDefect.detect(m)
        let (verdict, reasons) = BellAuditionVerdict.classify(m, defects: defects)
        let score = BellScore(m, minorDefects: defects.filter { $0.severity == .minor }.count, profile: profile)
        var allReasons = reasons
        if verdict != .defective {
            allReasons += defects.map { "minor \($0.kind.rawValue): \($0.evidence)" }
        }
        let result = BellAuditionResult(
            file: file, verdict: verdict, defects: defects, score: score, reasons: allReasons, metrics: m)
        let fig = figures ? BellReportFigures(spectrogram: spectrogram, decay: decay) : nil
        return (result, fig)
    }

    /// `buffer` with each channel's mean subtracted (its samples are finite: checked before).
    static func removingDC(_ buffer: AudioBuffer) -> AudioBuffer {
        var out = buffer
        for c in 0..<buffer.channels {
            out.withMutableChannel(c) { p in
                let mean = Float(p.reduce(0.0) { $0 + Double($1) } / Double(max(p.count, 1)))
                for i in p.indices { p[i] -= mean }
            }
        }
        return out
    }

    static func errorResult(_ file: String, _ message: String) -> BellAuditionResult {
        BellAuditionResult(
            file: file, verdict: .error, defects: [], score: nil, reasons: [message], metrics: nil, error: message)
    }
}
