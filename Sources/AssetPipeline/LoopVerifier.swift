import AudioCore
import AudioDSP
import AudioFile
import Dispatch
import Foundation
import Synchronization

/// `enso loops verify`: decodes loop files, finds each one's loop region and judges its seam with ``SeamRules`` (on ``SeamMetrics``' measures).
///
/// The loop region is, in order of preference: the file's embedded loop (WAV `smpl`, AIFF instrument loop), the
/// loop in its sidecar `FILE.loop.json` (``LoopSidecar``), or the whole file.
///
/// - Thread safety: pure functions; ``verify(paths:keepExcerpts:progress:)`` runs files in parallel itself.
/// - Real-time safe: no.
public enum LoopVerifier {
    /// Where a loop region came from.
    public enum LoopSource: String, Sendable, Codable {
        case embedded
        case sidecar
        case wholeFile = "whole-file"
        /// Given with `--loop` (judged without being written).
        case option
    }

    /// The loop region of a decoded file at `path`: embedded loop, then sidecar, then the whole file.
    ///
    /// - Throws: `EnsoError` `.invalidInput` when the embedded loop or the sidecar does not fit the audio or holds
    ///   fewer than 2 frames, the header's only loops end before they start (judging the whole file instead would pass
    ///   a file whose loop points are broken), the file has neither and is too short to loop as a whole (under 2
    ///   frames), or the file holds a NaN or infinite sample (a float file from a broken export: it cannot be
    ///   measured, and a player would turn it into silence or a burst).
    public static func loopRegion(
        of decoded: DecodedAudio, path: String
    ) throws(EnsoError) -> (region: LoopRegion, source: LoopSource) {
        if let found = try fileLoop(of: decoded, path: path) { return found }
        return (try wholeFileLoop(frames: FrameCount(decoded.buffer.frameCount), path: path), .wholeFile)
    }

    /// The loop a decoded file carries itself: its embedded loop, else its sidecar's; nil when it has neither (it
    /// loops as a whole, or, for `enso convert`, it is a one-shot that has no loop to keep).
    ///
    /// - Throws: as ``loopRegion(of:path:)``, except that a file too short to loop as a whole is no error here.
    public static func fileLoop(
        of decoded: DecodedAudio, path: String
    ) throws(EnsoError) -> (region: LoopRegion, source: LoopSource)? {
        let buffer = decoded.buffer
        if let bad = buffer.firstNonFinite() {
            throw EnsoError(
                .invalidInput,
                "\(path): \(bad.value.isNaN ? "a NaN" : "an infinite") sample in channel \(bad.channel + 1) at frame \(bad.frame): the file cannot be measured or played"
            )
        }
        return try fileLoop(info: decoded.info, frames: FrameCount(buffer.frameCount), path: path)
    }

    /// The loop region of the file at `path` from its header alone (`frames` long): embedded loop, then sidecar,
    /// then the whole file. What a streamed theme plays, whose samples are never all in memory.
    ///
    /// - Throws: as ``loopRegion(of:path:)``, except for the samples' check.
    public static func loopRegion(
        info: AudioFileInfo, frames: FrameCount, path: String
    ) throws(EnsoError) -> (region: LoopRegion, source: LoopSource) {
        if let found = try fileLoop(info: info, frames: frames, path: path) { return found }
        return (try wholeFileLoop(frames: frames, path: path), .wholeFile)
    }

    /// The embedded or sidecar loop of the file at `path` from its header alone (`frames` long); nil when it has
    /// neither.
    ///
    /// - Throws: as ``fileLoop(of:path:)``, except for the samples' check.
    static func fileLoop(
        info: AudioFileInfo, frames: FrameCount, path: String
    ) throws(EnsoError) -> (region: LoopRegion, source: LoopSource)? {
        if info.loops.isEmpty && !info.loopWarnings.isEmpty {
            throw EnsoError(
                .invalidInput,
                "\(path): no usable embedded loop: \(info.loopWarnings.joined(separator: "; "))")
        }
        let found: (region: LoopRegion, source: LoopSource)
        if let loop = info.loops.first {
            guard loop.start >= 0, loop.end <= frames, loop.start < loop.end else {
                throw EnsoError(
                    .invalidInput, "\(path): embedded loop \(loop.start)..<\(loop.end) does not fit in \(frames) frames"
                )
            }
            found = (loop, .embedded)
        } else if let sidecar = try LoopSidecar.read(for: path, sampleRate: info.sampleRate.hertz, frames: frames) {
            found = (sidecar.loop, .sidecar)
        } else {
            return nil
        }
        guard found.region.length >= 2 else {
            throw EnsoError(.invalidInput, "\(path): the loop holds fewer than 2 frames")
        }
        return found
    }

