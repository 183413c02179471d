import AudioCore
import AudioDSP
import AudioFile
import Dispatch
import Foundation
import Synchronization

/// `enso assets check`: validates an asset pack end to end.
///
/// For the manifest: the schema (``AssetPack/load(directory:)``). For every asset, the rules of ``PackRules``
/// (docs/assets.md's table is theirs): the file is present and decodes; its integrated loudness is within
/// ``AssetPack/loudnessTolerance`` of its target and agrees with the value the manifest records; a soundscape's loop
/// fits the file and its seam passes the loop verifier's rules (``SeamRules``, the same code as `enso loops
/// verify`); a bell rings, is undamaged and is one the audition keeps.
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
        let auditionSaysIt = findings.contains { $0.check == PackRules.bellAudition.check && $0.status != .pass }
        let repeated = [PackRules.bellDefects.check, PackRules.bellTail.check]
        return findings.filter {
            !$0.check.hasPrefix("seam:") && !(auditionSaysIt && repeated.contains($0.check))
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

    /// How the assets' checks are spread over threads: `runner(count, work)` calls `work` once for each index in
    /// `0..<count`, from any thread, and returns when every call has returned. The report's order is the
    /// manifest's whatever the order of the calls.
    public typealias Runner = @Sendable (_ count: Int, _ work: @escaping @Sendable (Int) -> Void) -> Void

    /// Every asset at once, on Dispatch's threads (one per core).
    public static let concurrentRunner: Runner = { count, work in
        DispatchQueue.concurrentPerform(iterations: count, execute: work)
    }

    /// Checks the pack in `directory`.
    ///
    /// - Parameters:
    ///   - strict: count a loop verifier warning as a failure.
    ///   - runner: the threads the assets are checked on (``concurrentRunner``; `enso assets check --jobs N`
    ///     passes its batch runner).
    ///   - progress: called once per checked asset with its id, from any thread.
    /// - Returns: the report; never throws (an unreadable manifest is a report with verdict `error`).
    public static func run(
        directory: String, strict: Bool = false, runner: Runner = concurrentRunner,
        progress: (@Sendable (String) -> Void)? = nil
    ) -> Report {
        run(directory: directory, strict: strict, runner: runner, progress: progress) { _ in () }.report
    }

    /// ``run(directory:strict:progress:)``, handing each asset's whole analysis (``AssetAnalysis``) to `keeping`
    /// as it finishes and keeping only what that returns (a report's figures and excerpt: nothing is decoded or
    /// measured again for them), in the order of the report's assets.
    public static func run<Kept: Sendable>(
        directory: String, strict: Bool = false, runner: Runner = concurrentRunner,
        progress: (@Sendable (String) -> Void)? = nil, keeping: @escaping @Sendable (AssetAnalysis) -> Kept
    ) -> (report: Report, kept: [Kept]) {
        let pack: AssetPack
        do {
            pack = try AssetPack.load(directory: directory)
        } catch {
            let report = Report(
                directory: directory, verdict: .error, manifestError: error.message, assets: [], unlisted: [])
            return (report, [])
        }
        let results = Results<Kept>(count: pack.entries.count)
        runner(pack.entries.count) { i in
            let analysis = analyse(pack.entries[i], in: pack, strict: strict)
            let kept = keeping(analysis)
            results.rows.withLock { $0[i] = (analysis.result, kept) }
            progress?(pack.entries[i].id)
        }
        let all = results.rows.withLock { $0.map { $0! } }
        let assets = all.map(\.0)
        let report = Report(
            directory: pack.directory, verdict: assets.map(\.verdict).max() ?? .pass, manifestError: nil,
            assets: assets, unlisted: unlistedFiles(in: pack))
        return (report, all.map(\.1))
    }

    /// Each asset's row and what was kept of it, by index, filled from the runner's threads.
    private final class Results<Kept: Sendable>: Sendable {
        let rows: Mutex<[(AssetResult, Kept)?]>
        init(count: Int) { rows = Mutex(Array(repeating: nil, count: count)) }
    }

    /// One asset as checked: its row and what it was checked from, for a report to draw and play.
    public struct AssetAnalysis: Sendable {
        public var entry: AssetPack.Entry
        public var result: AssetResult
        /// The decoded file; nil when it does not decode. For a long soundscape checked in chunks, the window
        /// around its seam (``SeamWindow``), with its loop in ``soundLoop``.
        public var sound: AudioBuffer?
        /// A bell's one analysis, the audition's, which every bell check reads; nil for a soundscape.
        public var bell: BellAnalysis?
        /// The loop within ``sound`` when that is a window, not the file (nil: the entry's loop, or the whole file).
        public var soundLoop: LoopRegion?

        public init(
            entry: AssetPack.Entry, result: AssetResult, sound: AudioBuffer? = nil, bell: BellAnalysis? = nil,
            soundLoop: LoopRegion? = nil
        ) {
            (self.entry, self.result, self.sound, self.bell, self.soundLoop) = (entry, result, sound, bell, soundLoop)
        }
    }

    /// Checks one asset of `pack` (``analyse(_:in:strict:)``).
    public static func check(_ entry: AssetPack.Entry, in pack: AssetPack, strict: Bool = false) -> AssetResult {
        analyse(entry, in: pack, strict: strict).result
    }

    /// The default strike spacing of a session (`--spacing`, default 3 s): a bundled bell must still ring, less than
    /// 20 dB down, when the next strike of its group comes (`bell-decay`).
    public static let strikeSpacing = 3.0

    /// The audition profile a bell of the pack is judged with (named next to its score in every report).
    public static let auditionProfile: BellProfile = .bowl

    /// Decodes and checks one asset of `pack`, keeping what it was checked from. A file that does not decode is
    /// measured no further.
    public static func analyse(_ entry: AssetPack.Entry, in pack: AssetPack, strict: Bool = false) -> AssetAnalysis {
        let path = pack.path(of: entry)
        if let info = try? AudioFileDecoder.info(path: path), streams(entry.kind, info) {
            return analyseStreaming(entry, path: path, info: info, strict: strict)
        }
        let decoded: DecodedAudio
        do {
            decoded = try AudioFileDecoder.decode(path: path)
        } catch {
            let measures = PackMeasures(entry: entry, strict: strict, decodeError: error.message)
            return AssetAnalysis(entry: entry, result: result(of: measures))
        }
        return analyse(entry, decoded: decoded, path: path, strict: strict)
    }

    /// Checks one asset already decoded from `path` (``AssetPack/add(_:to:replace:strict:)`` checks the file it
    /// has just stored and decoded): measures it (``measure(_:decoded:path:strict:)``), then asks every rule of
    /// ``PackRules``.
    public static func analyse(
        _ entry: AssetPack.Entry, decoded: DecodedAudio, path: String, strict: Bool = false
    ) -> AssetAnalysis {
        let (measures, bell) = measure(entry, decoded: decoded, path: path, strict: strict)
        return AssetAnalysis(entry: entry, result: result(of: measures), sound: decoded.buffer, bell: bell)
    }

    /// The row of an asset from its measures: every rule of ``PackRules`` asked.
    static func result(of measures: PackMeasures) -> AssetResult {
        AssetResult(entry: measures.entry, findings: PackRules.findings(measures), loudness: measures.loudness)
    }

    /// Everything the pack rules read of one asset: the file decoded, its loudness, and by its kind the seam of its
    /// loop (``SeamRules``, as `enso loops verify`) or the bell's one analysis (``BellAudition``, as `enso bells
    /// audition`: its decay, samples and verdict), returned beside the measures for a report to draw from.
    public static func measure(
        _ entry: AssetPack.Entry, decoded: DecodedAudio, path: String, strict: Bool = false
    ) -> (PackMeasures, BellAnalysis?) {
        let info = decoded.info
        var p = PackMeasures(
            entry: entry, strict: strict,
            format: "\(info.format) \(info.subtype), \(info.sampleRate), \(info.channels), "
                + String(format: "%.2f s", info.duration),
            frameCount: decoded.buffer.frameCount)
        do { p.loudness = try AssetPack.measureLoudness(decoded.buffer) } catch { p.loudnessError = error.message }
        var bell: BellAnalysis?
        switch entry.kind {
        case .soundscape:
            let region = p.loopRegion
            if p.loopFits { p.seam = SeamRules.judge(decoded.buffer, loop: Int(region.start)..<Int(region.end)) }
            p.scan = SignalDefectScan(decoded.buffer)
        case .bell:
            // One analysis, the audition's, for the decay checks and the audition's verdict alike.
            let analysis = BellAudition.analyse(decoded.buffer, file: path, profile: auditionProfile)
            p.decay =
                analysis.decay ?? DecayAnalysis(decoded.buffer, mono: BellAudition.analysisSignal(decoded.buffer))
            p.scan = SignalDefectScan(decoded.buffer)
            p.audition = analysis.result
            bell = analysis
        }
        return (p, bell)
    }

    /// Audio files under the pack folder that no entry names.
    static func unlistedFiles(in pack: AssetPack) -> [String] {
        let listed = Set(pack.entries.map(\.file))
        return AudioFileExtensions.files(under: pack.directory).filter { !listed.contains($0) }
    }
}
