import AudioCore

/// What the render thread reports back to the control side, in the order it happened.
///
/// `outputFrame` counts every frame the engine has rendered (pauses included); `sessionFrame` counts
/// sat time only (the timeline's frames). Read them with ``SessionEngine/pollEvent()``.
///
/// - Thread safety: values; produced on the render thread, consumed on the one control thread.
public enum EngineEvent: @unchecked Sendable {
    /// A timeline event (strike, cycle start and end, breath, fades, end) at its exact output frame.
    case timeline(SessionEvent, outputFrame: FramePosition)
    /// A strike requested with ``SessionEngine/strike(_:)``, started on `outputFrame`.
    case manualStrike(sessionFrame: FramePosition, outputFrame: FramePosition)
    /// The transport paused (the 20 ms de-click fade starts on `outputFrame`; the session clock stopped).
    case paused(sessionFrame: FramePosition, outputFrame: FramePosition)
    /// The transport resumed on `outputFrame`; every later timeline event moved by the paused frames.
    case resumed(sessionFrame: FramePosition, outputFrame: FramePosition, pausedFrames: FrameCount)
    /// `stop` was applied: the closing events now follow from `sessionFrame`.
    case stopping(sessionFrame: FramePosition, outputFrame: FramePosition, withBell: Bool)
    /// The ambient theme started crossfading to `id` (`nil`: to silence).
    case themeChanged(id: String?, outputFrame: FramePosition)
    /// A streamed theme ran short of decoded audio (a slow disk): it faded out, was silent for `missedFrames`, and
    /// fades back in on `outputFrame` (or ended while silent, on `outputFrame`). The session clock and the bells
    /// did not move.
    case streamUnderrun(id: String, missedFrames: FrameCount, outputFrame: FramePosition)
    /// An asset the render thread no longer uses; dropping this value frees it on the control side.
    case retired(LoadedAsset)
}

/// The transport state of a ``SessionEngine``, readable from any thread.
public enum EngineState: UInt8, Sendable, CustomStringConvertible {
    /// Rendering the session.
    case playing = 0
    /// Fading out for a pause (20 ms); the session clock is already stopped.
    case pausing = 1
    /// Paused: silence, nothing moves.
    case paused = 2
    /// The session has ended; render writes silence.
    case ended = 3

    public var description: String {
        switch self {
        case .playing: return "playing"
        case .pausing: return "pausing"
        case .paused: return "paused"
        case .ended: return "ended"
        }
    }
}

/// A gain the engine applies, settable live with ``SessionEngine/setVolume(_:_:rampFrames:)``.
public enum EngineBus: UInt8, Sendable, CaseIterable {
    case ambient, bell, master
}
