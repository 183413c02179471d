import AudioCore
import Synchronization

/// The real-time session player: renders a ``SessionTimeline`` with its bell and ambient theme into
/// interleaved stereo `Float` buffers, one block at a time, on the caller's thread.
///
/// A device output (or ``OfflineRenderer``) calls ``render(into:frames:)`` on its render thread; one
/// control thread sends commands (``pause()``, ``resume()``, ``stop(withBell:)``,
/// ``setTheme(_:crossfadeFrames:)``, ``setVolume(_:_:rampFrames:)``, ``strike(_:)``) through a lock-free
/// SPSC queue and reads events back with ``pollEvent()``. Commands take effect at the start of the next
/// rendered block; timeline events are sample-accurate (a strike's first sample is the asset's first
/// sample, on its planned frame, whatever the block size).
///
/// Two clocks: ``outputFrame`` counts every rendered frame; ``sessionFrame`` counts sat time and stops
/// while paused, so every event after a resume moves by exactly the paused frames. After a device stall,
/// ``skip(lostFrames:)`` (``WallClockSource``) moves both on by the lost wall time, so later events keep
/// their wall-clock times.
///
/// The mixer: up to 4 sounding ambient voices (the theme and themes crossfading out, equal-power; 8 slots, so a
/// fifth releases the quietest in a 20 ms ramp) on the ambient
/// bus; up to ``Configuration/polyphony`` bell voices (the oldest is stolen with a 5 ms fade) on the bell
/// bus; master gain; the ``SoftClipper``. No look-ahead anywhere. Every start, stop, cut and switch ramps over at
/// least ``SessionTimeline/declickFrames`` (20 ms), and the last frame of a session is exactly 0 (docs/engine.md,
/// "Transitions").
///
/// - Thread safety: ``render(into:frames:)`` and ``skip(lostFrames:)`` from one render thread at a time; the command methods and
///   ``pollEvent()`` from one control thread at a time (they may be the same thread, as offline);
///   ``state``, ``outputFrame``, ``sessionFrame`` and ``currentCycle`` from any thread.
/// - Real-time safe: ``render(into:frames:)``, ``skip(lostFrames:)`` and the command methods are (after ``prepare(maxFrames:)``);
///   `init` and `prepare` are not.
public final class SessionEngine: RenderSource, @unchecked Sendable {
    // MARK: Fixed sizes and times of the mixer

    /// Bell voices that may ring at once; the next strike steals the oldest.
    public static let polyphony = 16
    /// Pause and resume de-click fade, seconds.
    static let pauseFade = 0.020
    /// Fade of a stolen bell voice, seconds.
    static let stealFade = 0.005
    /// Capacity of the command queue (commands beyond it are refused, see ``SessionEngine/droppedCommands``).
    static let commandCapacity = 256
    /// Capacity of the event queue (events beyond it are counted in ``SessionEngine/droppedEvents``).
    static let eventCapacity = 4096

    /// The rate of the output and of every asset.
    public let sampleRate: SampleRate
    /// The session's frames.
    public let timeline: SessionTimeline
    /// The assets the engine started with (kept alive for the engine's lifetime).
    public let assets: EngineAssets
    /// Always 2: the engine renders interleaved stereo.
    public let channelCount = 2

    /// Commands the queue refused because it was full.
    public let droppedCommands = RealtimeCounter()
    /// Events the render thread could not report because the event queue was full.
    public let droppedEvents = RealtimeCounter()

    let commands: SPSCQueue<EngineCommand>
    let events: SPSCQueue<EngineEvent>
    let atomicOutputFrame = Atomic<Int64>(0)
    let atomicSessionFrame = Atomic<Int64>(0)
    let atomicState = Atomic<UInt8>(EngineState.playing.rawValue)
    let atomicCycle = Atomic<Int>(1)
    /// The session frame the closing group starts on, `-1` for none (until stopped).
    let atomicClosingFrame = Atomic<Int64>(-1)

