import AudioCore
import AudioDSP
import Foundation

/// What the pack rules read of one asset: its manifest entry and what was measured of its file; a measure is nil where
/// the asset's kind, or an earlier failure, leaves it unmeasured.
public struct PackMeasures: Sendable {
    public var entry: AssetPack.Entry
    /// Whether a seam warning fails (`--strict`).
    public var strict: Bool
    /// Why the file could not be decoded; nil when it decoded (then nothing else is measured).
    public var decodeError: String?
    /// The decoded file in words: format, subtype, rate, channels and duration.
    public var format: String
    /// Frames in the file.
    public var frameCount: Int
    /// Integrated loudness (LUFS); nil when the file is too short or silent to measure, or the meter failed.
    public var loudness: Double?
    /// Why the meter failed, when it did.
    public var loudnessError: String?
    /// A soundscape's seam, when its loop fits the file.
    public var seam: SeamRules.Report?
    /// A bell's decay (nil: silent), the scan of its samples (a soundscape's too: its channels), and its audition.
    public var decay: DecayAnalysis?
    public var scan: SignalDefectScan?
    public var audition: BellAuditionResult?

    public init(
        entry: AssetPack.Entry, strict: Bool = false, decodeError: String? = nil, format: String = "",
        frameCount: Int = 0
    ) {
        (self.entry, self.strict, self.decodeError, self.format, self.frameCount) =
            (entry, strict, decodeError, format, frameCount)
    }

    /// The loop region the seam rules judge: the manifest's, or the whole file.
    public var loopRegion: LoopRegion { entry.loop ?? LoopRegion(start: 0, end: FramePosition(frameCount)) }

    /// Whether ``loopRegion`` lies within the file and holds at least 2 frames (``loopFits(_:frames:)``).
    public var loopFits: Bool { Self.loopFits(loopRegion, frames: FrameCount(frameCount)) }

    /// Whether `region` lies within a file of `frames` frames and holds at least 2 frames: the one test of a
    /// soundscape's loop, which `assets check` (the `loop` rule), `assets list` and the engine's loader (`render`,
    /// `play`, `serve`) apply alike.
    public static func loopFits(_ region: LoopRegion, frames: FrameCount) -> Bool {
        region.start >= 0 && region.end <= frames && region.length >= 2
    }

    /// What the `loop` rule says of ``loopRegion`` when it does not fit (``loopFits``): "assets[ID].loop: S..<E does
    /// not fit in the file's N frames".
    public var loopMisfit: String {
        "assets[\(entry.id)].loop: \(loopRegion.start)..<\(loopRegion.end) does not fit in the file's \(frameCount) frames"
    }
}

/// One `assets check` rule as a value: the finding's name, when it passes (docs/assets.md's table), its principle,
/// its thresholds with probes, and the pure function from the measures to its findings (none when it does not apply to
/// the asset's kind).
public struct PackRule: Sendable {
    /// The check the findings carry (`loudness`; the loop rule's findings are `loop` and `seam:<metric>`).
    public var check: String
    /// The first cell of its docs row (`` `loop`, `seam:<metric>` ``).
    public var docsName: String
    /// When it passes, in the words of docs/assets.md's table.
    public var passesWhen: String
    /// Why, in one sentence.
    public var principle: String
    /// Its thresholds, each with a probe on both sides of it (`JudgmentRuleTests`); it fails on the firing side.
    public var thresholds: [RuleThreshold<PackMeasures>]
    /// Its findings on `measures`.
    public var judge: @Sendable (PackMeasures) -> [AssetCheck.Finding]

    /// The docs table's row: `| check | passes when |`.
    var docsRow: String { "| \(docsName) | \(passesWhen) |" }
}

/// The registry of `assets check` rules, in the order their findings are made (docs/assets.md's table is their rows:
/// `JudgmentDocsTests`). The measures come from ``AssetCheck/measure(_:decoded:path:strict:)``.
public enum PackRules {
    public static let all: [PackRule] = [
        file, loudness, manifestLoudness, loop, soundscapeChannels, bellDecay, bellTail, bellSamples, bellAudition,
        bellDefects,
    ]

