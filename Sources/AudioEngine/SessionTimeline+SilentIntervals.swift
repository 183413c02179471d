import AudioCore

extension SessionTimeline {
    /// An interval time of the plan that rings in no cycle: the sitter asked for a bell that will never sound, and
    /// `plan`, `start` and the CLI say so instead of dropping it without a word.
    ///
    /// A time rings in a cycle when its strikes fit inside the cycle's sitting (``nextInterval(cycle:from:sittingEnd:)``):
    /// after the opening group's last strike in cycle 1, and with the last strike before the group that ends the
    /// sitting. One that fails in every cycle is silent, for one of three reasons.
    ///
    /// - Thread safety: value type, any thread.
    public struct SilentInterval: Sendable, Hashable {
        /// Why a time never rings.
        public enum Reason: Sendable, Hashable {
            /// At or past the end of every sitting.
            case pastSitting
            /// Inside the sitting, but its strikes would reach the group that ends it.
            case endingGroup
            /// In the opening group of a plan with one cycle (the only sitting that has one).
            case openingGroup
        }

        /// `interval` (its first time, when no multiple rings) or `intervalAt` (one entry per silent time).
        public var field: SessionPlan.Field
        /// The time in the sitting, seconds.
        public var seconds: Double
        public var reason: Reason
        /// The longest sitting of the plan, seconds (where the group that ends it starts).
        public var sittingSeconds: Double
        /// The opening group's last strike, seconds.
        public var openingGroupSeconds: Double
        /// Strikes of each interval bell.
        public var strikes: Int

        /// The warning for `frontEnd`, naming the field its way (`--interval-at 1500 s never rings: …`).
        public func message(_ frontEnd: SessionPlan.FrontEnd) -> String {
            let name = SessionPlan.spec(field).name(frontEnd)
            let time = "\(name) \(SessionPlan.formatted(seconds)) s never rings: "
            let sitting = SessionPlan.formatted(sittingSeconds)
            switch reason {
            case .pastSitting:
                return time + "it is past the end of the sitting (\(sitting) s)"
            case .endingGroup:
                let them = strikes == 1 ? "its strike" : "its \(strikes) strikes"
                return time + "\(them) would run into the strikes that end the sitting at \(sitting) s"
            case .openingGroup:
                return time
                    + "it falls in the opening strikes (the last at \(SessionPlan.formatted(openingGroupSeconds)) s)"
            }
        }
    }

    /// The interval times that ring in no cycle of the plan, in the order given; empty when every one rings (or
    /// there are none).
    ///
    /// For `interval` one entry when no multiple rings at all (a multiple skipped in one cycle for a group is
    /// documented behaviour, not a mistake); for `intervalAt` one per listed time that rings nowhere. Cycles 2 to
    /// n - 1 are alike, so cycle 1, cycle 2 and the last (an until-plan's sits to its clock time) decide.
    public var silentIntervals: [SilentInterval] {
        guard hasIntervals else { return [] }
        var cycles = [1]
        if let n = cycleCount {
            if n >= 2 { cycles.append(2) }
            if n > 2 { cycles.append(n) }
        } else {
            cycles.append(2)
        }
        let longest = cycles.map { cycleEnd($0) - cycleStart($0) }.max() ?? sittingFrames
        func silent(_ field: SessionPlan.Field, offset: FrameCount) -> SilentInterval {
            let reason: SilentInterval.Reason =
                offset >= longest ? .pastSitting : offset + intervalSpan >= longest ? .endingGroup : .openingGroup
            return SilentInterval(
                field: field, seconds: sampleRate.seconds(frames: offset), reason: reason,
                sittingSeconds: sampleRate.seconds(frames: longest),
                openingGroupSeconds: sampleRate.seconds(frames: groupSpan), strikes: intervalStrikes)
        }
        if let n = intervalFrames {
            let rings = cycles.contains { nextInterval(cycle: $0, from: 0, sittingEnd: cycleEnd($0)) != nil }
            return rings ? [] : [silent(.interval, offset: n)]
        }
        return intervalAtFrames.indices.compactMap { i in
            let rings = cycles.contains { nextInterval(cycle: $0, from: i, sittingEnd: cycleEnd($0))?.index == i }
            return rings ? nil : silent(.intervalAt, offset: intervalAtFrames[i])
        }
    }
}
