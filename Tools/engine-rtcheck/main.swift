// engine-rtcheck: drives SessionEngine.render through 10^5 calls with random block sizes, strikes,
// interval bells (their own bell and volume), pauses, theme switches (a seam-crossfaded theme and two streamed
// ones among them: their rings are filled between calls, as a loader thread would, and left to run dry at times so
// the underrun fades and reports run too; one of them is a real file streamed by AssetLoading with its seam
// fixed at load, so the ring the render thread reads holds the baked loop;
// crossfades and volume ramps of 0 take the de-click floor), volume changes and stall skips
// (`skip(lostFrames:)`, as a device calls it after an xrun), with every render and skip call inside a
// real-time region; then a finite session with every fade at 0 (interval bells, an until-time closing, a
// pause that moves it) rendered to its end ramp the same way.
//
// Two checkers see those regions (both optional, found at run time with dlsym):
// - RealtimeSanitizer, linked into this executable (Package.swift): reports any malloc/free, lock,
//   syscall or I/O inside a region with a stack trace and exits 1;
// - the malloc counter (preload/malloc-count-preload.c, LD_PRELOAD): counts malloc-family calls made
//   while a thread is marked "in render".
// The control side (commands, events, dropping retired assets) runs between the regions, as a control
// thread would. A warm-up runs every code path first (metadata, lazy globals).
//
// Usage: engine-rtcheck [--calls N] [--seed S] [--violate]. Exit 0 when nothing was reported, 1 otherwise.
// `--violate` allocates inside one region on purpose, to show the checkers are live (expect exit 1).
import AssetLoading
import AudioCore
import AudioEngine
import AudioFile
import Glibc

typealias VoidFunction = @convention(c) () -> Void
typealias CountFunction = @convention(c) () -> Int

func symbol<T>(_ name: String, as type: T.Type) -> T? {
    dlsym(dlopen(nil, RTLD_NOW), name).map { unsafeBitCast($0, to: type) }
}
let rtsanInit = symbol("__rtsan_ensure_initialized", as: VoidFunction.self)
let rtsanEnter = symbol("__rtsan_realtime_enter", as: VoidFunction.self)
let rtsanExit = symbol("__rtsan_realtime_exit", as: VoidFunction.self)
let countEnter = symbol("rt_enter", as: VoidFunction.self)
let countExit = symbol("rt_exit", as: VoidFunction.self)
let countHits = symbol("rt_alloc_hits", as: CountFunction.self)

var calls = 100_000
var seed: UInt64 = 0x5EED
var violate = false
var args = CommandLine.arguments.dropFirst()
while let a = args.popFirst() {
    switch a {
    case "--calls": calls = Int(args.popFirst() ?? "") ?? calls
    case "--seed": seed = UInt64(args.popFirst() ?? "") ?? seed
    case "--violate": violate = true
    default:
        print("usage: engine-rtcheck [--calls N] [--seed S] [--violate]")
        exit(64)
    }
}

/// xorshift64*: deterministic and allocation-free.
struct Random {
    var state: UInt64
    mutating func next() -> UInt64 {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return state &* 2_685_821_657_736_338_717
    }
    mutating func unit() -> Double { Double(next() >> 11) * 0x1.0p-53 }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
var rng = Random(state: seed)

let rate = SampleRate.hz48000
func noise(frames: Int, channels: Int, decay: Double, _ rng: inout Random) -> AudioBuffer {
    var data: [[Float]] = []
    for _ in 0..<channels {
        var env = 0.5
        let k = decay > 0 ? exp(-1 / (decay * 48_000)) : 1
        data.append(
            (0..<frames).map { _ in
                env *= k
                return Float((rng.unit() * 2 - 1) * env)
            })
    }
    return AudioBuffer(channelData: data, sampleRate: rate)
}

/// A streamed theme's producer: noise from a table, as a loader thread would decode a file (control side only).
final class TableProducer: AmbientStreamProducer {
    let table: [Float]
    var at = 0
    init(table: [Float]) { self.table = table }
    func produce(left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>?, frames: Int)
        throws(EnsoError) -> Int
    {
        for i in 0..<frames {
            left[i] = table[at]
            right?[i] = table[(at + 4_801) % table.count]
            at = (at + 1) % table.count
        }
        return frames
    }
}

/// Opens a 0.2 s ring of table noise per play (small, so the stalls below drain it).
struct TableSource: AmbientStreamSource, @unchecked Sendable {
    let table: [Float]
    func makeStream() -> AmbientStream {
        AmbientStream(channels: 2, capacity: 9_600, producer: TableProducer(table: table))
    }
}

/// Where the seam-fixed theme's file is written (removed at exit).
let seamFilePath = "\(getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp")/engine-rtcheck-\(getpid())-seam.wav"

