import AudioCore
import AudioDSP
import AudioFile
import Dispatch
import Foundation
import Synchronization

/// Measures, explains and ranks bell candidates (`enso bells audition`).
///
/// Each file is decoded, measured (``BellAuditionMetrics``), checked for defects (``BellDefect``), classed
/// (``BellClass``), given a verdict (``BellAuditionVerdict``) and scored (``BellScore``). Files are auditioned in
/// parallel, one per core; a file that cannot be decoded gets an `error` row and the batch goes on. Any decodable
/// sound gets a class, however short.
///
/// - Thread safety: stateless; call from any thread.
/// - Real-time safe: no.
public enum BellAudition {
    /// The most channels auditioned (mono or stereo bells).
    public static let maximumChannels = 2
    /// The longest candidate auditioned or played as a bell: 120 s (a struck bell rings for seconds, not hours).
    /// Longer files get an error row from their header alone, before any sample is decoded.
    public static let maximumDuration = 120.0

    /// Refuses, from its header, a file longer than ``maximumDuration``: the message names it and its length. A
    /// damaged stream's header is read as far as it goes (its decode then flags it).
    public static func checkLength(_ path: String) throws(EnsoError) {
        let info = try SoundFileReader(path: path, toleratingTruncation: true).info
        guard info.duration <= maximumDuration else {
            throw EnsoError(
                .tooLarge, path: path,
                "\(path): \(String(format: "%.1f", info.duration)) s long: too long for a bell (at most \(Int(maximumDuration)) s)"
            )
        }
    }

    /// Auditions `paths` in parallel and returns the results in rank order.
    ///
    /// - Parameter progress: called once per finished file, from any thread.
    public static func audition(
        paths: [String], profile: BellProfile, forPack: Bool = false, progress: (@Sendable (String) -> Void)? = nil
    ) -> [BellAuditionResult] {
        audition(paths: paths, profile: profile, forPack: forPack, progress: progress) { _ in () }.map(\.result)
    }

    /// Auditions `paths` in parallel and returns the results in rank order, each with what `keeping` made of its
    /// file's whole analysis (``BellAnalysis``) as the file finished: the figures and excerpt of a report, say. The
    /// analysis itself (the decoded file, its spectra) is dropped as soon as `keeping` returns, so a batch holds one
    /// per core at a time, never all of them.
    ///
    /// - Parameters:
    ///   - forPack: judge each candidate also as `enso assets add` would (``judgeForPack(_:decoded:)``).
    ///   - progress: called once per finished file (after `keeping`), from any thread.
    ///   - keeping: called once per file, error rows included, from any thread.
    public static func audition<Kept: Sendable>(
        paths: [String], profile: BellProfile, forPack: Bool = false, progress: (@Sendable (String) -> Void)? = nil,
        keeping: @Sendable (BellAnalysis) -> Kept
    ) -> [(result: BellAuditionResult, kept: Kept)] {
        let slots = Mutex([(BellAuditionResult, Kept)?](repeating: nil, count: paths.count))
        DispatchQueue.concurrentPerform(iterations: paths.count) { i in
            let analysis = analyseFile(paths[i], profile: profile, forPack: forPack)
            let kept = keeping(analysis)
            slots.withLock { $0[i] = (analysis.result, kept) }
            progress?(paths[i])
        }
        let all = slots.withLock { $0.map { $0! } }
        // Ranking sorts the rows; each takes its own kept value back (a path given twice has two rows).
        var byFile: [String: [Kept]] = [:]
        for (r, k) in all { byFile[r.file, default: []].append(k) }
        return BellAuditionResult.ranked(all.map(\.0)).map { r in (r, byFile[r.file]!.removeFirst()) }
    }

    /// Decodes and auditions one file; a file that cannot be decoded becomes an `error` result. A stream that
    /// ends early is measured as far as it decodes, with a `damaged-stream` defect.
    public static func auditionFile(_ path: String, profile: BellProfile) -> BellAuditionResult {
        analyseFile(path, profile: profile).result
    }

