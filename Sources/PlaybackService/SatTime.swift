import AudioCore

/// Sat time: the one definition the journal, `status`, the events and `enso play`'s summary share.
///
/// The session clock (pauses excluded) up to the closing bell's first strike, or up to the frame a `stop`
/// took effect on when it came first. The closing group's ring and the fade-out after either are not sat,
/// so a completed sitting has sat time equal to its planned time, and a stop at 3 s records 3 s.
public enum SatTime {
    /// Sat frames at session frame `sessionFrame`.
    ///
    /// - Parameters:
    ///   - closingFrame: the closing group's first strike (`nil`: open-ended).
    ///   - stopFrame: where a `stop` before the closing bell took effect (`nil`: none).
    public static func frames(
        sessionFrame: FramePosition, closingFrame: FramePosition?, stopFrame: FramePosition?
    ) -> FramePosition {
        max(0, min(sessionFrame, closingFrame ?? .max, stopFrame ?? .max))
    }
}
