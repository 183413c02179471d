import AudioCore

/// The integrated loudness (BS.1770-4) of a sound fed in chunks of any size, equal to
/// ``LoudnessAnalysis/measure(_:momentaryHopSeconds:shortTermHopSeconds:padSeconds:)``'s `integrated` of the whole
/// sound at the same hop and padding, with memory bounded by one hop energy per hop (8 bytes per 100 ms: 288 KB
/// for a 10-hour file), not by the sound.
///
/// It meters as ``LoudnessAnalysis`` scans: the padding's silence first, then the sound hop by hop, one K-weighted
/// energy read per hop, and the gating (400 ms blocks every 100 ms, −70 LUFS and −10 LU gates) done on those
/// energies; where the hop does not tile libebur128's blocks (an odd rate or hop), libebur128 gates the sound
/// alone itself, as the whole measure then does. So a long theme's loudness read in one pass at load is the
/// figure its file would give decoded whole.
///
/// - Thread safety: one thread at a time.
/// - Real-time safe: no.
public final class IntegratedLoudnessStream {
    private let meter: LoudnessMeter
    private let hop: Int
    private let pad: Int
    /// The tiling, when the gating is done here on hop energies (else libebur128 gates).
    private let tiling: (milliseconds: Int, blockHops: Int, stepHops: Int)?
    private var energies: [Double] = []
    private var inHop = 0
    /// Frames of the sound fed so far.
    public private(set) var frames = 0

    /// A meter for `channels` at `sampleRate` reading a hop energy every `hopSeconds`, after `padSeconds` of
    /// silence (the parameters of the whole measure it must equal).
    ///
    /// - Throws: `EnsoError` `.invalidInput` for a hop shorter than a frame or a negative padding, `.unsupported`
    ///   when libebur128 refuses the format.
    public init(
        channels: ChannelCount, sampleRate: SampleRate, hopSeconds: Double, padSeconds: Double = 0.4
    ) throws(EnsoError) {
        let hop = Int(sampleRate.frames(seconds: hopSeconds))
        guard hop >= 1 else {
            throw EnsoError(.invalidInput, "loudness hop \(hopSeconds) s is shorter than one frame at \(sampleRate)")
        }
        guard padSeconds >= 0, padSeconds.isFinite else {
            throw EnsoError(.invalidInput, "loudness padding must be ≥ 0 s, got \(padSeconds)")
        }
        let pad = Int(sampleRate.frames(seconds: padSeconds))
        let t = LoudnessAnalysis.hopTiling(rate: sampleRate, hop: hop, hopSeconds: hopSeconds)
        if let t, let step = t.stepHops, pad % hop == 0 {
            tiling = (t.milliseconds, t.momentaryHops, step)
        } else {
            tiling = nil
        }
        meter = try LoudnessMeter(
            channels: channels, sampleRate: sampleRate, truePeak: false, samplePeak: false, gating: tiling == nil)
        self.hop = hop
        self.pad = pad
        if tiling != nil {
            // The padding's hops, read as the whole measure reads them (their energies sit before the sound's).
            for _ in 0..<(pad / hop) {
                meter.addSilence(frames: hop)
                readHop()
            }
        }
    }

    /// Feeds all of `buffer` (a chunk of the sound, any length).
    ///
    /// - Precondition: `buffer` has the meter's channels and holds finite samples (check them first: the whole
    ///   measure refuses a non-finite sample).
    public func add(_ buffer: AudioBuffer) {
        guard tiling != nil else {
            meter.add(buffer)
            frames += buffer.frameCount
            return
        }
        var at = 0
        while at < buffer.frameCount {
            let take = min(hop - inHop, buffer.frameCount - at)
            meter.add(buffer, from: at, frames: take)
            at += take
            inHop += take
            if inHop == hop {
                readHop()
                inHop = 0
            }
        }
        frames += buffer.frameCount
    }

    /// The integrated loudness of what was fed, in LUFS; `nil` when it is too short (under 400 ms) or silent.
    public var integrated: Double? {
        let value: Double
        if let t = tiling {
            value = LoudnessAnalysis.gatedIntegrated(
                hopEnergies: energies, firstHop: pad / hop, frames: frames, hop: hop, blockHops: t.blockHops,
                stepHops: t.stepHops)
        } else {
            value = meter.integrated
        }
        return value.isFinite ? value : nil
    }

    private func readHop() {
        guard let t = tiling else { return }
        energies.append(LoudnessAnalysis.energy(ofLoudness: meter.loudness(lastMilliseconds: t.milliseconds)))
    }
}
