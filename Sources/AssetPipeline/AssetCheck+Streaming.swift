import AudioCore
import AudioDSP
import AudioFile
import Foundation

/// A long soundscape (an hour-long field recording) checked and added without holding it: read in chunks for its
/// loudness and channel figures, its seam judged from the window around it (``SeamWindow``), as `enso loops verify`
/// and the player judge it. Memory is a chunk and the window, whatever the file's length; before, `assets check`
/// and `assets add` refused a stereo 48 kHz file over 23 min 18 s ("too long to load whole") and took 2.35 GB to add
/// one of 20 min.
extension AssetCheck {
    /// A soundscape longer than this, in seconds, is checked and added in chunks: ``LoopVerifier/windowAboveSeconds``
    /// (2 min), the length past which the player streams a theme and `loops verify` judges its seam from its window,
    /// so that the pack gives the verdict the player acts on.
    public static let streamAboveSeconds = LoopVerifier.windowAboveSeconds

    /// Frames read at a time: 64 Ki (1.4 s at 48 kHz); a streamed theme's loudness is read so at load too
    /// (`AssetSummary`, AssetLoading).
    static let chunkFrames = 65_536

    /// Whether a file of `info` is a soundscape that ``streamAboveSeconds`` says to read in chunks.
    static func streams(_ kind: AssetPack.Kind, _ info: AudioFileInfo) -> Bool {
        kind == .soundscape && info.duration > streamAboveSeconds
    }

    /// What one pass over a file in chunks measured.
    public struct Pass: Sendable {
        /// The integrated loudness (``AssetPack/measureLoudness(_:)``'s figure), nil when silent or too short.
        public var loudness: Double?
        /// The channel figures of every frame (``SignalDefectScan/ChannelSums``).
        public var channels: SignalDefectScan.ChannelSums
        /// The frames read.
        public var frames: FrameCount
        /// The first chunk (after the gain): what a scan is made of when no window is read.
        public var first: AudioBuffer?
    }

    /// Reads `path` once in chunks of ``chunkFrames``, each multiplied by `gain` and then measured and handed to
    /// `each` (a writer) interleaved, as a whole decode would have it.
    ///
    /// - Throws: `EnsoError` naming the file: what opening or reading it throws; `.invalidInput` for a sample that is
    ///   not finite or beyond ±16, naming its time, as a whole decode refuses it; what `each` throws.
    public static func pass(
        path: String, gain: Float = 1, each: ((UnsafeBufferPointer<Float>) throws(EnsoError) -> Void)? = nil
    ) throws(EnsoError) -> Pass {
        let reader = try SoundFileReader(path: path)
        defer { reader.close() }
        let info = reader.info
        let meter = try AssetPack.loudnessStream(channels: info.channels, sampleRate: info.sampleRate)
        var sums = SignalDefectScan.ChannelSums(channels: info.channels.count)
        let c = info.channels.count
        var scratch = [Float](repeating: 0, count: chunkFrames * c)
        var frames: FrameCount = 0
        var first: AudioBuffer?
        while true {
            let n = try scratch.withUnsafeMutableBufferPointer { (p) throws(EnsoError) -> Int in
                try reader.readFrames(into: p.baseAddress!, maxFrames: chunkFrames)
            }
            if n == 0 { break }
            if let k = scratch[0..<(n * c)].firstIndex(where: {
                !$0.isFinite || abs($0) > DecodeLimits.maxSampleMagnitude
            }) {
                let seconds = Double(frames + FrameCount(k / c)) / info.sampleRate.double
                throw EnsoError(
                    .invalidInput,
                    "\(path): sample \(scratch[k]) at \((seconds * 1000).rounded() / 1000) s (channel \(k % c + 1)) "
                        + "cannot be played (not finite, or beyond +24 dBFS)", path: path)
            }
            if gain != 1 { for i in 0..<(n * c) { scratch[i] *= gain } }
            let chunk = scratch.withUnsafeBufferPointer {
                AudioBuffer(
                    interleaved: UnsafeBufferPointer(rebasing: $0[0..<(n * c)]), channels: info.channels,
                    sampleRate: info.sampleRate)
            }
            meter.add(chunk)
            sums.add(chunk)
            if first == nil { first = chunk }
            if let each {
                try scratch.withUnsafeBufferPointer { (p) throws(EnsoError) in
                    try each(UnsafeBufferPointer(rebasing: p[0..<(n * c)]))
                }
            }
            frames += FrameCount(n)
        }
        return Pass(loudness: meter.integrated, channels: sums, frames: frames, first: first)
    }

    /// Checks a long soundscape at `path` (``streams(_:_:)``) in one pass and its seam's window: the measures a whole
    /// decode gives, each read as the file streams: its loudness and channel figures from every frame, its seam from
    /// the window around it (``SeamWindow``: the loop's first and last 10 s; a loop of up to 20 s whole), and the
    /// sound kept for a report the window's, with its loop (``AssetAnalysis/soundLoop``). The clipping figures of
    /// the scan are the window's, or the first chunk's when the loop does not fit (no soundscape rule reads them).
    static func analyseStreaming(
        _ entry: AssetPack.Entry, path: String, info: AudioFileInfo, strict: Bool
    ) -> AssetAnalysis {
        var p = PackMeasures(
            entry: entry, strict: strict,
            format: "\(info.format) \(info.subtype), \(info.sampleRate), \(info.channels), "
                + String(format: "%.2f s", info.duration),
            frameCount: Int(info.frames))
        let measured: Pass
        do { measured = try pass(path: path) } catch {
            return AssetAnalysis(
                entry: entry, result: result(of: PackMeasures(entry: entry, strict: strict, decodeError: error.message))
            )
        }
        p.frameCount = Int(measured.frames)
        p.loudness = measured.loudness
        var sound: AudioBuffer?
        var soundLoop: LoopRegion?
        var scanned = measured.first
        if p.loopFits {
            do {
                let window = try SeamWindow.read(path: path, loop: p.loopRegion, foldingToStereo: false)
                p.seam = SeamRules.judge(window.buffer, loop: Int(window.loop.start)..<Int(window.loop.end))
                if let note = LoopVerifier.windowNote(window) { p.seam?.reasons.append(note) }
                (sound, soundLoop, scanned) = (window.buffer, window.loop, window.buffer)
            } catch {
                p.decodeError = error.message
            }
        }
        if let scanned {
            var scan = SignalDefectScan(scanned)
            measured.channels.apply(to: &scan)
            p.scan = scan
        }
        return AssetAnalysis(entry: entry, result: result(of: p), sound: sound, soundLoop: soundLoop)
    }
}