/// A real streamed theme whose seam is fixed at load: a 3 s tone whose loop (the whole file) ends half a cycle out
/// of phase, written to ``seamFilePath`` and loaded as streamed (the limit at 0, no loader thread: `pullStreams`
/// fills its ring as the others'). Control side only.
func seamFixedStreamedTheme() throws -> LoadedAsset {
    let frames = 144_000
    let hz = 660.5 / 3
    let tone = (0..<frames).map { i in Float(0.25 * sin(2 * Double.pi * hz * Double(i) / 48_000)) + 0.02 }
    try AudioFileEncoder.write(
        AudioBuffer(channelData: [tone, tone], sampleRate: rate), to: seamFilePath,
        options: EncodeOptions(format: .wavf))
    var warning = ""
    let theme = try EngineAssetLoader.load(
        path: seamFilePath, id: "d-streamed-seam-fixed", kind: .soundscape, rate: rate, loop: .manifest(nil),
        gainDB: 0, streamAbove: 0, loader: nil, warn: { warning = $0 })
    guard theme.isStreamed, warning.contains("crossfade at the seam") else {
        print("engine-rtcheck: the seam-fixed theme did not stream with its seam fixed: \(warning)")
        exit(1)
    }
    return theme
}

do {
    let bell = try LoadedAsset(id: "bell", buffer: noise(frames: 14_400, channels: 2, decay: 0.05, &rng))
    let themeA = try LoadedAsset(id: "a", buffer: noise(frames: 24_000, channels: 2, decay: 0, &rng))
    let themeB = try LoadedAsset(
        id: "b", buffer: noise(frames: 30_000, channels: 1, decay: 0, &rng), loop: LoopRegion(start: 6000, end: 30_000),
        seamCrossfade: 2400)
    let soft = try LoadedAsset(id: "soft", buffer: noise(frames: 9_600, channels: 1, decay: 0.03, &rng))
    let hour = 48_000 * 3_600
    let themeC = try LoadedAsset(
        id: "c-streamed", sampleRate: rate, channels: 2, frameCount: hour,
        loop: LoopRegion(start: 0, end: FramePosition(hour)),
        stream: TableSource(table: noise(frames: 48_000, channels: 1, decay: 0, &rng).channel(0).map { $0 }))
    let themeD = try seamFixedStreamedTheme()
    let plan = SessionPlan(
        sitting: 12, strikeSpacing: 0.5, breath: 0.5, fadeIn: 0.1, fadeOut: 0.1, repeatMode: .untilStopped, interval: 5,
        intervalStrikes: 2, intervalVolume: 0.5)
    let timeline = try SessionTimeline(plan: plan, sampleRate: rate, bellTail: bell.decayFrames())
    let engine = try SessionEngine(
        plan: plan, timeline: timeline, assets: EngineAssets(bell: bell, ambient: themeA, interval: soft))
    let maxBlock = 512
    engine.prepare(maxFrames: maxBlock)
    let buffer = UnsafeMutablePointer<Float>.allocate(capacity: maxBlock * 2)
    buffer.initialize(repeating: 0, count: maxBlock * 2)
    var paused = false
    var retired = 0
    var strikes = 0
    var intervalStrikes = 0
    var underruns = 0
    var controlSteps = 0
    var seamFixedPlays = 0

    /// One control-side step: maybe a command (never when `commands` is false), then drain events
    /// (dropping retired assets here).
    func control(forceAll: Bool, commands: Bool = true) {
        let r = commands ? rng.below(1000) : 1000
        // The loader: fills every ring, except in one stretch of 300 control steps in 1000 (it stalls: rings run dry).
        controlSteps += 1
        if controlSteps % 1000 < 700 { engine.pullStreams() }
        if forceAll || r < 20 {
            engine.strike()
        }
        if forceAll || (r >= 20 && r < 30) {
            _ = paused ? engine.resume() : engine.pause()
            paused.toggle()
        }
        if forceAll || (r >= 30 && r < 35) {
            let pick = rng.below(5)
            if pick == 3 { seamFixedPlays += 1 }
            engine.setTheme(
                pick == 0 ? themeA : pick == 1 ? themeB : pick == 2 ? themeC : pick == 3 ? themeD : nil,
                crossfadeFrames: rng.below(2) == 0 ? 0 : rng.below(4800))
        }
        if forceAll || (r >= 45 && r < 50) {
            // A change held until a session frame up to 2 s ahead (some pass while paused; some overflow the 32 slots).
            let pick = rng.below(3)
            engine.setTheme(
                pick == 0 ? themeA : pick == 1 ? themeB : nil,
                atSessionFrame: engine.sessionFrame + FramePosition(rng.below(96_000)), crossfadeFrames: rng.below(4800)
            )
        }
        if forceAll || (r >= 35 && r < 45) {
            let bus = EngineBus.allCases[rng.below(3)]
            engine.setVolume(bus, rng.unit(), rampFrames: rng.below(2) == 0 ? 0 : rng.below(2400))
        }
        while let e = engine.pollEvent() {
            switch e {
            case .retired: retired += 1
            case .streamUnderrun: underruns += 1
            case .timeline(let t, _) where t.kind == .strike:
                strikes += 1
                if t.group == .interval { intervalStrikes += 1 }
            default: break
            }
        }
    }

    /// Frames of a random stall (up to 0.5 s), or 0 for most calls: about one render in 100 follows a skip.
    func stallFrames() -> Int { rng.below(100) == 0 ? 1 + rng.below(24_000) : 0 }

    // Warm-up: every command and path, outside any real-time region.
    for i in 0..<5000 {
        control(forceAll: i % 500 == 0)
        let lost = i % 500 == 0 ? 1 + rng.below(24_000) : stallFrames()
        if lost > 0 { engine.skip(lostFrames: lost) }
        engine.render(into: buffer, frames: 1 + rng.below(maxBlock))
    }
    if paused {
        engine.resume()
        paused = false
    }
    rtsanInit?()
    var frames = 0
    var skips = 0
    for _ in 0..<calls {
        control(forceAll: false)
        let n = 1 + rng.below(maxBlock)
        let lost = stallFrames()
        if lost > 0 { skips += 1 }
        countEnter?()
        rtsanEnter?()
        if lost > 0 { engine.skip(lostFrames: lost) }
        engine.render(into: buffer, frames: n)
        rtsanExit?()
        countExit?()
        frames += n
    }
    if violate {
        countEnter?()
        rtsanEnter?()
        let leak = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
        rtsanExit?()
        countExit?()
        leak.deallocate()
    }
    if paused { engine.resume() }
    engine.stop()
    // The close, checked too: no more random commands (a pause would hold the session open); the closing group
    // rings for a few blocks, then a stop without a bell silences it (the de-click fade, then the end).
    for i in 0..<1000 where engine.state != .ended {
        control(forceAll: false, commands: false)
        if i == 4 { engine.stop(withBell: false) }
        countEnter?()
        rtsanEnter?()
        engine.render(into: buffer, frames: maxBlock)
        rtsanExit?()
        countExit?()
    }
    // A finite session, every fade at 0: until a clock time 40 s ahead, with a pause that moves the close and
    // interval bells at listed times, rendered to its end (the end ramp brings the last frame to exactly 0).
    var finite = plan
    finite.sitting = 12
    finite.fadeIn = 0
    finite.fadeOut = 0
    finite.repeatMode = .until(ClockTime(hour: 0, minute: 0, second: 40)!)
    finite.interval = nil
    finite.intervalAt = [5, 7.5]  // the listed-times path
    let finiteTimeline = try SessionTimeline(
        plan: finite, sampleRate: rate, bellTail: bell.decayFrames(), startSecondOfDay: 0)
    let closing = try SessionEngine(
        plan: finite, timeline: finiteTimeline, assets: EngineAssets(bell: bell, ambient: themeB, interval: soft))
    closing.prepare(maxFrames: maxBlock)
    var finiteCalls = 0
    while closing.state != .ended && finiteCalls < 100_000 {
        if finiteCalls == 2_000 { closing.pause() }
        if finiteCalls == 2_400 { closing.resume() }
        while let e = closing.pollEvent() {
            if case .timeline(let t, _) = e, t.group == .interval { intervalStrikes += 1 }
        }
        let n = 1 + rng.below(maxBlock)
        countEnter?()
        rtsanEnter?()
        closing.render(into: buffer, frames: n)
        rtsanExit?()
        countExit?()
        finiteCalls += 1
    }
    let hits = countHits?()
    print(
        "render calls: \(calls) (\(frames) frames), skips: \(skips), timeline strikes: \(strikes), retired assets: \(retired)"
    )
    print("streamed theme underruns reported: \(underruns); the seam-fixed streamed theme set \(seamFixedPlays) times")
    print("interval strikes: \(intervalStrikes); finite session: \(finiteCalls) calls to its end (\(closing.state))")
    print("rtsan: \(rtsanEnter != nil ? "active" : "absent")")
    print("malloc counter: \(hits.map { "active, \($0) calls in render" } ?? "absent")")
    print("dropped commands: \(engine.droppedCommands.count), dropped events: \(engine.droppedEvents.count)")
    print("state after stop: \(engine.state)")
    buffer.deallocate()
    unlink(seamFilePath)
    exit((hits ?? 0) == 0 ? 0 : 1)
} catch {
    print("engine-rtcheck: \(error)")
    unlink(seamFilePath)
    exit(1)
}
