import AudioCore

extension SessionEngine {
    /// Writes the next `frames` interleaved stereo frames of the session into `buffer`.
    ///
    /// Applies pending commands first, then mixes; timeline events inside the block start on their exact
    /// frame. After the end the engine writes silence.
    ///
    /// - Thread safety: one render thread at a time.
    /// - Real-time safe: yes: no allocation, no lock, no I/O (after ``prepare(maxFrames:)``).
    public func render(into buffer: UnsafeMutablePointer<Float>, frames: Int) {
        flushGraveyard()
        while let command = commands.pop() { apply(command) }
        var done = 0
        while done < frames {
            applyDueThemes()
            var n = min(frames - done, maxFrames)
            // A chunk ends on the next timed theme change while the session clock runs.
            if renderState == .playing, let next = timedThemes.first?.frame, next > sessionFrameRT {
                n = Int(min(FramePosition(n), next - sessionFrameRT))
            }
            renderChunk(buffer + 2 * done, n)
            done += n
        }
        atomicSessionFrame.store(sessionFrameRT, ordering: .releasing)
        atomicOutputFrame.store(outputFrameRT, ordering: .releasing)
        atomicState.store(renderState.rawValue, ordering: .releasing)
        atomicCycle.store(scheduleCycle, ordering: .relaxed)
    }

    // MARK: - Commands

    func apply(_ command: EngineCommand) {
        switch command {
        case .pause:
            guard renderState == .playing else { return }
            renderState = .pausing
            transportStep = -1 / Float(pauseFadeFrames)
            pausedAtOutput = outputFrameRT
            report(.paused(sessionFrame: sessionFrameRT, outputFrame: outputFrameRT))
        case .resume:
            guard renderState == .pausing || renderState == .paused else { return }
            resumeTransport()
            retargetUntil()
        case .stop(let withBell):
            guard renderState != .ended else { return }
            if closing {
                guard !withBell, !silencing else { return }
                silencing = true
                // Paused: already silent, so the end comes now. Otherwise (or mid pause fade) the de-click fade
                // runs down and ``renderChunk`` ends the session when it reaches 0.
                if renderState == .paused {
                    finish()
                } else {
                    transportStep = -1 / Float(pauseFadeFrames)
                }
                return
            }
            if renderState == .pausing || renderState == .paused {
                guard withBell else {
                    // Without the bell, a pause (or its de-click fade) is silent already, and the session ends there:
                    // resuming only brought the ambient back to fade it out (a sitter who paused into silence and
                    // chose to end heard the soundscape return for the plan's whole fade-out).
                    closing = true
                    silencing = true
                    pendingInterval = nil
                    report(.stopping(sessionFrame: sessionFrameRT, outputFrame: outputFrameRT, withBell: false))
                    if renderState == .paused { finish() } else { transportStep = -1 / Float(pauseFadeFrames) }
                    return
                }
                // Stop with the bell while paused ends the session now: the clock runs again (with the resume
                // de-click fade) so the closing group and fade-out play from the paused frame.
                resumeTransport()
            }
            closing = true
            pendingInterval = nil
            timeline.closingEvents(at: sessionFrameRT, cycle: scheduleCycle, withBell: withBell, into: &schedule)
            scheduleIndex = 0
            noteScheduledEnd()
            report(.stopping(sessionFrame: sessionFrameRT, outputFrame: outputFrameRT, withBell: withBell))
        case .setTheme(let asset, let requested):
            guard renderState != .ended else {
                if let a = asset { retire(a) }
                return
            }
            // A crossfade of 0 still ramps (the de-click length): a cut from one tone to another steps.
            let crossfade = max(requested, Int(timeline.declickFrames))
            for v in 0..<Self.ambientSlots where ambients[v].isActive && !ambients[v].isFadingOut {
                ambients[v].fadeOut(fadeFrames: crossfade)
            }
            if let a = asset {
                let slot = freeAmbientSlot()
                ambients[slot].start(a, fadeFrames: crossfade, declickFrames: Int(timeline.declickFrames))
            }
            report(.themeChanged(id: asset?.id, outputFrame: outputFrameRT))
        case .setThemeAt(let asset, let frame, let crossfade):
            guard renderState != .ended, timedThemes.count < Self.maximumTimedThemes else {
                if renderState != .ended { droppedCommands.increment() }
                if let a = asset { retire(a) }
                return
            }
            // Stable: after every change already held for the same frame (no allocation: capacity is reserved).
            let index = timedThemes.firstIndex { $0.frame > frame } ?? timedThemes.count
            timedThemes.insert(TimedTheme(frame: frame, asset: asset, crossfadeFrames: crossfade), at: index)
        case .setVolume(let bus, let value, let requested):
            // A jump is a step in the output: the shortest ramp is the de-click length.
            let ramp = max(requested, Int(timeline.declickFrames))
            switch bus {
            case .ambient: ambientGain.ramp(to: value, frames: ramp)
            case .bell: bellGain.ramp(to: value, frames: ramp)
            case .master: masterGain.ramp(to: value, frames: ramp)
            }
        case .strike(let asset):
            let a = asset ?? assets.bell
            guard renderState != .ended else {
                if asset != nil { retire(a) }
                return
            }
            startBell(a, offset: 0)
            report(.manualStrike(sessionFrame: sessionFrameRT, outputFrame: outputFrameRT))
        }
    }

