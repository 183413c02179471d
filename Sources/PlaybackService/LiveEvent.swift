import AudioCore
import AudioDevice
import AudioEngine
import Foundation

/// Something that happened in a live sitting, as ``RunningSession/poll()`` reports it: the engine's event with the
/// session frame and the output frame it happened on, when it is heard, and when the sitting ends as of it.
///
/// `enso play` prints these; the server turns each into a protocol event (`SessionController.protocolEvent(for:in:)`).
///
/// - Thread safety: value type, any thread.
public struct LiveEvent: Sendable {
    /// The group a strike belongs to.
    public enum BellGroup: String, Sendable, Hashable {
        /// The first cycle's opening strikes.
        case opening
        /// The strikes that end a cycle with more to come.
        case transition
        /// The strikes that end the sitting: the last cycle's, every one after a `stop`, every one from the engine's
        /// closing frame on (an until-plan's moves back with the pauses).
        case closing
        /// An interval bell inside a sitting.
        case interval
        /// A strike asked for during the sitting.
        case manual
    }

    /// What happened.
    public enum Kind: Sendable {
        /// A timeline event of the plan: a strike (with its `group`), a cycle's start or end, a breath, a fade, the
        /// end. `group` is `nil` for everything but strikes.
        case timeline(SessionEvent, group: BellGroup?)
        /// A strike asked for during the sitting, in `cycle`.
        case manualStrike(cycle: Int)
        /// The transport paused: the session clock stopped on the event's session frame.
        case paused
        /// The transport resumed after `pausedSeconds` of pause.
        case resumed(pausedSeconds: Double)
        /// A stop took effect: the closing group (`withBell`), then the fade, follow.
        case stopping(withBell: Bool)
        /// The ambient theme started crossfading to `theme` (`nil`: silence) on the event's session frame.
        case themeChanged(String?)
        /// A streamed theme was silent for `missedFrames` (its ring ran dry) and fades back in on the event's frame.
        case streamUnderrun(theme: String, missedFrames: FrameCount)
        /// The output underran; `count` is the total so far. The frames are the engine's when it was seen.
        case xrun(count: Int)
        /// The output failed (the device went away); the sitting ends as `interrupted`.
        case deviceFailed(EnsoError)
    }

    public var kind: Kind
    /// The session frame it happened on: sat time, pauses excluded.
    public var sessionFrame: FramePosition
    /// The output frame it happened on: every frame rendered, pauses included.
    public var outputFrame: FramePosition
    /// When `outputFrame` is heard, on the wall clock (``RunningSession/wallTime(outputFrame:)``); for an xrun or a
    /// failure, when it was seen.
    public var heardAt: Date
    /// When the closing bell's first strike is heard as of this event; `nil` when the sitting is open-ended, paused,
    /// past its closing bell, or a stop was sent (the resume a stop with the bell makes while paused too): a countdown
    /// can follow the events alone.
    public var endsAt: Date?
}
