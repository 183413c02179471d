import AudioCore
import AudioDSP
import AudioFile
import Dispatch
import Foundation
import Synchronization

/// `enso assets check`: validates an asset pack end to end.
///
/// For the manifest: the schema (``AssetPack/load(directory:)``). For every asset: the file is present and
/// decodes; its integrated loudness is within ``AssetPack/loudnessTolerance`` of its target and agrees with the
/// value the manifest records; a soundscape's loop fits the file and its seam passes the loop verifier's metrics
/// (``SeamMetrics``, the same code as `enso loops verify`); a bell rings (``AssetCheck/bellChecks``).
///
/// - Thread safety: pure functions; ``run(directory:strict:progress:)`` checks assets in parallel itself.
/// - Real-time safe: no.
public enum AssetCheck {
    /// How a check, an asset or the pack came out. Ordered from best to worst.
    public enum Status: String, Sendable, Codable, DeclarationOrdered {
        case pass, warn, fail, error
    }

    /// One check of one asset: what was checked, the verdict and the evidence in words.
    public struct Finding: Sendable, Codable, Equatable {
        /// `file`, `loudness`, `manifest-loudness`, `loop`, `seam:<metric>` or `bell`.
        public var check: String
        public var status: Status
        public var message: String
        /// The measured value, when the check has one.
        public var value: Double?
        /// The limit it was compared with.
        public var threshold: Double?
        /// The unit of ``value`` ("LUFS", "LU", "s", "dB", "points", or a seam metric's unit); the threshold of a
        /// `loudness` finding is a tolerance in LU.
        public var unit: String?
    }

    /// The findings a text of one line per finding shows, each fact once (`--json` and the HTML report keep every
    /// finding): not the `seam:<metric>` ones, whose notes the `loop` finding gives, worst first; and not
    /// `bell-defects` or `bell-tail` when `bell-audition` fails, as it lists each defect with its evidence, the cut
    /// tail among them (by the same rule, ``BellDefect/cutAudible``).
    public static func readAlone(_ findings: [Finding]) -> [Finding] {
        let auditionSaysIt = findings.contains { $0.check == "bell-audition" && $0.status != .pass }
        return findings.filter {
            !$0.check.hasPrefix("seam:") && !(auditionSaysIt && ["bell-defects", "bell-tail"].contains($0.check))
        }
    }

    /// Everything checked about one asset.
    public struct AssetResult: Sendable, Codable, Equatable {
        public var id: String
        public var kind: AssetPack.Kind
        /// The file as the manifest names it (relative to the pack).
        public var file: String
        public var verdict: Status
        /// Every finding, worst first.
        public var findings: [Finding]
        /// The measured integrated loudness in LUFS, when the file decoded.
        public var loudness: Double?

        init(entry: AssetPack.Entry, findings: [Finding], loudness: Double?) {
            id = entry.id
            kind = entry.kind
            file = entry.file
            self.findings = findings.sorted { $0.status > $1.status }
            verdict = findings.map(\.status).max() ?? .pass
            self.loudness = loudness
        }
    }

    /// The whole pack's result.
    public struct Report: Sendable, Codable, Equatable {
        public var directory: String
        public var verdict: Status
        /// Set when the manifest itself could not be read; `assets` is then empty.
        public var manifestError: String?
        public var assets: [AssetResult]
        /// Audio files in the folder that the manifest does not list (reported, not failed).
        public var unlisted: [String]

        /// The exit code `enso assets check` uses: 0 pass (warnings allowed unless `strict`), 1 a check failed,
        /// 2 the manifest or a file could not be read.
        public func exitCode(strict: Bool) -> Int32 {
            switch verdict {
            case .pass: return 0
            case .warn: return strict ? 1 : 0
            case .fail: return 1
            case .error: return 2
            }
        }
    }

