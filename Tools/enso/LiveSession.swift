import AssetPipeline
import AudioCore
import AudioDevice
import AudioEngine
import CLISupport
import Foundation
import PlaybackService

/// The control side of `enso play`: starts the output, relays keys and signals to the engine, and prints
/// events (when they are heard) or a status line, until the session ends.
///
/// - Thread safety: one control thread (the engine's command and event side).
final class LiveSession {
    let engine: SessionEngine
    let output: any AudioOutput
    let parsed: PlanOptions.Parsed
    let isFile: Bool
    private let interactive: Bool
    private var pending: [(text: String, outputFrame: FramePosition)] = []
    private var volume: Double
    private var themes: [String?] = []
    private var themeIndex = 0
    private var stopping = false
    /// Where a stop before the closing bell took effect: sat time ends there (``SatTime``).
    private var stopFrame: FramePosition?
    private var message = ""

    init(engine: SessionEngine, output: any AudioOutput, parsed: PlanOptions.Parsed, isFile: Bool) {
        self.engine = engine
        self.output = output
        self.parsed = parsed
        self.isFile = isFile
        interactive = !isFile && Terminal.stdinIsTerminal && Terminal.stderrIsTerminal
        volume = parsed.plan.masterVolume
    }

    var rate: SampleRate { output.format.sampleRate }

    func run() throws -> ExitCode {
        let signals = StopSignals()
        let keys = interactive ? TerminalKeys() : nil
        defer { keys?.restore() }
        let limit = isFile ? engine.timeline.endFrame : nil
        do {
            try output.start(engine, startFrame: 0, frameLimit: limit)
        } catch {
            throw CommandFailure(error.message)
        }
        for w in output.warnings { Terminal.err("Warning: \(w)") }
        if !isFile {
            Terminal.err("Playing on '\(output.deviceName)' (\(output.format)).")
        }
        var lastStatus = 0 as Int64
        while true {
            if let failure = output.failure {
                output.stop(drain: false)
                if interactive { Terminal.errRaw("\n") }
                throw CommandFailure(failure.message)
            }
            while let event = engine.pollEvent() { note(event) }
            flushHeard()
            if signals.stopRequested && !stopping {
                stopping = true
                engine.stop(withBell: false)
                message = "stopping (fade); Ctrl-C again quits at once"
                if !interactive && !isFile { Terminal.err("Stopping: fading out (Ctrl-C again quits at once).") }
            }
            if let key = keys?.poll() { handle(key) }
            let now = AudioClock.monotonicNow()
            if interactive && now - lastStatus > 200_000_000 {
                lastStatus = now
                Terminal.errRaw("\r\u{1B}[K" + statusLine())
            }
            if isFile ? !output.isRunning : engine.state == .ended { break }
            usleep(isFile ? 1_000 : 20_000)
        }
        output.stop(drain: true)
        while let event = engine.pollEvent() { note(event) }
        flushHeard(all: true)
        if interactive { Terminal.errRaw("\r\u{1B}[K") }
        if let failure = output.failure { throw CommandFailure(failure.message) }
        let seconds = rate.seconds(
            frames: SatTime.frames(
                sessionFrame: engine.sessionFrame, closingFrame: SatTime.closingFrame(of: engine.timeline),
                stopFrame: stopFrame))
        var summary = "Session over: \(PlanCommand.offsetText(seconds)) sat"
        if !isFile {
            summary += ", \(output.xrunCount) xrun(s)"
            let st = output.statistics
            if st.periodCount > 0 {
                let mean = Double(st.totalNanoseconds) / Double(st.periodCount) / 1000
                let periodUs = rate.seconds(frames: FrameCount(output.format.periodFrames)) * 1e6
                summary += String(
                    format: ", render %.1f µs mean / %.1f µs max per %d-frame period (%.3f %% of the period)", mean,
                    Double(st.maximumNanoseconds) / 1000, output.format.periodFrames, 100 * mean / periodUs)
            }
            if output.lostFrameCount > 0 { summary += ", \(PlanCommand.offsetText(rate.seconds(frames: FrameCount(output.lostFrameCount)))) skipped after stalls" }
        } else if let file = output as? FileOutput {
            summary += ", written to \(file.path)"
        }
        Terminal.err(summary + ".")
        return .success
    }

    // MARK: - Events

    /// Queues a line for `event`, printed once it is heard (immediately for a file).
    private func note(_ event: EngineEvent) {
        switch event {
        case .timeline(let e, let frame):
            var text = e.kind.rawValue
            if e.group == .interval {
                text = "strike (interval) \(e.strike)/\(engine.timeline.intervalStrikes)"
            } else if e.kind == .strike {
                text += " \(e.strike)/\(engine.timeline.strikes)"
            }
            text += " cycle \(e.cycle)"
            pending.append((text, frame))
        case .manualStrike(_, let frame): pending.append(("strike (manual)", frame))
        case .paused(_, let frame): pending.append(("paused", frame))
        case .resumed(_, let frame, _): pending.append(("resumed", frame))
        case .stopping(let sessionFrame, let frame, let bell):
            if SatTime.closingFrame(of: engine.timeline).map({ sessionFrame < $0 }) ?? true { stopFrame = sessionFrame }
            pending.append((bell ? "stopping with the closing bell" : "stopping", frame))
        case .themeChanged(let id, let frame): pending.append(("theme \(id ?? "none")", frame))
        case .retired: break  // dropping the asset here frees it on the control thread
        }
    }

