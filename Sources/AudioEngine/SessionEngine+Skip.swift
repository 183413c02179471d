import AudioCore

extension SessionEngine: WallClockSource {
    /// Advances the session by `lostFrames` frames of wall time the device lost in a stall, without output,
    /// so the schedule stays on the wall clock.
    ///
    /// The output clock always moves by `lostFrames`. While the session clock runs (playing), it moves
    /// too, together with everything continuous: ambient loop positions (wrapping at their loop points),
    /// theme crossfades, volume ramps, the pause/resume de-click and ringing bells (a bell that would
    /// have ended inside the gap ends). Timeline events due inside the gap are not dropped: the next
    /// ``render(into:frames:)`` starts them on its first frame, late by the stall and never early; later
    /// events keep their frames. While paused the session clock is frozen and only the output clock moves
    /// (the lost time counts as paused time); while fading into a pause the voices and the fade move on.
    /// After the end only the output clock moves. Pending commands wait for the next render.
    ///
    /// - Parameter lostFrames: frames of wall time lost (ignored when not positive).
    /// - Thread safety: the render thread, between ``render(into:frames:)`` calls.
    /// - Real-time safe: yes: no allocation, no lock, no I/O.
    public func skip(lostFrames: Int) {
        guard lostFrames > 0 else { return }
        let n = lostFrames
        outputFrameRT += FramePosition(n)
        if renderState == .playing || renderState == .pausing {
            if renderState == .playing { sessionFrameRT += FramePosition(n) }
            masterGain.advance(by: n)
            ambientGain.advance(by: n)
            bellGain.advance(by: n)
            skipTransport(n)
            for v in 0..<Self.ambientSlots where ambients[v].isActive && !ambients[v].skip(n) {
                if let a = ambients[v].asset { retire(a) }
                ambients[v] = AmbientVoice()
            }
            for v in 0..<bellSlots where bells[v].isActive && !bells[v].skip(n) {
                if let a = bells[v].asset, a !== assets.bell { retire(a) }
                bells[v] = BellVoice()
            }
            if renderState == .pausing && transport <= 0 { renderState = .paused }
        }
        atomicSessionFrame.store(sessionFrameRT, ordering: .releasing)
        atomicOutputFrame.store(outputFrameRT, ordering: .releasing)
        atomicState.store(renderState.rawValue, ordering: .releasing)
    }

    /// Moves the pause/resume de-click ramp on by `n` frames.
    private func skipTransport(_ n: Int) {
        guard transportStep != 0 else { return }
        moveTransport(by: transportStep * Float(n))
    }
}