    /// The whole file of `frames` frames as a loop.
    ///
    /// - Throws: `EnsoError` `.invalidInput` when it holds fewer than 2 frames: a loop of one frame repeats a
    ///   constant, and has no seam to judge.
    public static func wholeFileLoop(frames: FrameCount, path: String) throws(EnsoError) -> LoopRegion {
        guard frames >= 2 else {
            throw EnsoError(
                .invalidInput,
                "\(path): the file holds \(frames) frame\(frames == 1 ? "" : "s"), too short to loop as a whole (a loop holds at least 2 frames)"
            )
        }
        return LoopRegion(start: 0, end: frames)
    }

    /// Verifies one file. Never throws: an unreadable file gives a result with verdict `error`.
    ///
    /// - Parameters:
    ///   - keepExcerpt: keep the audio around the seam for an HTML report.
    ///   - loopOption: a loop to judge instead of the file's own (`--loop`); nothing is written.
    public static func verify(path: String, keepExcerpt: Bool = false, loopOption: LoopOption? = nil) -> Result {
        if let info = try? AudioFileDecoder.info(path: path),
            Double(info.frames) > windowAboveSeconds * info.sampleRate.double
        {
            return verifyWindow(path: path, keepExcerpt: keepExcerpt, loopOption: loopOption)
        }
        let decoded: DecodedAudio
        do {
            // A damaged stream (an Ogg without its last page, a cut FLAC) is judged as far as it decodes, and fails.
            decoded = try AudioFileDecoder.decodeTolerant(path: path)
        } catch {
            return Result(file: path, failure: error.message, kind: error.name)
        }
        var region: LoopRegion
        var source: LoopSource
        do {
            (region, source) = try loopRegion(of: decoded, path: path)
            if let loopOption {
                (region, source) = (try optionRegion(loopOption, of: decoded, path: path), .option)
            }
        } catch {
            return Result(file: path, failure: error.message, kind: error.name)
        }
        var result = judged(
            decoded.buffer, loop: region, fileLoop: region, source: source, path: path, keepExcerpt: keepExcerpt)
        if decoded.truncated {
            let seconds = Double(decoded.buffer.frameCount) / Double(decoded.buffer.sampleRate.hertz)
            result.failDamaged(
                "damaged stream: the file ends early, after \(String(format: "%.3f", seconds)) s that decode; "
                    + "a player stops or clicks where the damage is, whatever the seam")
        }
        return result
    }

    /// The row of a file whose loop `loop` (frames of `buffer`, the file's loop `fileLoop`) is judged: the report,
    /// the excerpt when asked, and whether a small move of its end mends it.
    static func judged(
        _ buffer: AudioBuffer, loop region: LoopRegion, fileLoop: LoopRegion, source: LoopSource, path: String,
        keepExcerpt: Bool
    ) -> Result {
        let loop = Int(region.start)..<Int(region.end)
        // The seam and the near-duplicate signature from one set of short-time spectra.
        let (report, likeness) = SeamRules.judgeWithLikeness(buffer, loop: loop)
        let excerpt = keepExcerpt ? SeamExcerpt(buffer: buffer, loop: loop) : nil
        var result = Result(
            file: path, report: report, loop: fileLoop, source: source, sampleRate: buffer.sampleRate.hertz,
            excerpt: excerpt)
        // From the audio already decoded (a long file's seam window): its near-duplicates in the batch are found
        // from this, rounded as `similar` reads it (``LikenessFile``).
        result.likeness = likeness?.rounded()
        // A designer's loop that fails but that a small move of its end mends: say so, and by how much. A whole file
        // that fails only for a stray frame or two at its ends: say which, and that `bake` writes it without them.
        if let mend = LoopFinder.mended(buffer, region: region, source: source, report: report) {
            guard source != .wholeFile else {
                result.reasons.append("`enso loops bake` mends it: " + mend.reasons[0])
                return result
            }
            let moved = Int(mend.end - region.end)
            result.reasons.append(
                String(
                    format:
                        "`enso loops find` mends it: its end moved %+d frames (%+.2f ms) onto a repeat of its start",
                    moved, Double(moved) / Double(buffer.sampleRate.hertz) * 1000))
        }
        return result
    }

