import AudioCore

/// A plan turned into frames: every strike, cycle boundary, breath and fade of a session.
///
/// Each duration of the plan is rounded to frames exactly once, here; every position is then integer
/// arithmetic on `Int64`, so the 1000th cycle of a 24 h plan lands on the same frame as a pencil-and-paper
/// calculation. With D the sitting, k the strikes, s the spacing and P the breath (all in frames):
///
/// - cycle `c` starts at `S_c = (c - 1) * L` with the period `L = D + (k - 1) * s + P`;
/// - cycle 1 opens with `k` strikes at `0, s, ..., (k - 1) * s`;
/// - cycle `c` ends at `E_c = S_c + D`, where its transition group of `k` strikes starts (`E_c + j * s`);
/// - the last cycle's group closes the session: the ambient fades out from its last strike, and the
///   session ends when that fade is done and the bell has decayed below -60 dBFS (``bellTailFrames``);
/// - with ``SessionPlan/Repeat/until(_:)`` the last cycle is the one in which the target frame `U` falls
///   (the first `c` with `U < S_(c+1)`), and its end is moved to `U`, so the closing group's first strike
///   lands exactly on the target; a last cycle whose sitting would be shorter than
///   ``minimumLastSittingFrames`` folds into the one before, which then closes on `U` (``untilLayout(target:)``).
///
/// - Thread safety: value type, any thread.
/// - Real-time safe: the frame functions and ``events(ofCycle:into:)`` are (no allocation); ``events(cycles:)`` is not.
public struct SessionTimeline: Sendable, Hashable {
    /// The rate every frame count refers to.
    public let sampleRate: SampleRate
    /// Strikes per group (k).
    public let strikes: Int
    /// Sitting per cycle (D), frames.
    public let sittingFrames: FrameCount
    /// Spacing between strikes (s), frames.
    public let spacingFrames: FrameCount
    /// Breath after a transition group's last strike (P), frames.
    public let breathFrames: FrameCount
    /// Ambient fade-in, frames (at least ``declickFrames``: a fade-in of 0 still ramps).
    public let fadeInFrames: FrameCount
    /// Ambient fade-out, frames (at least ``declickFrames``: a fade-out of 0 still ramps).
    public let fadeOutFrames: FrameCount
    /// The shortest ramp of any start, stop, cut or switch (``declickSeconds`` at the rate, at least 1 frame):
    /// the floor of the fades, theme crossfades and volume ramps, and the length of the end ramp that brings
    /// the session's last frame to exactly 0.
    public let declickFrames: FrameCount
    /// Frames from a strike until the bell is below -60 dBFS (or its asset ends): how long the session
    /// runs on after its last strike, at least.
    public let bellTailFrames: FrameCount
    /// The number of cycles, or `nil` for a session that runs until stopped.
    public private(set) var cycleCount: Int?
    /// For ``SessionPlan/Repeat/until(_:)``: the session frame of the closing group's first strike.
    public private(set) var untilFrame: FramePosition?
    /// Interval bells every this many frames of each sitting (`nil`: none).
    public let intervalFrames: FrameCount?
    /// Interval bells at these frames of each sitting, ascending (each rounded once).
    public let intervalAtFrames: [FrameCount]
    /// Strikes of each interval bell.
    public let intervalStrikes: Int

    /// The de-click ramp, seconds: 20 ms, as long as the pause fade.
    public static let declickSeconds = 0.020

    /// The most events one cycle produces (fade-in, cycle start, 3 opening strikes, cycle end, 3 strikes,
    /// fade-out, end).
    public static let maxEventsPerCycle = 11

    /// The period of one cycle, `L = D + (k - 1) * s + P`.
    public var period: FrameCount { sittingFrames + FrameCount(strikes - 1) * spacingFrames + breathFrames }

    /// The span of one strike group, first strike to last: `(k - 1) * s`.
    public var groupSpan: FrameCount { FrameCount(strikes - 1) * spacingFrames }