    /// Decodes and analyses one file (``auditionFile(_:profile:)`` with everything it was measured from).
    ///
    /// - Parameter forPack: judge it also as `enso assets add` would (``judgeForPack(_:decoded:)``).
    public static func analyseFile(_ path: String, profile: BellProfile, forPack: Bool = false) -> BellAnalysis {
        let decoded: DecodedAudio
        do {
            try checkLength(path)
            decoded = try AudioFileDecoder.decodeTolerant(path: path)
        } catch {
            return BellAnalysis(error: errorResult(path, error.message, code: error.name))
        }
        // A loudness defect's `fix` names the target a normalize run here would use: the pack's when judged for one.
        var analysis = analyse(
            decoded.buffer, file: path, profile: profile, truncatedStream: decoded.truncated,
            normalizeTarget: forPack ? AssetPack.Kind.bell.loudnessTarget : BellTrim.defaultTarget)
        if forPack { judgeForPack(&analysis.result, decoded: decoded) }
        return analysis
    }

    /// Judges a candidate against a pack's requirements (`bells audition --pack`): one the audition would offer
    /// (`keep`, `fix` or `listen`) is prepared, stored and checked exactly as `enso assets add` would
    /// (``AssetPack/trial(_:decoded:strict:)``: trimmed, DC removed, normalised to the pack's target, then every
    /// rule of `enso assets check`), and becomes `reject` when the pack would refuse it, the pack's reasons first
    /// ("pack bell-decay: …"). What stays `keep` or `fix` is then always added by `enso assets add`: its preparation
    /// mends what a `fix` names.
    public static func judgeForPack(_ result: inout BellAuditionResult, decoded: DecodedAudio) {
        guard [.keep, .fix, .listen].contains(result.verdict) else { return }
        let id = AssetPack.suggestedID(for: result.file)
        let addition = AssetPack.Addition(
            source: result.file, kind: .bell, id: id.isEmpty ? "bell" : id, displayName: "", licence: "")
        let refusals = AssetPack.trial(addition, decoded: decoded)
        guard !refusals.isEmpty else { return }
        result.refuseForPack(refusals)
    }

    /// Auditions a buffer already in memory.
    ///
    /// - Parameters:
    ///   - truncatedStream: the decoder stopped before the stream's end (``DecodedAudio/truncated``).
    ///   - normalizeTarget: the loudness target a loudness defect's `fix` normalises to (LUFS).
    public static func audition(
        _ buffer: AudioBuffer, file: String, profile: BellProfile, truncatedStream: Bool = false,
        normalizeTarget: Double = BellTrim.defaultTarget
    ) -> BellAuditionResult {
        analyse(
            buffer, file: file, profile: profile, truncatedStream: truncatedStream, normalizeTarget: normalizeTarget
        ).result
    }