    /// Checks the pack in `directory`.
    ///
    /// - Parameters:
    ///   - strict: count a loop verifier warning as a failure.
    ///   - progress: called once per checked asset with its id, from any thread.
    /// - Returns: the report; never throws (an unreadable manifest is a report with verdict `error`).
    public static func run(
        directory: String, strict: Bool = false, progress: (@Sendable (String) -> Void)? = nil
    ) -> Report {
        run(directory: directory, strict: strict, progress: progress) { _ in () }.report
    }

    /// ``run(directory:strict:progress:)``, handing each asset's whole analysis (``AssetAnalysis``) to `keeping`
    /// as it finishes and keeping only what that returns (a report's figures and excerpt: nothing is decoded or
    /// measured again for them), in the order of the report's assets.
    public static func run<Kept: Sendable>(
        directory: String, strict: Bool = false, progress: (@Sendable (String) -> Void)? = nil,
        keeping: @Sendable (AssetAnalysis) -> Kept
    ) -> (report: Report, kept: [Kept]) {
        let pack: AssetPack
        do {
            pack = try AssetPack.load(directory: directory)
        } catch {
            let report = Report(
                directory: directory, verdict: .error, manifestError: error.message, assets: [], unlisted: [])
            return (report, [])
        }
        let results = Mutex([(AssetResult, Kept)?](repeating: nil, count: pack.entries.count))
        DispatchQueue.concurrentPerform(iterations: pack.entries.count) { i in
            let analysis = analyse(pack.entries[i], in: pack, strict: strict)
            let kept = keeping(analysis)
            results.withLock { $0[i] = (analysis.result, kept) }
            progress?(pack.entries[i].id)
        }
        let all = results.withLock { $0.map { $0! } }
        let assets = all.map(\.0)
        let report = Report(
            directory: pack.directory, verdict: assets.map(\.verdict).max() ?? .pass, manifestError: nil,
            assets: assets, unlisted: unlistedFiles(in: pack))
        return (report, all.map(\.1))
    }

    /// One asset as checked: its row and what it was checked from, for a report to draw and play.
    public struct AssetAnalysis: Sendable {
        public var entry: AssetPack.Entry
        public var result: AssetResult
        /// The decoded file; nil when it does not decode.
        public var sound: AudioBuffer?
        /// A bell's one analysis, the audition's, which every bell check reads; nil for a soundscape.
        public var bell: BellAnalysis?
    }

    /// Checks one asset of `pack`.
    public static func check(_ entry: AssetPack.Entry, in pack: AssetPack, strict: Bool = false) -> AssetResult {
        analyse(entry, in: pack, strict: strict).result
    }

    /// Decodes and checks one asset of `pack`, keeping what it was checked from.
    public static func analyse(_ entry: AssetPack.Entry, in pack: AssetPack, strict: Bool = false) -> AssetAnalysis {
        let path = pack.path(of: entry)
        let decoded: DecodedAudio
        do {
            decoded = try AudioFileDecoder.decode(path: path)
        } catch {
            let finding = Finding(check: "file", status: .error, message: error.message)
            return AssetAnalysis(entry: entry, result: AssetResult(entry: entry, findings: [finding], loudness: nil))
        }
        return analyse(entry, decoded: decoded, path: path, strict: strict)
    }

    /// Checks one asset already decoded from `path` (``AssetPack/add(_:to:replace:strict:)`` checks the file it
    /// has just stored and decoded).
    public static func analyse(
        _ entry: AssetPack.Entry, decoded: DecodedAudio, path: String, strict: Bool = false
    ) -> AssetAnalysis {
        var findings = [
            Finding(
                check: "file", status: .pass,
                message: "\(entry.file): \(decoded.info.format) \(decoded.info.subtype), \(decoded.info.sampleRate), "
                    + "\(decoded.info.channels), \(String(format: "%.2f", decoded.info.duration)) s")
        ]
        let (loudnessFindings, loudness) = loudnessChecks(entry, decoded.buffer)
        findings += loudnessFindings
        var bell: BellAnalysis?
        switch entry.kind {
        case .soundscape: findings += loopChecks(entry, decoded.buffer, strict: strict)
        case .bell:
            // One analysis, the audition's, for the decay checks and the audition's verdict alike.
            let analysis = BellAudition.analyse(decoded.buffer, file: path, profile: auditionProfile)
            findings += bellChecks(entry, decoded, path: path, decay: analysis.decay) + auditionChecks(entry, analysis)
            bell = analysis
        }
        return AssetAnalysis(
            entry: entry, result: AssetResult(entry: entry, findings: findings, loudness: loudness),
            sound: decoded.buffer, bell: bell)
    }