    /// Builds the timeline of `plan` at `sampleRate`.
    ///
    /// - Parameters:
    ///   - plan: the session plan.
    ///   - sampleRate: the engine rate.
    ///   - bellTail: frames from a strike until the bell has decayed below -60 dBFS (see
    ///     ``LoadedAsset/decayFrames(gain:threshold:)``); 0 when no bell audio is known.
    ///   - startSecondOfDay: the local clock time at frame 0, in seconds since midnight; only used (and then
    ///     required) for ``SessionPlan/Repeat/until(_:)``.
    /// - Throws: ``PlanValidationError`` for the `repeat` field when the until-time is not at least one strike
    ///   group plus 10 s ahead. The until-time is the next occurrence of that clock time after the start, up to
    ///   24 h ahead (a time equal to the start is 24 h ahead).
    public init(
        plan: SessionPlan, sampleRate: SampleRate, bellTail: FrameCount = 0, startSecondOfDay: Double? = nil
    ) throws(PlanValidationError) {
        self.sampleRate = sampleRate
        strikes = plan.strikes
        sittingFrames = max(1, sampleRate.frames(seconds: plan.sitting))
        spacingFrames = max(1, sampleRate.frames(seconds: plan.strikeSpacing))
        breathFrames = sampleRate.frames(seconds: plan.breath)
        let declick = max(1, sampleRate.frames(seconds: Self.declickSeconds))
        declickFrames = declick
        fadeInFrames = max(declick, sampleRate.frames(seconds: plan.fadeIn))
        fadeOutFrames = max(declick, sampleRate.frames(seconds: plan.fadeOut))
        bellTailFrames = max(0, bellTail)
        intervalFrames = plan.interval.map { max(1, sampleRate.frames(seconds: $0)) }
        intervalAtFrames = plan.intervalAt.map { max(1, sampleRate.frames(seconds: $0)) }
        intervalStrikes = plan.intervalStrikes
        switch plan.repeatMode {
        case .once:
            cycleCount = 1
            untilFrame = nil
        case .times(let n):
            cycleCount = n
            untilFrame = nil
        case .untilStopped:
            cycleCount = nil
            untilFrame = nil
        case .until(let t):
            let start = startSecondOfDay ?? 0
            var ahead = (Double(t.secondOfDay) - start).truncatingRemainder(dividingBy: 86_400)
            if ahead <= 0 { ahead += 86_400 }
            let u = sampleRate.frames(seconds: ahead)
            let span = FrameCount(plan.strikes - 1) * max(1, sampleRate.frames(seconds: plan.strikeSpacing))
            let minimum = span + sampleRate.frames(seconds: 10)
            if u < minimum {
                throw PlanValidationError(
                    field: .repeatCount,
                    problem: "until=\(t) is only \(SessionPlan.formatted(ahead.rounded())) s ahead; "
                        + "it must be at least one strike group plus 10 s "
                        + "(\(SessionPlan.formatted(sampleRate.seconds(frames: minimum).rounded(.up))) s) ahead")
            }
            untilFrame = u
            cycleCount = 1
        }
        if let u = untilFrame { cycleCount = untilLayout(target: u).cycle }
    }

    // MARK: - Until-time rules

    /// The shortest sitting the last cycle of an until-plan keeps: half a sitting, at most 60 s. A clock time
    /// closer than this after a cycle start would leave a cycle of a few seconds (two strike groups back to
    /// back); that cycle folds into the one before instead.
    public var minimumLastSittingFrames: FrameCount { min(sampleRate.frames(seconds: 60), sittingFrames / 2) }

    /// Which cycle closes, and on which session frame, for a closing group due on session frame `target`.
    ///
    /// The last cycle is the first `c` with `target < S_(c+1)`; when its sitting `target - S_c` would be
    /// shorter than ``minimumLastSittingFrames`` it folds into cycle `c - 1`, which then sits on to `target`.
    /// The engine asks this again after every pause of an until-plan, with the target moved back by the
    /// paused frames, so the closing group stays on the clock time.
    public func untilLayout(target: FramePosition) -> (cycle: Int, end: FramePosition) {
        let u = max(0, target)
        var c = Int(u / period) + 1
        if c > 1 && u - cycleStart(c) < minimumLastSittingFrames { c -= 1 }
        return (c, u)
    }

    // MARK: - Frames

    /// Start of cycle `c` (from 1): `S_c = (c - 1) * L`.
    public func cycleStart(_ c: Int) -> FramePosition { FrameCount(c - 1) * period }

    /// End of cycle `c`'s sitting, where its transition or closing group starts: `E_c = S_c + D`
    /// (for the last cycle of an until-plan, the until frame).
    public func cycleEnd(_ c: Int) -> FramePosition {
        if let u = untilFrame, c == cycleCount { return u }
        return cycleStart(c) + sittingFrames
    }

    /// Frame of strike `j` (from 1) of the group at `groupStart`.
    public func strikeFrame(groupStart: FramePosition, strike j: Int) -> FramePosition {
        groupStart + FrameCount(j - 1) * spacingFrames
    }

    /// The closing group's last strike, where the ambient fade-out starts (`nil` until stopped).
    public var lastStrikeFrame: FramePosition? {
        cycleCount.map { cycleEnd($0) + groupSpan }
    }

    /// The frame the session ends on: the last strike plus the longer of the fade-out and the bell's
    /// decay (`nil` for a session that runs until stopped).
    public var endFrame: FramePosition? {
        lastStrikeFrame.map { endFrame(lastStrike: $0) }
    }