    /// Prints the queued lines whose frame has been heard (all of them with `all`).
    private func flushHeard(all: Bool = false) {
        let heard = isFile ? Int64.max : (output.clock.frameHeardNow ?? -1)
        while let first = pending.first, all || first.outputFrame <= heard {
            pending.removeFirst()
            let when: String
            if isFile {
                when = PlanCommand.offsetText(rate.seconds(frames: first.outputFrame))
            } else {
                when = output.clock.audibleTime(ofFrame: first.outputFrame).map { Self.clockText($0.realtimeNanoseconds) } ?? "--:--:--"
            }
            let line = "\(when)  \(first.text)  (frame \(first.outputFrame))"
            if interactive {
                Terminal.errRaw("\r\u{1B}[K")
                Terminal.out(line)
            } else {
                Terminal.out(line)
            }
        }
    }

    // MARK: - Keys

    private func handle(_ key: UInt8) {
        switch key {
        case UInt8(ascii: " "):
            if engine.state == .playing { engine.pause() } else { engine.resume() }
        case UInt8(ascii: "+"), UInt8(ascii: "="):
            setVolume(volume + 0.1)
        case UInt8(ascii: "-"), UInt8(ascii: "_"):
            setVolume(volume - 0.1)
        case UInt8(ascii: "b"):
            engine.strike()
        case UInt8(ascii: "t"):
            nextTheme()
        case UInt8(ascii: "q"):
            if !stopping {
                stopping = true
                engine.stop(withBell: true)
                message = "stopping: closing bell, then fade"
            }
        default: break
        }
    }

    private func setVolume(_ v: Double) {
        volume = min(1, max(0, (v * 10).rounded() / 10))
        engine.setVolume(.master, volume)
        message = "volume \(Int(volume * 100)) %"
    }

    /// Crossfades to the next soundscape of the asset pack (then silence, then the first again).
    private func nextTheme() {
        if themes.isEmpty {
            themes = [parsed.plan.ambient]
            if let pack = try? AssetPack.load(directory: AssetPack.defaultDirectory(override: parsed.assetsDirectory)) {
                for e in pack.entries(kind: .soundscape) where !themes.contains(e.id) { themes.append(e.id) }
            }
            if !themes.contains(nil) { themes.append(nil) }
        }
        themeIndex = (themeIndex + 1) % themes.count
        let id = themes[themeIndex]
        guard let id else {
            engine.setTheme(nil)
            message = "theme none"
            return
        }
        var plan = parsed
        plan.plan.ambient = id
        do {
            let assets = try PlanOptions.loadAssets(plan)
            engine.setTheme(assets.ambient)
            message = "theme \(id)"
        } catch {
            message = "theme \(id) could not be loaded"
        }
    }

    // MARK: - Status

    /// One line: phase, elapsed, remaining (and the clock time it ends), next bell at clock time, theme, volume.
    private func statusLine() -> String {
        let heardOutput = output.clock.frameHeardNow ?? 0
        let paused = engine.outputFrame - engine.sessionFrame
        let elapsedFrames = max(0, min(engine.sessionFrame, heardOutput - paused))
        var parts = ["\(stopping ? "stopping" : engine.state.description) cycle \(engine.currentCycle)", Self.short(rate.seconds(frames: elapsedFrames))]
        if !stopping, let end = engine.timeline.endFrame {
            var text = "\(Self.short(rate.seconds(frames: max(0, end - elapsedFrames)))) left"
            if let t = output.clock.audibleTime(ofFrame: end + paused) { text += " (ends \(Self.clockText(t.realtimeNanoseconds, millis: false)))" }
            parts.append(text)
        }
        let cycles = min(engine.currentCycle + 1, engine.timeline.cycleCount ?? Int.max)
        if !stopping,
           let next = engine.timeline.events(cycles: max(1, cycles)).first(where: { $0.kind == .strike && $0.frame > engine.sessionFrame }),
           let t = output.clock.audibleTime(ofFrame: next.frame + paused) {
            parts.append("bell \(Self.clockText(t.realtimeNanoseconds, millis: false))")
        }
        parts.append("theme \(themes.isEmpty ? (parsed.plan.ambient ?? "none") : (themes[themeIndex] ?? "none"))")
        parts.append("vol \(Int(volume * 100))%")
        parts.append(message.isEmpty ? "keys: space t + - b q" : message)
        let line = parts.joined(separator: "  ")
        return String(line.prefix(max(20, Terminal.width - 1)))
    }

    static func short(_ seconds: Double) -> String {
        let s = Int(seconds)
        return s >= 3600 ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) : String(format: "%02d:%02d", s / 60, s % 60)
    }

    /// Local clock time of `realtimeNanoseconds` (Unix epoch), `HH:MM:SS.mmm`.
    static func clockText(_ realtimeNanoseconds: Int64, millis: Bool = true) -> String {
        let date = Date(timeIntervalSince1970: Double(realtimeNanoseconds) / 1e9)
        let f = DateFormatter()
        f.dateFormat = millis ? "HH:mm:ss.SSS" : "HH:mm:ss"
        return f.string(from: date)
    }
}