    // MARK: Render-thread state (touched only inside render)

    var maxFrames = 0
    var scratch: UnsafeMutablePointer<Float>
    var bells: UnsafeMutablePointer<BellVoice>
    let bellSlots: Int
    var ambients: UnsafeMutablePointer<AmbientVoice>
    /// Ambient voice slots: 4 may sound at once (``audibleAmbients``); the others hold voices being
    /// released in a de-click ramp, so a fifth theme never cuts one off.
    static let ambientSlots = 8
    /// Ambient voices that may sound at once; starting one more releases the quietest in a de-click ramp.
    static let audibleAmbients = 4
    var graveyard: UnsafeMutablePointer<LoadedAsset?>
    static let graveyardSlots = 64
    var graveyardCount = 0
    /// Theme changes waiting for their session frame, sorted by frame (capacity ``maximumTimedThemes``, reserved
    /// in `init` so inserting never allocates on the render thread).
    var timedThemes: [TimedTheme] = []
    /// The most theme changes ``setTheme(_:atSessionFrame:crossfadeFrames:)`` holds at once.
    public static let maximumTimedThemes = 32

    var renderState = EngineState.playing
    var outputFrameRT: FramePosition = 0
    var sessionFrameRT: FramePosition = 0
    var schedule = SessionEventList()
    var scheduleIndex = 0
    var scheduleCycle = 1
    /// The cycle whose events `schedule` holds (one ahead of ``scheduleCycle`` during a breath).
    var listedCycle = 1
    /// The cycle that closes the session (`nil`: until stopped), and for an until-plan the session frame its
    /// closing group starts on: the timeline's, moved back by the paused frames at every resume.
    var lastCycleRT: Int?
    var closingAtRT: FramePosition?
    /// The next interval strike (`nil`: none left, or closing): its event, its group's cycle and candidate index.
    var pendingInterval: SessionEvent?
    var intervalIndex = 0
    /// The interval bell (the plan's bell unless the assets give one) and its gain.
    let intervalBell: LoadedAsset
    let intervalGain: Float
    var closing = false
    /// A stop without a bell came while closing: the 20 ms de-click fade runs, then the end.
    var silencing = false
    var fadeOutStart: FramePosition? = nil
    /// The session frame of the scheduled end (`.max` until a schedule holds one): the de-click end ramp
    /// runs over the ``SessionTimeline/declickFrames`` before it, so the last frame is exactly 0.
    var endFrameRT: FramePosition = .max
    var transport: Float = 1
    var transportStep: Float = 0
    var pausedAtOutput: FramePosition = 0
    var voiceSerial = 0
    var masterGain: GainRamp
    var ambientGain: GainRamp
    var bellGain: GainRamp
    let pauseFadeFrames: Int
    let stealFadeFrames: Int

    // MARK: Control-side state

    /// The streams this engine opened (weakly: a stream lives as long as its play), for ``pullStreams()``.
    var openedStreams: [WeakStream] = []