    /// Applies the timed theme changes whose session frame has come.
    private func applyDueThemes() {
        while let first = timedThemes.first, first.frame <= sessionFrameRT {
            timedThemes.removeFirst()
            apply(.setTheme(first.asset, crossfadeFrames: first.crossfadeFrames))
        }
    }

    /// A free ambient slot for a new voice.
    ///
    /// When ``audibleAmbients`` voices already sound, the quietest of them is released in the de-click ramp
    /// (it keeps its slot until that ramp is done). Only when every slot is taken (more than four switches
    /// within one de-click ramp) is the quietest voice cut.
    private func freeAmbientSlot() -> Int {
        var free = -1
        var sounding = 0
        var quietest = -1
        var quietestAny = 0
        var level: Float = .infinity
        var levelAny: Float = .infinity
        let declick = Int(timeline.declickFrames)
        for v in 0..<Self.ambientSlots {
            guard ambients[v].isActive else {
                if free < 0 { free = v }
                continue
            }
            let x = ambients[v].level
            if x < levelAny {
                levelAny = x
                quietestAny = v
            }
            if ambients[v].isReleasing(within: declick) { continue }
            sounding += 1
            if x < level {
                level = x
                quietest = v
            }
        }
        if sounding >= Self.audibleAmbients && quietest >= 0 { ambients[quietest].fadeOut(fadeFrames: declick) }
        if free >= 0 { return free }
        endAmbient(quietestAny)
        return quietestAny
    }

    private func endAmbient(_ v: Int) {
        // A stream that ends starved still reports the frames it missed.
        if ambients[v].starved && ambients[v].missedFrames > 0 {
            ambients[v].underrunToReport = ambients[v].missedFrames
            reportUnderrun(v)
        }
        if let a = ambients[v].asset { retire(a) }
        ambients[v] = AmbientVoice()
    }

    private func endBell(_ v: Int) {
        if let a = bells[v].asset, a !== assets.bell, a !== intervalBell { retire(a) }
        bells[v] = BellVoice()
    }

    /// Starts a bell voice `offset` frames into the current chunk, stealing the oldest when
    /// ``Configuration/polyphony`` voices already ring.
    func startBell(_ asset: LoadedAsset, offset: Int, gain: Float = 1) {
        var ringing = 0
        var oldest = -1
        var free = -1
        var shortestRelease = -1
        for v in 0..<bellSlots {
            if !bells[v].isActive {
                if free < 0 { free = v }
            } else if bells[v].isReleasing {
                if shortestRelease < 0 || bells[v].releaseLeft < bells[shortestRelease].releaseLeft {
                    shortestRelease = v
                }
            } else {
                ringing += 1
                if oldest < 0 || bells[v].serial < bells[oldest].serial { oldest = v }
            }
        }
        if ringing >= Self.polyphony && oldest >= 0 {
            bells[oldest].release(offset: offset, length: stealFadeFrames)
        }
        if free < 0 {
            // Every slot rings or releases: cut the release closest to silence.
            free = shortestRelease >= 0 ? shortestRelease : oldest
            endBell(free)
        }
        voiceSerial += 1
        bells[free].start(asset, offset: offset, serial: voiceSerial, gain: gain)
    }