    /// Every finding of every rule on `measures`, in the order of ``all``.
    public static func findings(_ measures: PackMeasures) -> [AssetCheck.Finding] { all.flatMap { $0.judge(measures) } }

    private typealias Finding = AssetCheck.Finding

    // MARK: - Probes

    /// A clean bell of the pack as measured: the reference bell's decay and audition, clean samples, on target.
    static let referenceBell: PackMeasures = {
        let m = BellAuditionMetrics.reference
        var p = PackMeasures(
            entry: AssetPack.Entry(
                id: "bell", displayName: "Bell", kind: .bell, file: "bell.flac", loop: nil,
                loudness: AssetPack.Loudness(integrated: -20, target: -20), licence: "CC0-1.0", command: "-"),
            format: "FLAC PCM_24, 48000 Hz, 2 ch, 16.00 s", frameCount: 768_000)
        p.loudness = -20
        p.decay = m.decay
        p.scan = cleanScan
        p.audition = BellAuditionResult(
            file: "bell.flac", bellClass: .bellLike, defects: [], score: nil, reasons: ["rings"], metrics: m)
        return p
    }()

    /// The scan of clean samples: no clipping, no non-finite sample, no DC offset.
    static let cleanScan: SignalDefectScan = {
        let json =
            #"{"clippedSamples": 0, "longestClipRun": 0, "clipRuns": 0, "dcOffset": 0, "nonFinite": 0, "channelBalance": 0, "peak": 0.5}"#
        do { return try JSONDecoder().decode(SignalDefectScan.self, from: Data(json.utf8)) } catch {
            preconditionFailure("the clean scan does not decode: \(error)")
        }
    }()

    /// A clean soundscape of the pack: whole-file loop, a seam that passes, on target.
    static let referenceSoundscape: PackMeasures = {
        var p = PackMeasures(
            entry: AssetPack.Entry(
                id: "bed", displayName: "Bed", kind: .soundscape, file: "bed.flac", loop: nil,
                loudness: AssetPack.Loudness(integrated: -30, target: -30), licence: "CC0-1.0", command: "-"),
            format: "FLAC PCM_24, 48000 Hz, 2 ch, 30.00 s", frameCount: 1_440_000)
        p.loudness = -30
        p.seam = SeamRules.Report(metrics: [])
        p.scan = cleanScan
        p.scan?.channelCorrelation = 0.2
        return p
    }()

    private static func soundscape(_ change: (inout PackMeasures) -> Void) -> PackMeasures {
        var p = referenceSoundscape
        change(&p)
        return p
    }

    private static func bell(_ change: (inout PackMeasures) -> Void) -> PackMeasures {
        var p = referenceBell
        change(&p)
        return p
    }

    // MARK: - Every asset

    static let file = PackRule(
        check: "file", docsName: "`file`", passesWhen: "the file exists and decodes",
        principle: "a file that cannot be read cannot be played",
        thresholds: [
            RuleThreshold("decode failed", "flag", limit: 0, firesAbove: true, step: 1) { x in
                bell { if x > 0 { $0.decodeError = "bell.flac: cannot open" } }
            }
        ],
        judge: { p in
            if let e = p.decodeError { return [Finding(check: "file", status: .error, message: e)] }
            return [Finding(check: "file", status: .pass, message: "\(p.entry.file): \(p.format)")]
        })