    /// Creates an engine for `timeline` with `assets`, ready to render blocks of up to 4096 frames.
    ///
    /// - Parameters:
    ///   - timeline: the session's frames (its rate is the engine rate).
    ///   - assets: the bell and optional ambient theme, at the engine rate.
    ///   - volumes: initial ambient, bell and master gains (0...1, as in ``SessionPlan``), and the interval bell's.
    /// - Throws: ``EnsoError`` `.unsupported` when an asset's rate differs from the timeline's
    ///   (resample it first).
    public init(
        timeline: SessionTimeline, assets: EngineAssets,
        volumes: (ambient: Double, bell: Double, master: Double, interval: Double)
    ) throws(EnsoError) {
        for asset in [assets.bell] + [assets.ambient, assets.interval].compactMap({ $0 })
        where asset.sampleRate != timeline.sampleRate {
            throw EnsoError(
                .unsupported,
                "\(asset.id): \(asset.sampleRate.hertz) Hz audio in a \(timeline.sampleRate.hertz) Hz engine; resample it first"
            )
        }
        sampleRate = timeline.sampleRate
        self.timeline = timeline
        self.assets = assets
        commands = SPSCQueue(minimumCapacity: Self.commandCapacity)
        events = SPSCQueue(minimumCapacity: Self.eventCapacity)
        bellSlots = Self.polyphony * 2
        bells = .allocate(capacity: bellSlots)
        bells.initialize(repeating: BellVoice(), count: bellSlots)
        ambients = .allocate(capacity: Self.ambientSlots)
        ambients.initialize(repeating: AmbientVoice(), count: Self.ambientSlots)
        graveyard = .allocate(capacity: Self.graveyardSlots)
        graveyard.initialize(repeating: nil, count: Self.graveyardSlots)
        scratch = .allocate(capacity: 1)
        masterGain = GainRamp(Float(SessionPlan.clamp(volumes.master, SessionPlan.volumeRange)))
        ambientGain = GainRamp(Float(SessionPlan.clamp(volumes.ambient, SessionPlan.volumeRange)))
        bellGain = GainRamp(Float(SessionPlan.clamp(volumes.bell, SessionPlan.volumeRange)))
        pauseFadeFrames = max(1, Int(timeline.sampleRate.frames(seconds: Self.pauseFade)))
        stealFadeFrames = max(1, Int(timeline.sampleRate.frames(seconds: Self.stealFade)))
        lastCycleRT = timeline.cycleCount
        closingAtRT = timeline.untilFrame
        atomicClosingFrame.store(timeline.cycleCount.map { timeline.cycleEnd($0) } ?? -1, ordering: .relaxed)
        intervalBell = assets.interval ?? assets.bell
        intervalGain = Float(SessionPlan.clamp(volumes.interval, SessionPlan.volumeRange))
        timeline.events(ofCycle: 1, into: &schedule)
        noteScheduledEnd()
        scheduleInterval(cycle: 1, from: 0)
        timedThemes.reserveCapacity(Self.maximumTimedThemes)
        // At full level from frame 0: the session fade-in (at least the de-click ramp) brings it in.
        if let ambient = assets.ambient {
            ambients[0].start(open(ambient), fadeFrames: 0, declickFrames: Int(timeline.declickFrames))
        }
        prepare(maxFrames: 4096)
    }

    /// Convenience: the engine for `plan`'s volumes.
    ///
    /// - Throws: as ``init(timeline:assets:volumes:)``.
    public convenience init(plan: SessionPlan, timeline: SessionTimeline, assets: EngineAssets) throws(EnsoError) {
        try self.init(
            timeline: timeline, assets: assets,
            volumes: (plan.ambientVolume, plan.bellVolume, plan.masterVolume, plan.intervalVolume))
    }

    deinit {
        scratch.deallocate()
        bells.deinitialize(count: bellSlots)
        bells.deallocate()
        ambients.deinitialize(count: Self.ambientSlots)
        ambients.deallocate()
        graveyard.deinitialize(count: Self.graveyardSlots)
        graveyard.deallocate()
    }

    /// Allocates the mix buffers for blocks of up to `maxFrames` frames.
    ///
    /// Larger render requests still work (they are split), so this only sizes the scratch memory.
    ///
    /// - Thread safety: control thread, before rendering starts (never concurrently with `render`).
    /// - Real-time safe: no (allocates).
    public func prepare(maxFrames: Int) {
        precondition(maxFrames > 0, "maxFrames must be positive")
        scratch.deallocate()
        // bus L, bus R, common gain, ambient gain, bell gain, voice scratch (2 blocks)
        scratch = .allocate(capacity: maxFrames * 7)
        scratch.initialize(repeating: 0, count: maxFrames * 7)
        self.maxFrames = maxFrames
    }