    // MARK: - Events and retired assets

    func report(_ event: EngineEvent) {
        if events.push(event) != nil { droppedEvents.increment() }
    }

    /// Reports the underrun voice `v` has to report (its frames missed), on the current chunk's first frame.
    private func reportUnderrun(_ v: Int) {
        if let a = ambients[v].asset {
            report(
                .streamUnderrun(
                    id: a.id, missedFrames: FrameCount(ambients[v].underrunToReport), outputFrame: outputFrameRT))
        }
        ambients[v].underrunToReport = 0
    }

    /// Hands `asset` back to the control side (never releases it here).
    func retire(_ asset: LoadedAsset) {
        if events.push(.retired(asset)) == nil { return }
        if graveyardCount < Self.graveyardSlots {
            graveyard[graveyardCount] = asset
            graveyardCount += 1
        } else {
            droppedEvents.increment()
        }
    }

    private func flushGraveyard() {
        while graveyardCount > 0 {
            guard let a = graveyard[graveyardCount - 1], events.push(.retired(a)) == nil else { return }
            graveyardCount -= 1
            graveyard[graveyardCount] = nil
        }
    }

    // MARK: - Mixing

    private func renderChunk(_ out: UnsafeMutablePointer<Float>, _ n: Int) {
        if renderState == .paused || renderState == .ended {
            MixKernels.fill(out, 0, 2 * n)
            outputFrameRT += FramePosition(n)
            return
        }
        let busL = scratch
        let busR = scratch + maxFrames
        let common = scratch + 2 * maxFrames
        let ambGain = scratch + 3 * maxFrames
        let bellG = scratch + 4 * maxFrames
        let voiceScratch = scratch + 5 * maxFrames
        let advancing = renderState == .playing
        let base = sessionFrameRT

        // Timeline events inside this chunk (only while the session clock runs).
        var endOffset: Int? = nil
        if advancing {
            endOffset = dispatchEvents(from: base, count: n)
        }

        // Gains: common = master * transport; ambient = common * volume * fades; bell = common * volume.
        // When nothing ramps or fades in this chunk the gains are scalars (the common case).
        let steady =
            masterGain.isSteady && ambientGain.isSteady && bellGain.isSteady && transportStep == 0
            && !fadesApply(n, base: base, advancing: advancing) && !endRampApplies(n, base: base, advancing: advancing)
        var ambientScalar: Float = 0
        var bellScalar: Float = 0
        if steady {
            // Same operation order as the per-frame path, so both give bit-identical gains.
            let c = masterGain.value * transport
            ambientScalar = (ambientGain.value * fadeLevel(at: base)) * c
            bellScalar = bellGain.value * c
            MixKernels.fill(bellG, bellScalar, n)  // for voices releasing with a per-frame fade
        } else {
            MixKernels.fill(common, 1, n)
            masterGain.multiply(into: common, count: n)
            applyTransport(common, n)
            applyEndRamp(common, n, base: base, advancing: advancing)
            MixKernels.fill(ambGain, 1, n)
            ambientGain.multiply(into: ambGain, count: n)
            applyFades(ambGain, n, base: base, advancing: advancing)
            MixKernels.multiply(ambGain, ambGain, common, n)
            MixKernels.fill(bellG, 1, n)
            bellGain.multiply(into: bellG, count: n)
            MixKernels.multiply(bellG, bellG, common, n)
        }

        MixKernels.fill(busL, 0, n)
        MixKernels.fill(busR, 0, n)
        for v in 0..<Self.ambientSlots where ambients[v].isActive {
            let alive =
                steady
                ? ambients[v].render(left: busL, right: busR, gain: ambientScalar, scratch: voiceScratch, count: n)
                : ambients[v].render(left: busL, right: busR, gain: ambGain, scratch: voiceScratch, count: n)
            if ambients[v].underrunToReport > 0 { reportUnderrun(v) }
            if !alive { endAmbient(v) }
        }
        for v in 0..<bellSlots where bells[v].isActive {
            if !bells[v].render(left: busL, right: busR, gain: bellG, scalar: steady ? bellScalar : nil, count: n) {
                endBell(v)
            }
        }
        if let end = endOffset {
            MixKernels.fill(busL + end, 0, n - end)
            MixKernels.fill(busR + end, 0, n - end)
            finish()
        }
        MixKernels.clipInterleave(out, busL, busR, n)

        outputFrameRT += FramePosition(n)
        if advancing { sessionFrameRT = base + FramePosition(endOffset ?? n) }
        if silencing && transport <= 0 && renderState != .ended { finish() }
        if renderState == .pausing && transport <= 0 { renderState = .paused }
    }