    /// The end for a closing group whose last strike is at `lastStrike`.
    public func endFrame(lastStrike: FramePosition) -> FramePosition {
        lastStrike + max(fadeOutFrames, bellTailFrames)
    }

    /// Whether cycle `c` is the last one.
    public func isLastCycle(_ c: Int) -> Bool { cycleCount.map { c >= $0 } ?? false }

    /// The cycle (from 1) session frame `frame` falls in: the `c` with `S_c ≤ frame < S_(c+1)`, and the last
    /// cycle for a frame past it (a folded last cycle of an until-plan included).
    public func cycle(of frame: FramePosition) -> Int {
        let c = Int(max(0, frame) / max(1, period)) + 1
        return cycleCount.map { min(c, $0) } ?? c
    }

    // MARK: - Events

    /// Writes the events of cycle `c` (from 1) into `list`, sorted by frame (ties keep a fixed order).
    ///
    /// Every event of cycle `c` lies in `S_c ... S_(c+1)` (the end event aside, which only the last cycle
    /// has), so concatenating cycles in order gives the whole timeline in order.
    public func events(ofCycle c: Int, into list: inout SessionEventList) {
        events(ofCycle: c, closingCycle: cycleCount, closingAt: untilFrame, into: &list)
    }

    /// Writes the events of cycle `c` for a session whose last cycle is `closingCycle` (`nil`: until stopped),
    /// closing on session frame `closingAt` (`nil`: at the end of its sitting, `S_c + D`).
    ///
    /// The engine uses this after a pause of an until-plan, when the close moves back by the paused frames.
    public func events(
        ofCycle c: Int, closingCycle: Int?, closingAt: FramePosition?, into list: inout SessionEventList
    ) {
        list.removeAll()
        let start = cycleStart(c)
        if c == 1 {
            list.append(SessionEvent(kind: .fadeIn, frame: 0, cycle: 1))
            list.append(SessionEvent(kind: .cycleStart, frame: 0, cycle: 1))
            for j in 1...strikes {
                list.append(
                    SessionEvent(kind: .strike, frame: strikeFrame(groupStart: 0, strike: j), cycle: 1, strike: j))
            }
        } else {
            list.append(SessionEvent(kind: .cycleStart, frame: start, cycle: c))
        }
        if let last = closingCycle, c >= last {
            closingEvents(at: closingAt ?? start + sittingFrames, cycle: c, withBell: true, into: &list, clear: false)
        } else {
            let end = start + sittingFrames
            list.append(SessionEvent(kind: .cycleEnd, frame: end, cycle: c))
            for j in 1...strikes {
                list.append(
                    SessionEvent(kind: .strike, frame: strikeFrame(groupStart: end, strike: j), cycle: c, strike: j))
            }
            list.append(SessionEvent(kind: .breath, frame: end + groupSpan, cycle: c))
        }
        list.sortByFrame()
    }

    /// Writes the events that close a session at `frame` in cycle `c`: the cycle end, the closing group
    /// (unless `withBell` is false), the fade-out from its last strike and the end.
    ///
    /// Used for the last cycle of a plan and by the engine for `stop`.
    public func closingEvents(
        at frame: FramePosition, cycle c: Int, withBell: Bool, into list: inout SessionEventList, clear: Bool = true
    ) {
        if clear { list.removeAll() }
        list.append(SessionEvent(kind: .cycleEnd, frame: frame, cycle: c))
        var last = frame
        if withBell {
            for j in 1...strikes {
                last = strikeFrame(groupStart: frame, strike: j)
                list.append(SessionEvent(kind: .strike, frame: last, cycle: c, strike: j))
            }
        }
        list.append(SessionEvent(kind: .fadeOut, frame: last, cycle: c))
        let end = withBell ? endFrame(lastStrike: last) : last + fadeOutFrames
        list.append(SessionEvent(kind: .end, frame: end, cycle: c))
        list.sortByFrame()
    }

    // MARK: - Interval bells

    /// The span of one interval bell, first strike to last: `(k_i - 1) * s`.
    public var intervalSpan: FrameCount { FrameCount(intervalStrikes - 1) * spacingFrames }

    /// Whether the plan has interval bells.
    public var hasIntervals: Bool { intervalFrames != nil || !intervalAtFrames.isEmpty }