    // MARK: - Observing (any thread)

    /// The transport state.
    ///
    /// - Thread safety: any thread.  - Real-time safe: yes.
    public var state: EngineState { EngineState(rawValue: atomicState.load(ordering: .acquiring)) ?? .ended }

    /// Frames rendered so far (pauses included), as of the end of the last block.
    ///
    /// - Thread safety: any thread.  - Real-time safe: yes.
    public var outputFrame: FramePosition { atomicOutputFrame.load(ordering: .acquiring) }

    /// Sat time so far in frames (pauses excluded): the session record counts this.
    ///
    /// - Thread safety: any thread.  - Real-time safe: yes.
    public var sessionFrame: FramePosition { atomicSessionFrame.load(ordering: .acquiring) }

    /// The session frame the plan's closing group starts on (`nil`: until stopped): the timeline's, except that
    /// an until-plan's moves back by the paused frames at every resume (docs/engine.md, "Until-time rules").
    ///
    /// - Thread safety: any thread.  - Real-time safe: yes.
    public var closingFrame: FramePosition? {
        let f = atomicClosingFrame.load(ordering: .acquiring)
        return f < 0 ? nil : f
    }

    /// The cycle being sat (from 1).
    ///
    /// - Thread safety: any thread.  - Real-time safe: yes.
    public var currentCycle: Int { atomicCycle.load(ordering: .relaxed) }

    // MARK: - Commands (one control thread)

    /// Pauses: a 20 ms de-click fade of everything, then silence; the session clock stops at once.
    ///
    /// - Returns: `false` when the command queue is full (counted in ``droppedCommands``).
    /// - Thread safety: the one control thread.  - Real-time safe: yes.
    @discardableResult public func pause() -> Bool { send(.pause) }

    /// Resumes after a pause: a 20 ms fade back in; every later event moves by the paused frames.
    ///
    /// - Returns: `false` when the command queue is full.
    /// - Thread safety: the one control thread.  - Real-time safe: yes.
    @discardableResult public func resume() -> Bool { send(.resume) }

    /// Closes the session now: the closing group (unless `withBell` is false), the ambient fade-out, the end.
    ///
    /// When the session is already closing (its closing bell rings, or an earlier stop's), a stop with a bell
    /// changes nothing, and one without silences it now: the 20 ms de-click fade of everything, then the end (a
    /// listener who stops during a long closing ring does not wait for it). Sent with the bell while paused, it
    /// resumes first (a ``EngineEvent/resumed(sessionFrame:outputFrame:pausedFrames:)`` event, the 20 ms fade back
    /// in), so the closing group rings from the paused frame and the session ends without waiting for a resume;
    /// without the bell it ends the session where it is paused, in the silence it is in (or at the end of the pause's
    /// de-click fade).
    ///
    /// - Returns: `false` when the command queue is full.
    /// - Thread safety: the one control thread.  - Real-time safe: yes.
    @discardableResult public func stop(withBell: Bool = true) -> Bool { send(.stop(withBell: withBell)) }

    /// Crossfades (equal-power) from the current ambient theme to `asset` (`nil`: to silence).
    ///
    /// The new theme starts from its first frame. The engine keeps `asset` until it has faded out and then
    /// hands it back as ``EngineEvent/retired(_:)``.
    ///
    /// - Parameters:
    ///   - asset: the new theme at the engine rate, or `nil`.
    ///   - crossfadeFrames: crossfade length (``SessionPlan/themeCrossfade``'s default, 3 s, when `nil`).
    /// - Returns: `false` when the command queue is full.
    /// - Thread safety: the one control thread.  - Real-time safe: yes.
    @discardableResult
    public func setTheme(_ asset: LoadedAsset?, crossfadeFrames: Int? = nil) -> Bool {
        if let a = asset {
            precondition(a.sampleRate == sampleRate, "\(a.id): asset rate differs from the engine rate")
        }
        return send(
            .setTheme(asset.map(open), crossfadeFrames: frames(crossfadeFrames, or: SessionPlan.themeCrossfade)))
    }