    /// Loudness within tolerance of the target, and agreeing with what the manifest records.
    static func loudnessChecks(_ entry: AssetPack.Entry, _ buffer: AudioBuffer) -> ([Finding], Double?) {
        let measured: Double?
        do {
            measured = try AssetPack.measureLoudness(buffer)
        } catch {
            return ([Finding(check: "loudness", status: .fail, message: "\(entry.file): \(error.message)")], nil)
        }
        guard let lufs = measured else {
            return (
                [Finding(check: "loudness", status: .fail, message: "\(entry.file): too short or silent to measure")],
                nil
            )
        }
        let tol = AssetPack.loudnessTolerance
        let off = lufs - entry.loudness.target
        let target = Finding(
            check: "loudness", status: abs(off) <= tol ? .pass : .fail,
            message: String(
                format: "%@: %.1f LUFS, target %.1f ± %.1f (%@%.1f LU)", entry.file, lufs, entry.loudness.target, tol,
                off >= 0 ? "+" : "", off),
            value: lufs, threshold: tol, unit: "LUFS")
        let recorded = lufs - entry.loudness.integrated
        // The manifest stores the value rounded to 0.01 LU; 0.1 LU allows for that and nothing more.
        let agrees = Finding(
            check: "manifest-loudness", status: abs(recorded) <= 0.1 ? .pass : .fail,
            message: String(
                format: "assets[%@].loudness.integrated: manifest says %.2f LUFS, the file measures %.2f", entry.id,
                entry.loudness.integrated, lufs),
            value: recorded, threshold: 0.1, unit: "LU")
        return ([target, agrees], lufs)
    }

    /// The loop fits the file, and its seam passes every seam metric of `enso loops verify`.
    static func loopChecks(_ entry: AssetPack.Entry, _ buffer: AudioBuffer, strict: Bool) -> [Finding] {
        let region = entry.loop ?? LoopRegion(start: 0, end: FramePosition(buffer.frameCount))
        guard region.start >= 0, region.end <= buffer.frameCount, region.length >= 2 else {
            return [
                Finding(
                    check: "loop", status: .fail,
                    message: "assets[\(entry.id)].loop: \(region.start)..<\(region.end) does not fit in the file's "
                        + "\(buffer.frameCount) frames")
            ]
        }
        let report = SeamMetrics.analyze(buffer, loop: Int(region.start)..<Int(region.end))
        var findings = [
            Finding(
                check: "loop", status: status(of: report.verdict, strict: strict),
                message: "\(entry.file): loop \(region.start)..<\(region.end) "
                    + (report.reasons.isEmpty ? "passes every seam metric" : report.reasons.joined(separator: "; ")))
        ]
        for m in report.metrics where m.status != .notApplicable {
            findings.append(
                Finding(
                    check: "seam:\(m.name.rawValue)", status: status(of: m.status, strict: strict), message: m.note,
                    value: m.value, threshold: m.threshold, unit: m.unit))
        }
        return findings
    }

    private static func status(of seam: SeamMetrics.Status, strict: Bool) -> Status {
        switch seam {
        case .fail: return .fail
        case .warn: return strict ? .fail : .warn
        default: return .pass
        }
    }

    /// Audio files under the pack folder that no entry names.
    static func unlistedFiles(in pack: AssetPack) -> [String] {
        let listed = Set(pack.entries.map(\.file))
        return AudioFileExtensions.files(under: pack.directory).filter { !listed.contains($0) }
    }
}