    static let loudness = PackRule(
        check: "loudness", docsName: "`loudness`",
        passesWhen:
            "integrated loudness within ±\(BellDefectRules.limit(AssetPack.loudnessTolerance)) LU of `loudness.target`",
        principle: "assets of a kind play at one loudness, so a change of bell or theme does not jump in level",
        thresholds: [
            RuleThreshold(
                "loudness − target", "LU", limit: AssetPack.loudnessTolerance, firesAbove: true, step: 0.01,
                exact: false
            ) { x in bell { $0.loudness = $0.entry.loudness.target + x } }
        ],
        judge: { p in
            guard p.decodeError == nil else { return [] }
            if let e = p.loudnessError {
                return [Finding(check: "loudness", status: .fail, message: "\(p.entry.file): \(e)")]
            }
            guard let lufs = p.loudness else {
                return [
                    Finding(
                        check: "loudness", status: .fail, message: "\(p.entry.file): too short or silent to measure")
                ]
            }
            let tol = AssetPack.loudnessTolerance
            let off = lufs - p.entry.loudness.target
            let passes = abs(off) <= tol
            // The offset is never rounded across the tolerance (+1.54 LU reads "+1.54", not "+1.5", beside ± 1.5).
            let shown = RuleFigure.text(abs(off), limit: tol, passes: passes, passesAbove: false, decimals: 1)
            return [
                Finding(
                    check: "loudness", status: passes ? .pass : .fail,
                    message: String(
                        format: "%@: %.1f LUFS, target %.1f ± %.1f (%@%@ LU)", p.entry.file, lufs,
                        p.entry.loudness.target, tol, off >= 0 ? "+" : "-", shown),
                    value: lufs, threshold: tol, unit: "LUFS")
            ]
        })

    /// How far the file may measure from the loudness the manifest records (LU): the manifest stores it rounded to
    /// 0.01 LU; 0.1 LU allows for that and nothing more.
    public static let manifestLoudnessTolerance = 0.1

    static let manifestLoudness = PackRule(
        check: "manifest-loudness", docsName: "`manifest-loudness`",
        passesWhen:
            "the file measures within \(BellDefectRules.limit(manifestLoudnessTolerance)) LU of `loudness.integrated`",
        principle: "the manifest says what the file is: a player trusts its loudness without measuring",
        thresholds: [
            RuleThreshold(
                "loudness − loudness.integrated", "LU", limit: manifestLoudnessTolerance, firesAbove: true,
                step: 0.001, exact: false
            ) { x in bell { $0.loudness = $0.entry.loudness.integrated + x } }
        ],
        judge: { p in
            guard p.decodeError == nil, p.loudnessError == nil, let lufs = p.loudness else { return [] }
            let recorded = lufs - p.entry.loudness.integrated
            return [
                Finding(
                    check: "manifest-loudness", status: abs(recorded) <= manifestLoudnessTolerance ? .pass : .fail,
                    message: String(
                        format: "assets[%@].loudness.integrated: manifest says %.2f LUFS, the file measures %.2f",
                        p.entry.id, p.entry.loudness.integrated, lufs),
                    value: recorded, threshold: manifestLoudnessTolerance, unit: "LU")
            ]
        })

    // MARK: - Soundscapes

    static let loop = PackRule(
        check: "loop", docsName: "`loop`, `seam:<metric>`",
        passesWhen:
            "soundscapes: the loop fits the file and passes `enso loops verify`'s seam metrics (warn passes unless `--strict`)",
        principle: "a soundscape plays its loop over and over: the seam is heard at every wrap",
        thresholds: [
            RuleThreshold("loop.end − frames", "frames", limit: 0, firesAbove: true, step: 1) { x in
                var p = referenceSoundscape
                p.entry.loop = LoopRegion(start: 0, end: FramePosition(p.frameCount) + FramePosition(x))
                return p
            }
        ],
        judge: { p in
            guard p.decodeError == nil, p.entry.kind == .soundscape else { return [] }
            let region = p.loopRegion
            guard p.loopFits, let report = p.seam else {
                return [Finding(check: "loop", status: .fail, message: p.loopMisfit)]
            }
            var findings = [
                Finding(
                    check: "loop", status: status(of: report.verdict, strict: p.strict),
                    message: "\(p.entry.file): loop \(region.start)..<\(region.end) "
                        + (report.reasons.isEmpty ? "passes every seam metric" : report.reasons.joined(separator: "; "))
                )
            ]
            for m in report.metrics where m.status != .notApplicable {
                findings.append(
                    Finding(
                        check: "seam:\(m.name.rawValue)", status: status(of: m.status, strict: p.strict),
                        message: m.note, value: m.value, threshold: m.threshold, unit: m.unit))
            }
            return findings
        })

