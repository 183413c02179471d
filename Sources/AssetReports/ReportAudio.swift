import AssetPipeline
import AudioCore
import AudioDSP
import AudioFile
import Foundation
import Synchronization

/// Sounds inside a report: excerpts encoded as Ogg Vorbis `data:` URIs, loudness-matched.
///
/// A louder candidate always sounds better to the ear, so every player of a report plays at one loudness: each
/// excerpt is encoded with the gain that brings it to the report's common level (``matchedLevel(_:)``), and its
/// `<audio>` carries that gain (`data-gain-db`) so the page's "original level" toggle can undo it
/// (``ReportPage/playerScript``). The common level is at most ``ceiling`` and low enough that no excerpt's peak
/// passes −1 dBFS after its gain, so matching never clips.
///
/// Size: Vorbis at ``quality`` (about 96 kb/s for stereo) costs about 12 kB a second of sound, base64 included;
/// each report documents its budget (docs/loops.md, docs/bells.md).
///
/// `enso bells audition --listen` plays its candidates at the same common level (``level(_:)``, ``matchedLevel(_:)``).
///
/// - Thread safety: pure functions (each encode uses its own temporary file).
public enum ReportAudio {
    /// The loudest common level: EBU R128's programme level, comfortable for comparing.
    public static let ceiling = -23.0
    /// The headroom kept under full scale after the matching gain, in dB.
    public static let headroom = 1.0
    /// Vorbis quality (0...1, libsndfile's scale).
    static let quality = 0.25

    /// What a sound measures before matching.
    public struct Level: Sendable, Equatable {
        /// Integrated loudness as played in LUFS (a mono sound as dual mono); `nil` when silent or shorter than 400 ms.
        public var loudness: Double?
        /// Sample peak in dBFS.
        public var peak: Double
    }

    /// An encoded excerpt.
    struct Clip: Sendable {
        /// `data:audio/ogg;base64,…`
        var dataURI: String
        /// The level of the excerpt as it is in the file.
        var level: Level
        /// The gain applied to reach the common level, in dB.
        var gain: Double
        /// Bytes of the encoded file (before base64).
        var bytes: Int
    }

    /// The level of `buffer`: its integrated loudness as played (``LoudnessAnalysis/integratedAsPlayed(_:)``: a mono
    /// file on both speakers, so a mono file and its dual-mono copy play at one level) and its sample peak.
    public static func level(_ buffer: AudioBuffer) -> Level {
        let peak = Double(buffer.peak)
        let lufs = try? LoudnessAnalysis.integratedAsPlayed(buffer)
        return Level(loudness: lufs ?? nil, peak: peak > 0 ? 20 * log10(peak) : -.infinity)
    }

    /// The common level for excerpts of these levels: ``ceiling``, or lower so that the excerpt with the least
    /// room (the highest peak over its loudness) still peaks ``headroom`` dB under full scale. Silent excerpts do
    /// not count. Rounded down to 0.5 LU.
    public static func matchedLevel(_ levels: [Level]) -> Double {
        var target = ceiling
        for l in levels {
            guard let lufs = l.loudness, l.peak.isFinite else { continue }
            target = min(target, lufs - l.peak - headroom)
        }
        return (target * 2).rounded(.down) / 2
    }

    /// Encodes `buffer` at the common level `target` (a silent excerpt keeps its level).
    ///
    /// - Throws: `EnsoError` `.failure` when the temporary file cannot be written or read back.
    static func clip(_ buffer: AudioBuffer, level: Level, target: Double) throws(EnsoError) -> Clip {
        let gain = level.loudness.map { target - $0 } ?? 0
        var scaled = buffer
        let g = Float(pow(10, gain / 20))
        if g != 1 { scaled.scale(by: g) }
        let bytes = try encode(scaled)
        return Clip(
            dataURI: "data:audio/ogg;base64," + Data(bytes).base64EncodedString(), level: level, gain: gain,
            bytes: bytes.count)
    }