    /// Handles the timeline events in session frames `base ..< base + n` (and an end event on
    /// `base + n`, so that a session rendered to exactly its end frame ends); returns the chunk offset of
    /// the end event, or `nil`.
    private func dispatchEvents(from base: FramePosition, count n: Int) -> Int? {
        let limit = base + FramePosition(n)
        while true {
            // The next event: the schedule's, or the next interval strike when it comes first (ties: the schedule's).
            let fromSchedule =
                scheduleIndex < schedule.count
                && (pendingInterval.map { schedule[scheduleIndex].frame <= $0.frame } ?? true)
            guard fromSchedule || pendingInterval != nil else { break }
            let e = fromSchedule ? schedule[scheduleIndex] : pendingInterval!
            if e.frame > limit || (e.frame == limit && e.kind != .end) { break }
            let offset = Int(max(0, e.frame - base))
            if !fromSchedule {
                report(.timeline(e, outputFrame: outputFrameRT + FramePosition(offset)))
                startBell(intervalBell, offset: offset, gain: intervalGain)
                advanceInterval()
                continue
            }
            scheduleIndex += 1
            report(.timeline(e, outputFrame: outputFrameRT + FramePosition(offset)))
            switch e.kind {
            case .strike:
                startBell(assets.bell, offset: offset)
            case .cycleStart:
                scheduleCycle = e.cycle
            case .cycleEnd:
                if isLastCycle(e.cycle) {
                    closing = true
                    pendingInterval = nil
                }
            case .fadeOut:
                fadeOutStart = e.frame
            case .end:
                return offset
            case .breath, .fadeIn:
                break
            }
            if scheduleIndex == schedule.count && !closing && !isLastCycle(listedCycle) {
                listedCycle += 1
                timeline.events(
                    ofCycle: listedCycle, closingCycle: lastCycleRT, closingAt: closingAtRT, into: &schedule)
                scheduleIndex = 0
                noteScheduledEnd()
            }
        }
        return nil
    }

    /// Multiplies the pause/resume de-click ramp into `gains`.
    private func applyTransport(_ gains: UnsafeMutablePointer<Float>, _ n: Int) {
        if transportStep == 0 {
            if transport != 1 { MixKernels.scale(gains, transport, n) }
            return
        }
        for i in 0..<n {
            moveTransport(by: transportStep)
            gains[i] *= transport
        }
    }

    /// Moves the pause/resume de-click ramp by `delta`, stopping it when it reaches 0 (paused) or 1 (playing).
    @inline(__always)
    func moveTransport(by delta: Float) {
        transport += delta
        if transport >= 1 {
            transport = 1
            transportStep = 0
        } else if transport <= 0 {
            transport = 0
            transportStep = 0
        }
    }

    /// Plays again: starts the resume de-click ramp and reports the frames the pause lasted.
    private func resumeTransport() {
        renderState = .playing
        transportStep = 1 / Float(pauseFadeFrames)
        report(
            .resumed(
                sessionFrame: sessionFrameRT, outputFrame: outputFrameRT, pausedFrames: outputFrameRT - pausedAtOutput))
    }

    /// The sitting end of cycle `c` as the engine now sees it (an until-plan's last cycle closes on ``closingAtRT``).
    private func sittingEnd(of c: Int) -> FramePosition {
        if isLastCycle(c), let at = closingAtRT { return at }
        return timeline.cycleStart(c) + timeline.sittingFrames
    }