    static let soundscapeChannels = PackRule(
        check: "soundscape-channels", docsName: "`soundscape-channels`",
        passesWhen:
            "soundscapes: channels neither out of phase (correlation ≥ \(BellDefectRules.limit(BellDefect.outOfPhase))) nor one "
            + "\(BellDefectRules.limit(-BellDefect.quietChannel)) dB or more under the other (the thresholds of the bell "
            + "audition's `channel` defect); a failure names the `enso convert` that mends it",
        principle: "the mono mix (a phone speaker) loses a bed whose channels cancel or whose one channel is dead",
        thresholds: [
            RuleThreshold(
                "channelCorrelation", "correlation", limit: BellDefect.outOfPhase, firesAbove: false, step: 0.01
            ) { x in soundscape { $0.scan?.channelCorrelation = x } },
            RuleThreshold("channelBalance", "dB", limit: BellDefect.quietChannel, firesAbove: false, step: 0.1) { x in
                soundscape {
                    $0.scan?.channelBalance = x
                    $0.scan?.quietestChannel = 1
                }
            },
        ],
        judge: { p in
            guard p.decodeError == nil, p.entry.kind == .soundscape, let scan = p.scan else { return [] }
            let name = "\(p.entry.file)"
            if scan.channelBalance < BellDefect.quietChannel, let quiet = scan.quietestChannel {
                let fix = BellDefectRules.fixUseChannel(quiet == 0 ? 2 : 1)
                let how =
                    scan.channelBalance <= SignalDefectScan.silentChannelBalance
                    ? "is digitally silent" : String(format: "is %.0f dB under the other", -scan.channelBalance)
                return [
                    Finding(
                        check: "soundscape-channels", status: .fail,
                        message: "\(name): the \(quiet == 0 ? "left" : "right") channel \(how); mend it: \(fix)",
                        value: scan.channelBalance, threshold: BellDefect.quietChannel, unit: "dB")
                ]
            }
            if let c = scan.channelCorrelation, c < BellDefect.outOfPhase {
                return [
                    Finding(
                        check: "soundscape-channels", status: .fail,
                        message: String(
                            format:
                                "%@: the channels are out of phase (correlation %.2f): the mono mix cancels; mend it: %@",
                            name, c, BellDefectRules.fixInvert),
                        value: c, threshold: BellDefect.outOfPhase, unit: "correlation")
                ]
            }
            return [
                Finding(
                    check: "soundscape-channels", status: .pass,
                    message: "\(name): channels in phase and both sounding", value: scan.channelCorrelation,
                    threshold: BellDefect.outOfPhase, unit: "correlation")
            ]
        })

    private static func status(of seam: SeamRules.Status, strict: Bool) -> AssetCheck.Status {
        switch seam {
        case .fail: return .fail
        case .warn: return strict ? .fail : .warn
        default: return .pass
        }
    }

    // MARK: - Bells

