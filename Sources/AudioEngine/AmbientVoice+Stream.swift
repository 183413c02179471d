import AudioCore

/// The streamed side of the ambient player: reading a ring, and what it does when the ring runs short.
///
/// The rule, per render block of `n` frames, with `D` the de-click length (20 ms):
/// - playing, and the ring holds at least `n + D` frames: read `n` frames, exactly as a loaded asset plays;
/// - otherwise, start an underrun fade-out from the current level over `D` frames (at full level; shorter from
///   a lower one) on the frames the ring still holds: the check above keeps `D` of them in reserve, so the fade
///   always has its frames and the sound never stops on a step;
/// - once faded out the voice is *starved*: silence, nothing read, every block's frames counted as missed;
/// - when the ring again holds ``resumeFrames(_:)`` (half of it, at least a block and two fades), fade back in
///   over `D` from where the stream is (frames are not skipped: the theme goes on where it stopped), and report
///   the underrun with its frames missed (``SessionEngine`` turns it into ``EngineEvent/streamUnderrun(id:missedFrames:outputFrame:)``).
///
/// The session clock, the bells and the theme's own fades run on regardless: an underrun only silences the theme.
///
/// - Real-time safe: yes.
extension AmbientVoice {
    /// Whether this block needs per-frame gains for the stream (a fade, silence, or a ring about to run short).
    func streamNeedsGains(_ n: Int) -> Bool {
        guard let s = stream else { return false }
        return starved || streamFadePosition < streamFadeLength || s.readable < n + declickFrames
    }

    /// What the ring must hold before a starved voice fades back in: half the ring (so a slow source is not
    /// heard stopping and starting every block), and at least a block and two de-click lengths (so the fade-in
    /// block keeps the reserve a fade-out needs).
    func resumeFrames(_ n: Int) -> Int {
        guard let s = stream else { return 0 }
        return min(s.capacity, max(s.capacity / 2, n + 2 * declickFrames))
    }

    /// Moves the underrun state on for a block of `n` frames; returns the frames to read from the ring (the
    /// rest of the block is silence).
    mutating func planStream(_ n: Int) -> Int {
        guard let s = stream else { return n }
        let available = s.readable
        if starved {
            guard available >= resumeFrames(n) else {
                missedFrames += Int64(n)
                return 0
            }
            starved = false
            underrunToReport = max(1, missedFrames)
            missedFrames = 0
            streamFadeFrom = 0
            streamFadeTo = 1
            streamFadeLength = declickFrames
            streamFadePosition = 0
            return n
        }
        if streamFadeTo != 0 && available < n + declickFrames {
            // From the current level: a voice at full level takes the whole de-click length.
            let x = streamLevel
            streamFadeFrom = x
            streamFadeTo = 0
            streamFadeLength = max(1, Int((Float(declickFrames) * x).rounded()))
            streamFadePosition = 0
        }
        if streamFadeTo == 0 {
            let left = min(streamFadeLength - streamFadePosition, available)
            if left <= n {
                starved = true
                missedFrames = Int64(n - left)
                return left
            }
        }
        return n
    }

    /// The current underrun fade level.
    var streamLevel: Float {
        streamFadePosition >= streamFadeLength
            ? streamFadeTo
            : streamFadeFrom + (streamFadeTo - streamFadeFrom) * (Float(streamFadePosition) / Float(streamFadeLength))
    }

    /// Multiplies the underrun fade into the first `k` per-frame gains.
    mutating func applyStreamFade(_ gains: UnsafeMutablePointer<Float>, _ k: Int) {
        let span = Float(streamFadeLength)
        for i in 0..<k {
            let x: Float
            if streamFadePosition < streamFadeLength {
                x = streamFadeFrom + (streamFadeTo - streamFadeFrom) * (Float(streamFadePosition) / span)
                streamFadePosition += 1
            } else {
                x = streamFadeTo
            }
            gains[i] *= CrossfadeCurve.quarterSine(x)
        }
    }

    /// Skips `n` frames of the stream (wall time the device lost): what the ring holds of them is dropped; frames
    /// it does not hold leave the voice starved (it fades back in when the ring fills, and reports them missed).
    mutating func skipStream(_ n: Int) {
        guard let s = stream else { return }
        if starved {
            missedFrames += Int64(n)
            return
        }
        let take = min(n, s.readable)
        position = (position + take) % s.capacity
        s.advance(take)
        streamFadePosition = min(streamFadeLength, streamFadePosition + take)
        if take < n {
            starved = true
            missedFrames = Int64(n - take)
        }
    }
}