    /// Sets ``pendingInterval`` to the first strike of the next interval bell from candidate `index` of cycle `c`
    /// on (moving to later cycles while they have none), or `nil`.
    ///
    /// - Real-time safe: yes (no allocation; at most a few cycles are looked at: a regular cycle without an interval
    ///   bell means none until the last, which an until-plan may have made longer).
    func scheduleInterval(cycle c: Int, from index: Int) {
        pendingInterval = nil
        guard timeline.hasIntervals, !closing else { return }
        var cycle = c
        var i = index
        while lastCycleRT.map({ cycle <= $0 }) ?? true {
            if let next = timeline.nextInterval(cycle: cycle, from: i, sittingEnd: sittingEnd(of: cycle)) {
                intervalIndex = next.index
                pendingInterval = SessionEvent(
                    kind: .strike, frame: next.frame, cycle: cycle, strike: 1, group: .interval)
                return
            }
            if i == 0 && cycle > 1 && !isLastCycle(cycle) {
                guard let last = lastCycleRT, timeline.untilFrame != nil, last > cycle else { return }
                cycle = last
            } else {
                cycle += 1
            }
            i = 0
        }
    }

    /// Moves ``pendingInterval`` to the interval bell's next strike, or to the next interval bell.
    private func advanceInterval() {
        guard let e = pendingInterval else { return }
        if e.strike < timeline.intervalStrikes {
            pendingInterval = SessionEvent(
                kind: .strike, frame: e.frame + timeline.spacingFrames, cycle: e.cycle, strike: e.strike + 1,
                group: .interval)
        } else {
            scheduleInterval(cycle: e.cycle, from: intervalIndex + 1)
        }
    }

    /// Whether cycle `c` closes the session (as the engine now sees it: pauses move an until-plan's close).
    func isLastCycle(_ c: Int) -> Bool { lastCycleRT.map { c >= $0 } ?? false }

    /// Keeps an until-plan's closing group on its clock time after a pause (docs/engine.md, "Until-time rules").
    ///
    /// The clock time is `U` output frames from the start; with `p` frames paused so far it falls on session frame
    /// `U - p`, so the close moves there (``SessionTimeline/untilLayout(target:)``: the last cycle shortens, or folds
    /// into the one before). When that is in the current cycle's sitting, the closing group starts on it (now, if
    /// the pauses ate past it); when the current cycle's transition group has already begun (or rung, in its
    /// breath), that group closes the session instead of starting another cycle.
    func retargetUntil() {
        guard let u = timeline.untilFrame, !closing else { return }
        defer {
            if let last = lastCycleRT {
                atomicClosingFrame.store(
                    closingAtRT ?? timeline.cycleStart(last) + timeline.sittingFrames, ordering: .releasing)
            }
            // The close moved: the interval bell due next is judged again against the new sitting end (one already
            // ringing its strikes finishes them).
            if let e = pendingInterval, e.strike == 1 { scheduleInterval(cycle: e.cycle, from: intervalIndex) }
            if closing { pendingInterval = nil }
        }
        let now = sessionFrameRT
        let layout = timeline.untilLayout(target: u - (outputFrameRT - sessionFrameRT))
        let c = listedCycle
        if layout.cycle > c {
            lastCycleRT = layout.cycle
            closingAtRT = layout.end
            return
        }
        var endPassed = false
        for i in 0..<scheduleIndex where schedule[i].kind == .cycleEnd { endPassed = true }
        let inBreath = listedCycle > scheduleCycle
        if !endPassed && (layout.cycle == c || !inBreath) {
            // In cycle c's sitting (or the breath before it, with the close inside c): close in c.
            var at = max(layout.cycle == c ? layout.end : now, now)
            // Never inside the opening group: the close waits a spacing after its last strike.
            if c == 1 { at = max(at, timeline.groupSpan + timeline.spacingFrames) }
            relist(cycle: c, closingAt: at, now: now)
        } else if endPassed {
            // Cycle c's transition group has begun: it becomes the closing group.
            relist(cycle: c, closingAt: timeline.cycleStart(c) + timeline.sittingFrames, now: now)
            closing = true
        } else {
            // In the breath after cycle `scheduleCycle`'s transition group: that group was the last; fade out now.
            let c0 = scheduleCycle
            let lastStrike = timeline.cycleStart(c0) + timeline.sittingFrames + timeline.groupSpan
            schedule.removeAll()
            schedule.append(SessionEvent(kind: .fadeOut, frame: now, cycle: c0))
            schedule.append(
                SessionEvent(
                    kind: .end, frame: max(now + timeline.fadeOutFrames, timeline.endFrame(lastStrike: lastStrike)),
                    cycle: c0))
            scheduleIndex = 0
            listedCycle = c0
            lastCycleRT = c0
            closingAtRT = now
            closing = true
            noteScheduledEnd()
        }
    }