    private static let strikeSpacing = AssetCheck.strikeSpacing
    static let bellDecay = PackRule(
        check: "bell-decay", docsName: "`bell-decay`",
        passesWhen:
            "bells: falls 20 dB no sooner than \(BellDefectRules.limit(strikeSpacing)) s (the default strike spacing) after its peak "
            + "(the decay of the bell's one analysis, the audition's, which `bell-tail`, `bell-audition` and "
            + "`bell-defects` read too)",
        principle: "a group of strikes overlaps into one ringing sound rather than a series of blips",
        thresholds: [
            RuleThreshold("d20", "s", limit: strikeSpacing, firesAbove: false, step: 0.01) { x in
                bell { $0.decay?.d20 = x }
            }
        ],
        judge: { p in
            guard p.decodeError == nil, p.entry.kind == .bell else { return [] }
            guard let decay = p.decay else {
                return [
                    Finding(check: "bell-decay", status: .fail, message: "\(p.entry.file): silent; a bell must ring")
                ]
            }
            guard let d20 = decay.d20 else {
                return [
                    Finding(
                        check: "bell-decay", status: .fail,
                        message: "\(p.entry.file): never falls 20 dB below its peak (not a struck sound, or cut short)")
                ]
            }
            let passes = d20 >= strikeSpacing
            // Never rounded across the limit: 2.996 s reads "2.996 s", not "3.00 s", beside "at least 3 s".
            let shown = RuleFigure.text(d20, limit: strikeSpacing, passes: passes, passesAbove: true)
            return [
                Finding(
                    check: "bell-decay", status: passes ? .pass : .fail,
                    message: String(
                        format: "%@: falls 20 dB in %@ s (must ring at least %@ s, the strike spacing)",
                        p.entry.file, shown, BellDefectRules.limit(strikeSpacing)),
                    value: d20, threshold: strikeSpacing, unit: "s")
            ]
        })

    static let bellTail = PackRule(
        check: "bell-tail", docsName: "`bell-tail`",
        passesWhen:
            "bells: the file does not stop the bell while it still rings at an audible level (`DecayAnalysis.ringingAtEnd` with `cutLevel` ≥ \(BellDefectRules.limit(BellDefect.cutAudible)) dB re peak, as the audition's `truncated-tail`)",
        principle: "stopped at −40 dB the sound stops at 35–40 dB SPL, clearly over the room: the cut is heard",
        thresholds: [
            RuleThreshold(
                "cutLevel", "dB re peak", limit: BellDefect.cutAudible, firesAbove: true, inclusive: true, step: 0.1
            ) {
                x in
                bell {
                    $0.decay?.ringingAtEnd = true
                    $0.decay?.cutLevel = x
                    $0.decay?.endLevel = x
                }
            }
        ],
        judge: { p in
            guard p.decodeError == nil, p.entry.kind == .bell, let decay = p.decay else { return [] }
            let cut = decay.ringingAtEnd && decay.cutLevel >= BellDefect.cutAudible
            return [
                Finding(
                    check: "bell-tail", status: cut ? .fail : .pass,
                    message: cut
                        ? String(
                            format: "%@: the file ends while the bell still rings (%.0f dB below its peak%@)",
                            p.entry.file, -decay.cutLevel, decay.endsWithFade ? ", faded out" : "")
                        : String(
                            format: "%@: rings out to %.0f dB below its peak before the file ends", p.entry.file,
                            -decay.endLevel),
                    value: decay.endLevel, unit: "dB")
            ]
        })

    static let bellSamples = PackRule(
        check: "bell-samples", docsName: "`bell-samples`",
        passesWhen:
            "bells: no clipping run (at full scale or on a rail below it), no non-finite sample, DC at most \(BellDefectRules.limit(SignalDefectScan.audibleDCOffset * 100)) % of full scale (the one DC threshold of every command: `bells audition`'s `dc-offset`, `loops verify`'s)",
        principle: "the samples themselves are spoilt: no gain or trim undoes a clipped top or a NaN",
        thresholds: [
            RuleThreshold("clipRuns", "runs", limit: 0, firesAbove: true, step: 1) { x in
                bell { $0.scan?.clipRuns = Int(x) }
            },
            RuleThreshold("nonFinite", "samples", limit: 0, firesAbove: true, step: 1) { x in
                bell { $0.scan?.nonFinite = Int(x) }
            },
            RuleThreshold(
                "dcOffset", "fraction of full scale", limit: SignalDefectScan.audibleDCOffset, firesAbove: true,
                step: 1e-4
            ) { x in bell { $0.scan?.dcOffset = x } },
        ],
        judge: { p in
            guard p.decodeError == nil, p.entry.kind == .bell, p.decay != nil, let scan = p.scan else { return [] }
            var damage: [String] = []
            if scan.clipRuns > 0 {
                let rail = scan.clipRails.map { " (\(BellDefectRules.clippedAt($0.levels)))" } ?? ""
                damage.append("\(scan.clipRuns) clipping runs (longest \(scan.longestClipRun) samples)\(rail)")
            }
            if scan.nonFinite > 0 { damage.append("\(scan.nonFinite) non-finite samples") }
            if abs(scan.dcOffset) > SignalDefectScan.audibleDCOffset {
                damage.append(String(format: "DC offset %.2f %%", scan.dcOffset * 100))
            }
            return [
                Finding(
                    check: "bell-samples", status: damage.isEmpty ? .pass : .fail,
                    message: damage.isEmpty
                        ? "\(p.entry.file): no clipping, no non-finite samples, no DC offset"
                        : "\(p.entry.file): " + damage.joined(separator: ", "))
            ]
        })