    /// Expands files and directories (recursively, ``AudioFile/AudioFileExtensions`` only, sorted) into the files to verify.
    ///
    /// - Returns: the files, and an error result for each input that does not exist.
    public static func expand(_ inputs: [String]) -> (files: [String], errors: [Result]) {
        var files: [String] = []
        var errors: [Result] = []
        let fm = FileManager.default
        for input in inputs {
            var isDir: ObjCBool = false
            guard fm.fileExists(atPath: input, isDirectory: &isDir) else {
                // The reader's own words for a path it cannot find (a name that is not UTF-8 says so).
                do throws(EnsoError) {
                    _ = try AudioFileDecoder.info(path: input)
                    files.append(input)
                } catch {
                    errors.append(Result(file: input, failure: error.message, kind: error.name))
                }
                continue
            }
            guard isDir.boolValue else {
                files.append(input)
                continue
            }
            let base = input.hasSuffix("/") ? String(input.dropLast()) : input
            let found = AudioFileExtensions.files(under: input).map { base + "/" + $0 }
            files += found
        }
        return (files, errors)
    }

    /// Verifies many files in parallel across all cores (`DispatchQueue.concurrentPerform`), in input order.
    ///
    /// - Parameter progress: called once per finished file with its path, from any thread.
    public static func verify(
        paths: [String], keepExcerpts: Bool = false, loopOption: LoopOption? = nil,
        progress: (@Sendable (String) -> Void)? = nil
    ) -> [Result] {
        let results = Mutex([Result?](repeating: nil, count: paths.count))
        DispatchQueue.concurrentPerform(iterations: paths.count) { i in
            let r = verify(path: paths[i], keepExcerpt: keepExcerpts, loopOption: loopOption)
            results.withLock { $0[i] = r }
            progress?(paths[i])
        }
        return grouped(results.withLock { $0.map { $0! } })
    }

    /// `results` (in their order) with `group` and `groupRank` set from their signatures (``LikenessGroups``):
    /// near-duplicates share a group; within it the best is the first by verdict (pass, warn, fail, error), then by
    /// the order given. Groups are numbered in that same order. A row without a signature is a group of its own.
    public static func grouped(_ results: [Result]) -> [Result] {
        var out = results
        for (i, g) in groups(results.map { ($0.verdict, $0.likeness) }).enumerated() {
            (out[i].group, out[i].groupRank) = (g.group, g.groupRank)
        }
        return out
    }

    /// The near-duplicate group and the place in it of each row given by its verdict and signature (in the order
    /// given), as ``grouped(_:)`` sets them: what `enso loops report` regroups the rows of many runs with.
    public static func groups(
        _ rows: [(verdict: Verdict, likeness: LikenessSignature?)]
    ) -> [(group: Int, groupRank: Int)] {
        let order = rows.indices.sorted {
            let (a, b) = (
                Verdict.allCases.firstIndex(of: rows[$0].verdict)!, Verdict.allCases.firstIndex(of: rows[$1].verdict)!
            )
            return a != b ? a < b : $0 < $1
        }
        var out = Array(repeating: (group: 0, groupRank: 0), count: rows.count)
        for (k, g) in LikenessGroups.group(order.map { rows[$0].likeness }).enumerated() {
            out[order[k]] = (g.group, g.groupRank)
        }
        return out
    }
}