    /// Analyses a buffer already in memory: its audition and what it was measured from (``BellAnalysis``).
    ///
    /// Each fixable defect's `fix` is a command line that runs as it is on this file
    /// (``BellDefect/fixCommand(for:normalizeTarget:)``); a normalize says the `--target` it can reach
    /// (``BellTrim/commandTarget(_:target:)``: the loudest under the true-peak limit for a bell too peaky for
    /// `normalizeTarget`). A file no command reads (NaN or infinite samples, a damaged stream: `trim`, `normalize`
    /// and `convert` refuse it) gets no `fix`: it is a reject.
    ///
    /// - Parameters:
    ///   - truncatedStream: the decoder stopped before the stream's end (``DecodedAudio/truncated``).
    ///   - normalizeTarget: the loudness target a loudness defect's `fix` normalises to (LUFS).
    public static func analyse(
        _ buffer: AudioBuffer, file: String, profile: BellProfile, truncatedStream: Bool = false,
        normalizeTarget: Double = BellTrim.defaultTarget
    ) -> BellAnalysis {
        if buffer.channels > maximumChannels {
            return BellAnalysis(
                error: errorResult(file, "\(buffer.channels) channels: bells are auditioned in mono or stereo"))
        }
        if buffer.frameCount == 0 {
            return BellAnalysis(error: errorResult(file, "no audio: the file holds no samples"))
        }
        let scan = SignalDefectScan(buffer)
        // Non-finite samples are a defect; the sound around them is measured with them set to 0.
        var input = buffer
        if scan.nonFinite > 0 {
            for i in input.samples.indices where !input.samples[i].isFinite { input.samples[i] = 0 }
        }
        let peak = scan.nonFinite > 0 ? SignalDefectScan(input).peak : scan.peak
        if peak <= OnsetAnalysis.silenceThreshold {
            guard scan.nonFinite > 0 else {
                return BellAnalysis(error: errorResult(file, "silent: no sample above −60 dBFS"))
            }
            return BellAnalysis(error: nonFiniteResult(file, scan: scan, samples: buffer.samples.count))
        }
        let loudness: LoudnessReport
        do { loudness = try LoudnessAnalysis.measure(input) } catch {
            return BellAnalysis(error: errorResult(file, "loudness: \(error.message)"))
        }
        // A DC offset is its own defect, measured above on the file as it is; the measures below see the sound through
        // a DC blocker (``StruckMeasures``).
        guard let struck = StruckMeasures(input, scan: scan) else {
            return BellAnalysis(error: errorResult(file, "silent: no energy"))
        }
        let (spectrogram, decay, onset, partials) = (struck.spectrogram, struck.decay, struck.onset, struck.partials)
        let strong = partials.partials.filter { $0.level >= PartialAnalysis.strongLevel }.map(\.frequency)
        let beating = BeatingAnalysis(spectrogram: spectrogram, frequencies: strong)
        let figure = struck.strikeFigure()
        // The measures' times are on the sound's clock; the row's on the file's.
        let start = struck.startSeconds
        let others = BellAuditionMetrics.Sound(
            duration: buffer.duration, sampleRate: buffer.sampleRate.hertz, channels: buffer.channels,
            loudness: loudness, leadingSilence: start + onset.leadingSilence, attack: onset.attack,
            onsets: onset.onsetCount, onsetTimes: onset.onsetTimes.map { start + $0 }, tonality: partials.tonality,
            strikes: figure.strikes, newNotes: figure.newNotes, enteringNotes: figure.enteringNotes,
            entryTimes: figure.entryTimes.map { start + $0 },
            truncatedStream: truncatedStream, partials: partials.partials, strongPartials: partials.strongCount,
            partialRatios: partials.ratios, inharmonicity: partials.inharmonicity, strikePitch: partials.strikePitch,
            centroid: partials.centroid, earlyCentroid: partials.earlyCentroid, beatRate: beating.rate,
            beatDepth: beating.depth, clippedSamples: scan.clippedSamples, clipRuns: scan.clipRuns,
            longestClipRun: scan.longestClipRun, dcOffset: scan.dcOffset, channelCorrelation: scan.channelCorrelation,
            channelBalance: scan.channelBalance, quietestChannel: scan.quietestChannel,
            clipRails: scan.clipRails?.levels, tonalityArcShare: struck.tonalityArcShare)
        // The plot curves are not encoded, and a directory of candidates would keep them all.
        let onFile = decay.startingAt(start)
        var measured = onFile
        (measured.curve, measured.schroeder) = ([], [])
        let m = BellAuditionMetrics(decay: measured, sound: others)
        var (defects, notes) = BellDefect.detect(
            BellDefectRule.Measures(m, nonFiniteSamples: scan.nonFinite, firstNonFinite: scan.firstNonFinite))
        // Each fix names this file: a row's command runs as it is, with no `IN OUT` to fill in. None for a file the
        // commands refuse to read: they would fail.
        let readable = scan.nonFinite == 0 && !truncatedStream
        let target =
            readable && defects.contains { $0.fixVerb == "normalize" }
            ? BellTrim.commandTarget(buffer, target: normalizeTarget, measured: loudness) : nil
        for i in defects.indices {
            let normalizes = defects[i].fixVerb == "normalize"
            defects[i].fix =
                readable && (!normalizes || target != nil)
                ? defects[i].fixCommand(for: file, normalizeTarget: normalizes ? target : nil) : nil
        }
        let (bellClass, reasons) = BellClass.classify(m)
        let score = BellScore(m, fixableDefects: defects.filter { $0.severity == .fixable }.count, profile: profile)
        var result = BellAuditionResult(
            file: file, bellClass: bellClass, defects: defects, score: score,
            reasons: decidingFirst(classReasons: reasons, defects: defects, bellClass: bellClass), notes: notes,
            metrics: m)
        // The likeness signature is read from the same spectra, decay, partials and onsets (no second measuring).
        result.likeness = LikenessSignature.struck(
            spectrogram: spectrogram, peakTime: decay.peakTime, partials: partials, attack: onset.attack,
            duration: struck.duration
        ).rounded()
        return BellAnalysis(
            result: result, sound: input, spectrogram: spectrogram, decay: onFile, soundStart: struck.start)
    }