    /// `buffer` as Ogg Vorbis bytes, through a temporary file that is removed afterwards.
    static func encode(_ buffer: AudioBuffer) throws(EnsoError) -> [UInt8] {
        let path = FileManager.default.temporaryDirectory.path + "/enso-report-\(UUID().uuidString).ogg"
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            try AudioFileEncoder.write(buffer, to: path, options: EncodeOptions(format: .ogg, quality: quality))
        } catch {
            throw EnsoError(.failure, "cannot encode a report excerpt: \(error.message)")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw EnsoError(.failure, "cannot read back the report excerpt \(path)")
        }
        return [UInt8](data)
    }

    /// `buffer` with raised-cosine fades of `seconds` at both ends, so an excerpt starts and ends (and repeats)
    /// without a click of its own.
    static func faded(_ buffer: AudioBuffer, seconds: Double = 0.02) -> AudioBuffer {
        var b = buffer
        let n = b.frameCount
        let f = min(n / 2, Int(seconds * Double(b.sampleRate.hertz)))
        guard f > 0 else { return b }
        for ch in 0..<b.channels {
            let base = ch * n
            for i in 0..<f {
                let w = Float(0.5 - 0.5 * cos(Double.pi * Double(i) / Double(f)))
                b.samples[base + i] *= w
                b.samples[base + n - 1 - i] *= w
            }
        }
        return b
    }

    /// Fades the last `frames` of `mono` out (a raised-cosine half), so an excerpt cut while the sound rings ends as
    /// a release, not a click; its start (a bell's strike) is left as it is.
    static func fadeOut(_ mono: inout [Float], frames: Int) {
        let n = mono.count
        let f = min(n, frames)
        let gains = fadeGains(f)
        for i in 0..<f { mono[n - 1 - i] *= gains[i] }
    }

    /// The gains of a fade over `f` frames, `gains[i]` for the `i`-th sample from the end: made once per length
    /// and kept (a batch fades every candidate's excerpt over the same half second; a cosine per sample of each
    /// was a fifth of the report's excerpt time).
    static func fadeGains(_ f: Int) -> [Float] {
        if let known = fades.withLock({ $0[f] }) { return known }
        let gains = (0..<f).map { i in Float(0.5 - 0.5 * cos(Double.pi * Double(i) / Double(f))) }
        fades.withLock { $0[f] = gains }
        return gains
    }

    /// ``fadeGains(_:)`` by length: a few lengths in a run (one per sample rate an excerpt is cut at).
    private static let fades = Mutex<[Int: [Float]]>([:])

    /// The integrated loudness of a file as played, from its measured integrated loudness: a mono file plays on
    /// both speakers, which BS.1770 reads 10·log10(2) ≈ 3.01 dB louder than the one channel (the relation
    /// ``LoudnessAnalysis/integratedAsPlayed(_:)`` measures by playing it as dual mono).
    static func asPlayed(integrated: Double?, channels: Int) -> Double? {
        integrated.map { channels == 1 ? $0 + 10 * log10(2.0) : $0 }
    }

    /// The player of a file read from disk (``ReportLinks``): a button that loads `url` into an `<audio>` only when
    /// pressed (a page of 300 files opens none of them), played at the common level `target` with the browser's
    /// volume, which can only lower a sound: a file quieter than `target` plays at its own level and says by how
    /// much it is under. Web Audio would raise it, but a browser gives a page's script only silence from a file
    /// it reads from disk (Chromium: "MediaElementAudioSource outputs zeroes due to CORS access restrictions").
    /// The player says whether it plays (`data-state`: ready, loading, playing, paused, ended, error), and when the
    /// browser cannot play the file (a format it does not decode, or the file not where the page expects it), it
    /// says so with `otherwise`, how else to hear it.
    ///
    /// - Parameters:
    ///   - loudness: the file's integrated loudness as played (``asPlayed(integrated:channels:)``), nil when
    ///     silent or too short to measure.
    ///   - label: what is played ("the whole file, 8.2 s").
    ///   - otherwise: HTML saying how else to hear the file.
    static func filePlayer(url: String, loudness: Double?, target: Double, label: String, otherwise: String) -> String {
        let gain = loudness.map { min(0, target - $0) } ?? 0
        var level = "<span class=\"level\">\(ReportPage.escape(label)), from its file · "
        if let lufs = loudness {
            level += "own level \(ReportPage.number(lufs)) LUFS · "
            level +=
                target - lufs > 0
                ? "plays at its own level, \(ReportPage.number(target - lufs)) dB under the others (a page cannot "
                    + "raise a file it reads from disk)"
                : "<span class=\"matched\">plays \(ReportPage.signed(gain)) dB at \(ReportPage.number(target)) LUFS</span>"
        } else {
            level += "silent or too short to measure; plays at its own level"
        }
        level += "</span>"
        return "<div class=\"player file-player\" data-src=\"\(ReportPage.escape(url))\" data-volume-db=\""
            + String(format: "%.2f", gain) + "\" data-state=\"ready\"><button type=\"button\" class=\"play-file\">"
            + "▶ play the file</button>" + level
            + "<span class=\"state\" role=\"status\" aria-live=\"polite\"></span>"
            + "<span class=\"otherwise\" hidden>\(otherwise)</span></div>"
    }

    /// The player of `clip`: an `<audio>` with its matching gain, and its own level in words.
    ///
    /// - Parameters:
    ///   - repeatCount: how many times one press plays it (a seam heard a few times).
    ///   - label: what the excerpt is, for the reader ("the seam: last 2 s into first 2 s").
    static func player(_ clip: Clip, target: Double, repeatCount: Int = 1, label: String) -> String {
        var level = "<span class=\"level\">\(ReportPage.escape(label)) · "
        if let lufs = clip.level.loudness {
            level += "own level \(ReportPage.number(lufs)) LUFS, peak \(ReportPage.number(clip.level.peak)) dBFS · "
            level +=
                "<span class=\"matched\">plays \(ReportPage.signed(clip.gain)) dB at \(ReportPage.number(target)) LUFS</span>"
        } else {
            level += "silent or too short to measure; plays at its own level"
        }
        level += "</span>"
        return "<div class=\"player\"><audio controls preload=\"metadata\" data-gain-db=\""
            + String(format: "%.2f", clip.gain) + "\" data-repeat=\"\(repeatCount)\" src=\"\(clip.dataURI)\"></audio>"
            + level + "</div>"
    }
}
