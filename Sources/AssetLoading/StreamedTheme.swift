import AudioCore
import AudioEngine
import AudioFile

/// The rules of streamed themes, in one place (docs/engine.md, "Streamed themes").
public enum AmbientStreaming {
    /// Themes longer than this, in seconds, are streamed from disk instead of loaded whole: 2 minutes. A loaded
    /// stereo 48 kHz theme holds 46 MB of samples for those 2 minutes and the loader decodes it before the session
    /// starts (a second or more for a long FLAC); a field recording of an hour would be 1.4 GB. Under it, loading
    /// whole costs little and gives the seam fix and the loudness the whole file. `enso loops verify` judges a
    /// longer file from its seam window as a streamed theme is judged (``LoopVerifier/windowAboveSeconds``, kept
    /// equal to this).
    public static let loadLimitSeconds = 120.0
    /// The ring between the loader thread and the render thread, in seconds of audio: 2 s. The loader tops it up
    /// every ``loaderPeriodSeconds``; the ring covers a stall of the disk or of the loader thread of up to 2 s (a
    /// disk spinning up, a busy machine) before anything is heard, for 768 KB per stereo 48 kHz stream.
    public static let ringSeconds = 2.0
    /// The frames of one stream's ring at `rate` (``ringSeconds``).
    public static func ringFrames(at rate: SampleRate) -> Int { max(1, Int(rate.frames(seconds: ringSeconds))) }
    /// Decoded when a stream opens, on the opening thread, so a theme starting now has its first blocks: 0.25 s
    /// (a few milliseconds of decoding; the loader thread fills the rest of the ring).
    public static let prefillSeconds = 0.25
    /// How often the loader thread tops every ring up: 10 ms, a small part of the ring.
    public static let loaderPeriodSeconds = 0.010
}

/// A streamed theme's description: the file, its loop, the engine rate and the gain; each play opens its own
/// ``LoopPlaybackReader`` behind a new ``AmbientStream`` (``makeStream()``).
///
/// - Thread safety: immutable; any thread.
struct StreamedThemeSource: AmbientStreamSource {
    let path: String
    /// The loop in the file's frames.
    let loop: LoopRegion
    /// The seam fix, when the seam failed: the stream then plays the baked loop, read through ``SeamFixedSource``.
    let patch: SeamFixPatch?
    let rate: SampleRate
    /// The ring's channels: the file's, 1 or 2.
    let channels: Int
    /// The linear gain, `nil` for 0 dB (the samples are then untouched, as a loaded theme's are).
    let gain: Float?
    /// The loader thread that keeps the rings full (`nil`: only the opener's ``AmbientStream/fill(limit:)``).
    let loader: StreamLoader?

    /// A new reader of the play sequence at its first frame: the file's, or its baked loop's.
    ///
    /// - Throws: `EnsoError` naming the file when it cannot be opened.
    func reader() throws(EnsoError) -> LoopPlaybackReader {
        guard let patch else { return try LoopPlaybackReader(path: path, loop: loop, rate: rate, quality: .medium) }
        return try LoopPlaybackReader(
            source: try SeamFixedSource(path: path, patch: patch),
            loop: LoopRegion(start: 0, end: patch.source.length), rate: rate, quality: .medium)
    }

    /// The seam fix's crossfade frames, kept while the theme is cached.
    var residentBytes: Int { (patch?.crossfade.reduce(0) { $0 + $1.count } ?? 0) * MemoryLayout<Float>.size }

    func makeStream() -> AmbientStream {
        let producer: any AmbientStreamProducer
        do throws(EnsoError) {
            producer = ThemeStreamProducer(reader: try reader(), gain: gain)
        } catch {
            // The file went away (or changed) since it was loaded: the stream fails, its voice stays silent and
            // the failure is readable on the stream.
            producer = FailedProducer(error: error)
        }
        let stream = AmbientStream(
            channels: channels, capacity: AmbientStreaming.ringFrames(at: rate),
            producer: producer)
        stream.fill(limit: Int(rate.frames(seconds: AmbientStreaming.prefillSeconds)))
        loader?.add(stream)
        return stream
    }
}

/// Decodes a theme's play sequence into a ring, applying its gain.
final class ThemeStreamProducer: AmbientStreamProducer {
    private let reader: LoopPlaybackReader
    private let gain: Float?

    init(reader: LoopPlaybackReader, gain: Float?) {
        self.reader = reader
        self.gain = gain
    }

    func produce(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>?, frames: Int)
        throws(EnsoError) -> Int
    {
        let n = try reader.read(left: left, right: right, maxFrames: frames)
        for p in [left, right].compactMap({ $0 }) {
            for i in 0..<n {
                // A loaded theme with such a sample is refused at load; a streamed one is only read as it plays,
                // so a NaN, an infinity or a sample past +24 dBFS plays as silence rather than a burst.
                if !p[i].isFinite || abs(p[i]) > DecodeLimits.maxSampleMagnitude { p[i] = 0 }
                if let gain { p[i] *= gain }
            }
        }
        return n
    }
}

/// The producer of a stream whose file could not be opened: it fails at the first frame asked for.
final class FailedProducer: AmbientStreamProducer {
    let error: EnsoError
    init(error: EnsoError) { self.error = error }

    func produce(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>?, frames: Int)
        throws(EnsoError) -> Int
    {
        throw error
    }
}