    /// The reasons of a row, what decided its verdict first (``BellAuditionVerdict/of(_:defects:)``): a
    /// notification-like sound is rejected by its class, so the class's reasons lead; otherwise a reject defect leads
    /// (a clipped bell is rejected for its clipping, not for ringing as a bell rings); else, for a bell-like sound,
    /// its fixable defects (they make it `fix` rather than `keep`); else the class's reasons. The rest follow: the
    /// class's reasons, then the other defects, each as "severity kind: evidence".
    static func decidingFirst(classReasons: [String], defects: [BellDefect], bellClass: BellClass) -> [String] {
        func text(_ d: BellDefect) -> String { "\(d.severity.rawValue) \(d.kind.rawValue): \(d.evidence)" }
        let rejects = defects.filter { $0.severity == .reject }.map(text)
        let fixables = defects.filter { $0.severity == .fixable }.map(text)
        if bellClass == .notificationLike { return classReasons + rejects + fixables }
        if !rejects.isEmpty { return rejects + classReasons + fixables }
        if bellClass == .bellLike { return fixables + classReasons }
        return classReasons + fixables
    }

    /// The signal the analyses of timbre and figure read: the mono mix, or the loudest channel when the mix has
    /// lost more than 20 dB of the channels' power (inverted channels: the `channel` defect reports that; what the
    /// sound is, is judged from a channel).
    ///
    /// The choice is the one the powers summed sample by sample in order (`scalar`) make. The powers are summed in
    /// eight running sums side by side (`scalar: false`, about eight times faster: the adds no longer wait on one
    /// another), which round differently; a sum of n squares (each exact in `Double`) is within n·2⁻⁵³ of its value
    /// in either order, so where that margin could turn the choice (the mix within it of the threshold, or two
    /// channels within it of each other) the powers are summed again in order. The choice, and so the signal, is
    /// the same either way.
    /// ``analysisSignal(_:mono:scalar:)`` of `sound`, its mono mix made here.
    package static func analysisSignal(_ sound: AudioBuffer) -> [Float] {
        analysisSignal(sound, mono: sound.finiteMonoMix())
    }