    /// The first strike of the next interval bell of cycle `c` from candidate `index` on (0: the first), for a
    /// sitting that ends (its transition or closing group starts) on `sittingEnd`: the candidate's index and frame,
    /// or `nil` when the cycle has none left.
    ///
    /// Candidates are `S_c + t` for `t` = `N, 2N, 3N, ...` (``intervalFrames``) or each listed time
    /// (``intervalAtFrames``). One whose strikes would overlap a group's span is skipped: in cycle 1 it must start
    /// after the opening group's last strike, and its own last strike must come before `sittingEnd`.
    ///
    /// - Real-time safe: yes (no allocation; a few candidates are skipped at most, around the groups).
    public func nextInterval(cycle c: Int, from index: Int, sittingEnd: FramePosition) -> (
        index: Int, frame: FramePosition
    )? {
        let start = cycleStart(c)
        var i = max(0, index)
        while true {
            let offset: FrameCount
            if let n = intervalFrames {
                offset = FrameCount(i + 1) * n
            } else if i < intervalAtFrames.count {
                offset = intervalAtFrames[i]
            } else {
                return nil
            }
            let g = start + offset
            if g >= sittingEnd { return nil }
            if g + intervalSpan < sittingEnd && (c != 1 || g > groupSpan) { return (i, g) }
            i += 1
        }
    }

    /// The first interval strike of cycle `c` after session frame `frame`, for a sitting that ends on `sittingEnd`
    /// (`nil`: none left in the cycle): the status's next bell and next event, which must not skip an interval bell.
    ///
    /// The strikes are those ``nextInterval(cycle:from:sittingEnd:)`` gives the engine, each group's `k_i` strikes
    /// `s` apart, so the answer is the strike the engine plays next.
    ///
    /// - Real-time safe: yes (no allocation; the first candidate is computed, not searched, for `interval`).
    public func nextIntervalStrike(cycle c: Int, after frame: FramePosition, sittingEnd: FramePosition)
        -> SessionEvent?
    {
        guard hasIntervals else { return nil }
        var from = 0
        if let n = intervalFrames {
            // Candidates before this one have their last strike at or before `frame`.
            from = max(0, Int((frame - cycleStart(c) - intervalSpan) / n) - 1)
        }
        // Groups may overlap (strikes spaced wider than the interval): the earliest strike of any group still ringing,
        // up to the first group that starts after the best found.
        var best: SessionEvent?
        var next = nextInterval(cycle: c, from: from, sittingEnd: sittingEnd)
        while let (i, g) = next, best.map({ g < $0.frame }) ?? true {
            if g + intervalSpan > frame {
                let j = frame < g ? 1 : Int((frame - g) / spacingFrames) + 2
                let f = strikeFrame(groupStart: g, strike: j)
                if best.map({ f < $0.frame }) ?? true {
                    best = SessionEvent(kind: .strike, frame: f, cycle: c, strike: j, group: .interval)
                }
            }
            next = nextInterval(cycle: c, from: i + 1, sittingEnd: sittingEnd)
        }
        return best
    }

    /// Appends cycle `c`'s interval strikes (their sitting ending on `sittingEnd`) to `out`.
    func intervalEvents(ofCycle c: Int, sittingEnd: FramePosition, into out: inout [SessionEvent]) {
        var next = nextInterval(cycle: c, from: 0, sittingEnd: sittingEnd)
        while let (i, g) = next {
            for j in 1...intervalStrikes {
                out.append(
                    SessionEvent(
                        kind: .strike, frame: strikeFrame(groupStart: g, strike: j), cycle: c, strike: j,
                        group: .interval))
            }
            next = nextInterval(cycle: c, from: i + 1, sittingEnd: sittingEnd)
        }
    }

    /// Every event of the first `cycles` cycles (all cycles when `nil` and the count is finite); with `limit`, no
    /// cycle after the one that takes the list past `limit` events (so a list longer than `limit` says there are
    /// more, and a plan of a thousand day-long cycles with a bell every 5 s is not listed whole to learn it).
    ///
    /// - Precondition: `cycles` is given, or the plan has a finite cycle count.
    public func events(cycles: Int? = nil, atMost limit: Int? = nil) -> [SessionEvent] {
        guard let n = cycles ?? cycleCount else { preconditionFailure("an until-stopped timeline needs a cycle limit") }
        var out: [SessionEvent] = []
        var list = SessionEventList()
        for c in 1...max(1, min(n, cycleCount ?? n)) {
            events(ofCycle: c, into: &list)
            var cycle: [SessionEvent] = []
            for i in 0..<list.count { cycle.append(list[i]) }
            if hasIntervals {
                intervalEvents(ofCycle: c, sittingEnd: cycleEnd(c), into: &cycle)
                // Stable by frame: on a shared frame the plan's own events come first.
                cycle = cycle.enumerated().sorted { ($0.element.frame, $0.offset) < ($1.element.frame, $1.offset) }.map(
                    \.element)
            }
            out += cycle
            if let limit, out.count > limit { break }
        }
        return out
    }
}