    /// Crossfades to `asset` (`nil`: to silence) starting exactly on session frame `frame`: sat time, so a pause
    /// before it moves it later on the output, as it moves the bells.
    ///
    /// The render thread holds up to 32 such changes (more are refused and counted in ``droppedCommands``); one
    /// whose frame has passed applies at the start of the next block. A render block is cut at each change, so the
    /// crossfade starts on its frame whatever the block size: the output equals ``OfflineRenderer``'s
    /// ``OfflineRenderer/scheduleTheme(_:atFrame:crossfadeFrames:)`` frame for frame.
    ///
    /// - Parameters:
    ///   - asset: the new theme at the engine rate, or `nil`.
    ///   - frame: the session frame the crossfade starts on.
    ///   - crossfadeFrames: crossfade length (``SessionPlan/themeCrossfade``'s default, 3 s, when `nil`).
    /// - Returns: `false` when the command queue is full.
    /// - Thread safety: the one control thread.  - Real-time safe: yes.
    @discardableResult
    public func setTheme(_ asset: LoadedAsset?, atSessionFrame frame: FramePosition, crossfadeFrames: Int? = nil)
        -> Bool
    {
        if let a = asset {
            precondition(a.sampleRate == sampleRate, "\(a.id): asset rate differs from the engine rate")
        }
        return send(
            .setThemeAt(
                asset.map(open), sessionFrame: max(0, frame),
                crossfadeFrames: frames(crossfadeFrames, or: SessionPlan.themeCrossfade)))
    }

    /// Ramps a bus (or the master) linearly to `value` (clamped to 0...1) over `rampFrames`.
    ///
    /// - Parameters:
    ///   - bus: ambient, bell or master.
    ///   - value: the new linear gain.
    ///   - rampFrames: ramp length (``SessionPlan/volumeRamp``'s default, 50 ms, when `nil`).
    /// - Returns: `false` when the command queue is full.
    /// - Thread safety: the one control thread.  - Real-time safe: yes.
    @discardableResult
    public func setVolume(_ bus: EngineBus, _ value: Double, rampFrames: Int? = nil) -> Bool {
        let v = Float(SessionPlan.clamp(value, SessionPlan.volumeRange))
        return send(.setVolume(bus, v, rampFrames: frames(rampFrames, or: SessionPlan.volumeRamp)))
    }

    /// `requested` frames (at least 0), or `setting`'s default at the engine rate when `nil`.
    private func frames(_ requested: Int?, or setting: SessionPlan.LiveSetting) -> Int {
        max(0, requested ?? Int(sampleRate.frames(seconds: setting.defaultValue)))
    }

    /// Strikes a bell at the start of the next block: the plan's bell, or `asset` (at the engine rate).
    ///
    /// - Returns: `false` when the command queue is full.
    /// - Thread safety: the one control thread.  - Real-time safe: yes.
    @discardableResult
    public func strike(_ asset: LoadedAsset? = nil) -> Bool {
        if let a = asset {
            precondition(a.sampleRate == sampleRate, "\(a.id): asset rate differs from the engine rate")
            precondition(!a.isStreamed, "\(a.id): a streamed theme cannot be struck as a bell")
        }
        return send(.strike(asset))
    }

    /// The next event from the render thread, or `nil`. Drop ``EngineEvent/retired(_:)`` values here.
    ///
    /// - Thread safety: the one control thread.  - Real-time safe: yes (dropping a retired asset frees it:
    ///   do that off the render thread).
    public func pollEvent() -> EngineEvent? { events.pop() }

    private func send(_ command: EngineCommand) -> Bool {
        if commands.push(command) != nil {
            droppedCommands.increment()
            return false
        }
        return true
    }
}