    package static func analysisSignal(_ sound: AudioBuffer, mono: [Float], scalar: Bool = false) -> [Float] {
        guard sound.channels > 1 else { return mono }
        func ordered(_ x: UnsafeBufferPointer<Float>) -> Double { x.reduce(0.0) { $0 + Double($1) * Double($1) } }
        func eightWide(_ x: UnsafeBufferPointer<Float>) -> Double {
            var s = SIMD8<Double>()
            let whole = x.count / 8 * 8
            for i in stride(from: 0, to: whole, by: 8) {
                let v = SIMD8<Double>(
                    Double(x[i]), Double(x[i + 1]), Double(x[i + 2]), Double(x[i + 3]), Double(x[i + 4]),
                    Double(x[i + 5]), Double(x[i + 6]), Double(x[i + 7]))
                s += v * v
            }
            for i in whole..<x.count { s[i - whole] += Double(x[i]) * Double(x[i]) }
            let four = s.lowHalf + s.highHalf
            let two = four.lowHalf + four.highHalf
            return two[0] + two[1]
        }
        func choice(_ power: (UnsafeBufferPointer<Float>) -> Double) -> (powers: [Double], mix: Double, mean: Double) {
            let powers = (0..<sound.channels).map { c in sound.withChannel(c) { power($0) } }
            return (powers, mono.withUnsafeBufferPointer { power($0) }, powers.reduce(0, +) / Double(powers.count))
        }
        var (powers, mix, mean) = choice(scalar ? ordered : eightWide)
        if !scalar {
            // Twice the bound of each sum's error, and the mean's own rounding.
            let margin = 4 * Double(max(sound.frameCount, mono.count) + sound.channels + 8) * 0x1p-53
            let turns = abs(mix - mean * 0.01) <= margin * (mix + mean * 0.01)
            // Which channel is loudest matters only when the mix is dropped.
            let tied =
                mix < mean * 0.01
                && powers.indices.contains { i in
                    powers.indices.contains { j in
                        i < j && abs(powers[i] - powers[j]) <= margin * (powers[i] + powers[j])
                    }
                }
            if mean > 0 && (turns || tied) { (powers, mix, mean) = choice(ordered) }
        }
        guard mean > 0, mix < mean * 0.01 else { return mono }
        let loudest = powers.indices.max { powers[$0] < powers[$1] }!
        return sound.withChannel(loudest) { Array($0) }
    }

    /// The corner of the DC blocker the analyses read through (Hz): a decade under the lowest partial they read
    /// (40 Hz), so a partial loses under 0.1 dB.
    static let dcBlockerHertz = 4.0

    /// `buffer` with each channel's offset removed (its samples are finite: checked before) by a one-pole DC blocker,
    /// y[i] = x[i] − x[i−1] + R·y[i−1], whose memory starts at the channel's first sample: a constant offset is removed
    /// exactly from the first sample on, and an offset that changes (a pre-roll of zeros before it, a thump's own
    /// asymmetry) fades within a time constant (40 ms) instead of leaving the mean's difference as a constant over the
    /// silent parts, where it read as sound still going (a false cut tail).
    static func removingDC(_ buffer: AudioBuffer) -> AudioBuffer {
        var out = buffer
        let r = 1 - 2 * Double.pi * dcBlockerHertz / buffer.sampleRate.double
        for c in 0..<buffer.channels {
            out.withMutableChannel(c) { p in
                guard var previous = p.first.map(Double.init) else { return }
                var y = 0.0
                for i in p.indices {
                    let x = Double(p[i])
                    y = x - previous + r * y
                    previous = x
                    p[i] = Float(y)
                }
            }
        }
        return out
    }

    /// The row of a file whose every sample is NaN or infinite, or whose finite samples are silent: an `error` (there
    /// is no sound to measure) that names the `non-finite` defect, as a file with some NaN is a `non-finite` reject
    /// (it was called silent).
    static func nonFiniteResult(_ file: String, scan: SignalDefectScan, samples: Int) -> BellAuditionResult {
        let at = String(format: "%.3f", scan.firstNonFinite ?? 0)
        let evidence =
            scan.nonFinite == samples
            ? "all \(samples) samples are NaN or infinite"
            : "\(scan.nonFinite) NaN or infinite sample\(scan.nonFinite == 1 ? "" : "s"), the first at \(at) s, "
                + "and no other sample above −60 dBFS"
        var result = errorResult(file, "non-finite: \(evidence): no sound to measure")
        result.defects = [.nonFinite]
        result.defectDetails = [BellDefect(.nonFinite, evidence)]
        return result
    }