    /// Lists cycle `c` again as the last, closing on `closingAt`, and skips what has already been dispatched.
    private func relist(cycle c: Int, closingAt: FramePosition, now: FramePosition) {
        lastCycleRT = c
        closingAtRT = closingAt
        timeline.events(ofCycle: c, closingCycle: c, closingAt: closingAt, into: &schedule)
        scheduleIndex = 0
        while scheduleIndex < schedule.count && schedule[scheduleIndex].frame < now { scheduleIndex += 1 }
        noteScheduledEnd()
    }

    /// Records the end event of the schedule just written, if it has one (for the end ramp).
    func noteScheduledEnd() {
        for i in 0..<schedule.count where schedule[i].kind == .end { endFrameRT = schedule[i].frame }
    }

    /// Whether the end ramp (the de-click frames before the scheduled end) covers part of this chunk.
    private func endRampApplies(_ n: Int, base: FramePosition, advancing: Bool) -> Bool {
        guard endFrameRT != .max else { return false }
        let last = base + FramePosition(advancing ? n - 1 : 0)
        return last >= endFrameRT - timeline.declickFrames
    }

    /// Multiplies the end ramp into `gains`: a raised cosine over the ``SessionTimeline/declickFrames`` before
    /// the end, from 1 down to exactly 0 on the session's last frame (so the output ends on a 0, whatever rings).
    private func applyEndRamp(_ gains: UnsafeMutablePointer<Float>, _ n: Int, base: FramePosition, advancing: Bool) {
        guard endRampApplies(n, base: base, advancing: advancing) else { return }
        let length = timeline.declickFrames
        for i in 0..<n {
            let f = advancing ? base + FramePosition(i) : base
            let left = endFrameRT - 1 - f
            if left >= length { continue }
            gains[i] *= left <= 0 ? 0 : DeclickRamp.gain(Float(Double(left) / Double(length)))
        }
    }

    /// Whether the fade-in or fade-out envelope changes anywhere in this chunk.
    private func fadesApply(_ n: Int, base: FramePosition, advancing: Bool) -> Bool {
        let last = base + FramePosition(advancing ? n - 1 : 0)
        if base < timeline.fadeInFrames { return true }
        if let start = fadeOutStart, last >= start { return base - start < timeline.fadeOutFrames }
        return false
    }

    /// The fade envelope at session frame `f` (1 outside the fades, 0 after the fade-out).
    private func fadeLevel(at f: FramePosition) -> Float {
        if f < timeline.fadeInFrames {
            return CrossfadeCurve.quarterSine(Float(Double(f) / Double(timeline.fadeInFrames)))
        }
        if let start = fadeOutStart, f >= start { return f - start >= timeline.fadeOutFrames ? 0 : 1 }
        return 1
    }

    /// Multiplies the session fade-in and fade-out envelope (equal-power quarter sine) into `gains`.
    private func applyFades(_ gains: UnsafeMutablePointer<Float>, _ n: Int, base: FramePosition, advancing: Bool) {
        let fadeIn = timeline.fadeInFrames
        let fadeOut = timeline.fadeOutFrames
        let last = base + FramePosition(advancing ? n - 1 : 0)
        let inFadeIn = base < fadeIn
        let inFadeOut = fadeOutStart.map { last >= $0 } ?? false
        if !inFadeIn && !inFadeOut { return }
        for i in 0..<n {
            let f = advancing ? base + FramePosition(i) : base
            var g: Float = 1
            if f < fadeIn { g = CrossfadeCurve.quarterSine(Float(Double(f) / Double(fadeIn))) }
            if let start = fadeOutStart, f >= start {
                let done = f - start
                g *= done >= fadeOut ? 0 : CrossfadeCurve.quarterSine(Float(1 - Double(done) / Double(fadeOut)))
            }
            gains[i] *= g
        }
    }

    /// The end: silence from here on; every voice stops and hands back its asset.
    private func finish() {
        renderState = .ended
        for v in 0..<Self.ambientSlots where ambients[v].isActive { endAmbient(v) }
        for v in 0..<bellSlots where bells[v].isActive { endBell(v) }
    }
}