    private static let auditionProfile = AssetCheck.auditionProfile
    static let bellAudition = PackRule(
        check: "bell-audition", docsName: "`bell-audition`",
        passesWhen:
            "bells: `enso bells audition` (`BellAudition`, docs/bells.md) gives it the verdict `keep` (bell-like, no defect)",
        principle: "a bundled bell is one a listener would keep as it is",
        thresholds: [
            // Fixable defects found by the audition: one makes the verdict `fix`.
            RuleThreshold("audition defects", "defects", limit: 0, firesAbove: true, step: 1) { x in
                bell { p in
                    let m = BellAuditionMetrics.reference
                    let defects = (0..<max(0, Int(x))).map { _ in BellDefect(.leadingSilence, "0.30 s of silence") }
                    p.audition = BellAuditionResult(
                        file: "bell.flac", bellClass: .bellLike, defects: defects, score: nil, reasons: [], metrics: m)
                }
            }
        ],
        judge: { p in
            guard p.decodeError == nil, p.entry.kind == .bell, let result = p.audition else { return [] }
            return [
                Finding(
                    check: "bell-audition", status: result.verdict == .keep ? .pass : .fail,
                    message:
                        "\(p.entry.file): \(result.verdict.rawValue), \(result.bellClass?.rawValue ?? "no class"), "
                        + (result.score.map { "score \(Int($0.rounded()))" } ?? "no score")
                        + " (profile \(auditionProfile.name))"
                        + (result.reasons.isEmpty ? "" : " (" + result.reasons.joined(separator: "; ") + ")"),
                    value: result.score, unit: "points")
            ]
        })

    static let bellDefects = PackRule(
        check: "bell-defects", docsName: "`bell-defects`",
        passesWhen: "bells: the audition finds no defect at all, fixable ones included",
        principle:
            "a bundled bell needs no fixing: what `bells normalize` or `trim` would mend is mended before it ships",
        thresholds: [
            RuleThreshold("audition defects", "defects", limit: 0, firesAbove: true, step: 1) { x in
                bell { p in
                    let defects = (0..<max(0, Int(x))).map { _ in
                        BellDefect(.dcOffset, "DC offset of 1.2 % of full scale")
                    }
                    p.audition = BellAuditionResult(
                        file: "bell.flac", bellClass: .bellLike, defects: defects, score: nil, reasons: [],
                        metrics: .reference)
                }
            }
        ],
        judge: { p in
            guard p.decodeError == nil, p.entry.kind == .bell, let result = p.audition else { return [] }
            return [
                Finding(
                    check: "bell-defects", status: result.defectDetails.isEmpty ? .pass : .fail,
                    message: result.defectDetails.isEmpty
                        ? "\(p.entry.file): no defect found by the audition"
                        : "\(p.entry.file): "
                            + result.defectDetails.map {
                                "\($0.kind.rawValue) (\($0.severity.rawValue)): \($0.evidence)"
                            }
                            .joined(separator: "; "))
            ]
        })
}