    /// The row of a file that cannot be auditioned; `code` is the error's name (docs/cli.md). The error's message
    /// names the file, as every error object's does; the reason, shown beside the file in the table, need not.
    static func errorResult(
        _ file: String, _ message: String, code: String = ErrorKind.invalidInput.rawValue
    ) -> BellAuditionResult {
        let named = message.hasPrefix(file + ":") ? message : "\(file): \(message)"
        return BellAuditionResult(
            file: file, bellClass: nil, defects: [], score: nil, reasons: [message], metrics: nil,
            error: RowError(code: code, message: named, file: file))
    }
}

/// What every reading of a struck sound starts from, made once: the sound through the DC blocker, the analysis
/// signal, its short-time spectra, and the decay, onsets and partials measured on them. The audition
/// (``BellAudition/analyse(_:file:profile:truncatedStream:)``) and the likeness signature (``LikenessFile``) read it.
struct StruckMeasures {
    /// The frames of digital silence (every channel exactly 0) before the sound's first sample, which the measures
    /// below start after: each of their grids (the envelope's 5 ms hop, the spectra's half frame, the onsets' frames)
    /// starts on the sound, not on the file, so silence put in front of a sound (a generator's pad, an editor's
    /// offset: any length, not only whole hops) moves nothing on them. Their times are on that clock (the sound's
    /// first sample is 0); ``startSeconds`` puts them back on the file's.
    var start: Int
    /// ``start`` in seconds: add it to a time of the measures below to read it on the file's clock.
    var startSeconds: Double
    /// The seconds the measures read: the file's from ``start`` on.
    var duration: Double
    var spectrogram: Spectrogram
    var decay: DecayAnalysis
    var onset: OnsetAnalysis
    var partials: PartialAnalysis
    /// A clipped file's own spectra, as it is (nil without clipping: they are ``spectrogram``), which its strikes'
    /// new energy is read from.
    var asIsSpectrogram: Spectrogram?
    /// The analysis signal of the file as it is, which the strike figure's spectra are drawn from (``spectrogram`` or
    /// ``asIsSpectrogram``), and which it reads a strike's new energy from again off their grid.
    var asIsMono: [Float]
    /// In a clipped file, the share of the samples the tonality is read from (``PartialAnalysis/span(count:sampleRate:peakTime:)``)
    /// that only the arcs drew (``ClippedTops/filledMarkingArcs(_:rails:)``); nil without clipping.
    var tonalityArcShare: Double?

