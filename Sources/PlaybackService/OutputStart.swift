import AudioCore
import Foundation

/// When the frames of an output are heard before its clock has a reading: the one definition that `start` (its
/// reply, `session.started`, and `status` and observation until the first write) and `preview` share.
///
/// An output starts on an empty buffer: its first frame is heard as the output starts (the null device plays
/// frame 0 as soon as it is written; ALSA starts the device once one period, the first write, is in) and the
/// rest follow at the rate, the buffer filling ahead of the device. The buffer's latency applies only to frames
/// written into a full buffer, never to a start. Once the output has written, its clock says when each frame is
/// heard (``RunningSession/wallTime(outputFrame:)``), and on a device that keeps time the two agree.
///
/// An unpaced file's time is the same: the start plus the frames over the rate.
enum OutputStart {
    /// When output frame `frame` (counted from the output's first) is heard, for an output started at `start`
    /// that plays at `rate`; frame `0` is heard at `start`.
    static func heardAt(frame: FramePosition, startedAt start: Date, rate: SampleRate) -> Date {
        start.addingTimeInterval(rate.seconds(frames: frame))
    }
}