    /// Measures `file` (finite samples) from its first sample that is not digital silence (``start``). A DC offset is
    /// its own defect, measured on the file as it is; the analyses see the sound through a DC blocker, so an offset
    /// does not read as a noise floor under the tail or as sound in a silent pre-roll. An offset under −80 dBFS (the
    /// sound's mean below 1e-4), below any level they test, is left alone
    /// (digital silence stays exactly zero). Clipping is its own defect too: where `scan` found clipping runs, the
    /// decay, partials and beating read the sound under them, each run's flattened top drawn again as the arc it was
    /// cut from (``ClippedTops``), so a clipped bell's ring is read, not the clipper's plateau. The strike figure
    /// reads both (``strikeFigure()``). Nil when the sound has no energy.
    init?(_ file: AudioBuffer, scan: SignalDefectScan) {
        start = Self.firstNonZeroFrame(file)
        guard start < file.frameCount else { return nil }
        startSeconds = Double(start) / file.sampleRate.double
        let input = start == 0 ? file : file.slice(frames: start..<file.frameCount)
        duration = input.duration
        // The sound's own offset: the mean over its frames (the silence before it dilutes the file's).
        let offset = scan.dcOffset * Double(file.frameCount) / Double(input.frameCount)
        func blocked(_ b: AudioBuffer) -> AudioBuffer { offset >= 1e-4 ? BellAudition.removingDC(b) : b }
        let rate = input.sampleRate.double
        let asIs = blocked(input)
        asIsMono = BellAudition.analysisSignal(asIs)
        var found = OnsetAnalysis(asIs, mono: asIsMono)
        if scan.clipRuns > 0 { asIsSpectrogram = Spectrogram(mono: asIsMono, sampleRate: rate) }
        var arcs: [Bool]?
        var sound = asIs
        if scan.clipRuns > 0 {
            let filled = ClippedTops.filledMarkingArcs(input, rails: scan.rails)
            (sound, arcs) = (blocked(filled.buffer), filled.arcs)
        }
        let mono = scan.clipRuns > 0 ? BellAudition.analysisSignal(sound) : asIsMono
        spectrogram = Spectrogram(mono: mono, sampleRate: rate)
        let tolerance = scan.clipRuns > 0 ? ClippedTops.peakTolerance : 0
        // Through the DC blocker, a cut to digital silence that ends the offset is read on the file as recorded too.
        let recorded = offset >= 1e-4 ? BellAudition.analysisSignal(input) : nil
        guard
            let decay = DecayAnalysis(
                sound, mono: mono, spectrogram: spectrogram, peakTolerance: tolerance, recorded: recorded)
        else { return nil }
        self.decay = decay
        // A final fade over a ringing sound is the file's edit: the flux a frame reaching into it reads is the fade
        // spreading the partials (over a clean synthetic ring, a "new note"), not a strike.
        if let fade = decay.editFadeStart {
            let reach = Double(OnsetAnalysis.frameSize(rate)) / 2 / rate
            found.onsetTimes.removeAll { $0 > 0 && $0 + reach > fade }
        }
        onset = found
        partials = PartialAnalysis(mono: mono, sampleRate: rate, peakTime: decay.peakTime, spectrogram: spectrogram)
        if let arcs {
            let span = PartialAnalysis.span(count: mono.count, sampleRate: rate, peakTime: decay.peakTime)
            tonalityArcShare = span.isEmpty ? nil : Double(arcs[span].count(where: { $0 })) / Double(span.count)
        }
    }

    /// The first frame of `buffer` where any channel is not exactly 0 (`frameCount` when none is).
    static func firstNonZeroFrame(_ buffer: AudioBuffer) -> Int {
        var first = buffer.frameCount
        for c in 0..<buffer.channels {
            buffer.withChannel(c) { p in
                if let i = p.prefix(first).firstIndex(where: { $0 != 0 }) { first = i }
            }
        }
        return first
    }

    /// The strikes and the notes they bring (``StrikeFigure``). In a clipped file each reading takes the side of the
    /// clipping that holds what it asks about:
    /// - the strikes (the onsets) and their new energy read the file as it is: the arcs are an estimate that follows
    ///   one sinusoid, whose corners (where an arc meets the intact samples) and whose spectra change from one top to
    ///   the next, so across a strike under the clipping they read as rises and new notes of their own, while the
    ///   clipper keeps every rise up to the rail and distorts the frames on both sides of a strike alike;
    /// - how loud a strike is (a note comes within 10 dB of the peak) and where the peak is read on the envelope under
    ///   the clipping (``decay``): on the plateau 20 dB of decay read as none, so the clipper's own changes as the
    ///   sound leaves the rail (its distortion coming and going with the peaks that still touch it, seconds into the
    ///   ring) read as strikes as loud as the first;
    /// - the entering tones' partials read the file as it is, and the frames' levels (where the sound's first note
    ///   is, and which frames are loud enough to hold a note) the spectra under the clipping (``spectrogram``), for
    ///   the same reasons.
    ///
    /// A file without clipping reads all of them on the same measures.
    func strikeFigure() -> StrikeFigure {
        StrikeFigure(
            onsets: onset.onsetTimes, envelope: decay.curve, hop: decay.curveHop, peakTime: decay.peakTime,
            spectrogram: asIsSpectrogram ?? spectrogram, signal: asIsMono,
            levels: asIsSpectrogram == nil ? nil : spectrogram)
    }
}
