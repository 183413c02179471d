import AssetPipeline
import AudioCore
import AudioDevice
import AudioEngine
import CLISupport
import Foundation
import PlaybackService

/// The terminal side of `enso play`: runs a ``RunningSession`` (the runner `enso serve` uses), relays keys and
/// signals to it, and prints its events when they are heard, or a status line, until the sitting ends.
///
/// - Thread safety: one control thread (the session's).
final class PlayConsole {
    let session: RunningSession
    let parsed: PlanOptions.Parsed
    let isFile: Bool
    private let interactive: Bool
    /// Events rendered and not heard yet, printed once their output frame is heard.
    private var pending: [(text: String, event: LiveEvent)] = []
    private var themes: [String?] = []
    private var themeIndex = 0
    private var message = ""

    init(session: RunningSession, parsed: PlanOptions.Parsed, isFile: Bool) {
        self.session = session
        self.parsed = parsed
        self.isFile = isFile
        interactive = !isFile && Terminal.stdinIsTerminal && Terminal.stderrIsTerminal
    }

    var output: any AudioOutput { session.output }
    var rate: SampleRate { session.rate }

    func run() throws -> ExitCode {
        let signals = StopSignals()
        let keys = interactive ? TerminalKeys() : nil
        defer { keys?.restore() }
        do {
            // A file is cut at the session's end; a device plays until the engine has ended.
            try session.start(frameLimit: isFile ? session.timeline.endFrame : nil)
        } catch {
            throw CommandFailure(error.message)
        }
        for w in output.warnings { Terminal.err("Warning: \(w)") }
        if !isFile {
            Terminal.err("Playing on '\(output.deviceName)' (\(output.format)).")
        }
        var lastStatus = 0 as Int64
        while true {
            poll()
            if session.deviceFailed { try fail() }
            flushHeard()
            if signals.stopRequested && !session.stopSent && session.stop(withBell: false) {
                message = "stopping (fade); Ctrl-C again quits at once"
                if !interactive && !isFile { Terminal.err("Stopping: fading out (Ctrl-C again quits at once).") }
            }
            if let key = keys?.poll() { handle(key) }
            let now = AudioClock.monotonicNow()
            if interactive && now - lastStatus > 200_000_000 {
                lastStatus = now
                Terminal.errRaw("\r\u{1B}[K" + statusLine())
            }
            if session.ended || (isFile && !output.isRunning) { break }
            usleep(isFile ? 1_000 : 20_000)
        }
        poll()
        if session.deviceFailed { try fail() }
        let finished = session.finish()
        poll()
        flushHeard(all: true)
        if interactive { Terminal.errRaw("\r\u{1B}[K") }
        for w in session.takeWarnings() { Terminal.err("Warning: \(w)") }
        if let failure = output.failure { throw CommandFailure(failure.message) }
        var summary = "Session over: \(PlanCommand.offsetText(finished.record.satSeconds)) sat"
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
            if output.lostFrameCount > 0 {
                let lost = PlanCommand.offsetText(rate.seconds(frames: FrameCount(output.lostFrameCount)))
                summary += ", \(lost) skipped after stalls"
            }
        } else if let file = output as? FileOutput {
            summary += ", written to \(file.path)"
        }
        Terminal.err(summary + ".")
        return .success
    }

    /// Ends a sitting whose output failed (journaled as `interrupted`) and throws the failure.
    private func fail() throws -> Never {
        _ = session.finish(.interrupted)
        if interactive { Terminal.errRaw("\n") }
        for w in session.takeWarnings() { Terminal.err("Warning: \(w)") }
        throw CommandFailure(output.failure?.message ?? "the output failed")
    }

    // MARK: - Events

    /// Takes the session's events, queuing a line for each to print once it is heard.
    private func poll() {
        for event in session.poll() {
            if let text = text(of: event) { pending.append((text, event)) }
        }
    }

    /// What `enso play` prints for `event` (`nil`: nothing; xruns are counted in the summary).
    private func text(of event: LiveEvent) -> String? {
        switch event.kind {
        case .timeline(let e, let group):
            if group == .interval {
                return "strike (interval) \(e.strike)/\(session.timeline.intervalStrikes) cycle \(e.cycle)"
            }
            if e.kind == .strike { return "strike \(e.strike)/\(session.timeline.strikes) cycle \(e.cycle)" }
            return "\(e.kind.rawValue) cycle \(e.cycle)"
        case .manualStrike: return "strike (manual)"
        case .paused: return "paused"
        case .resumed: return "resumed"
        case .stopping(let bell): return bell ? "stopping with the closing bell" : "stopping"
        case .themeChanged(let id): return "theme \(id ?? "none")"
        case .streamUnderrun(let id, let missed):
            return "theme \(id) silent for \(missed * 1000 / FrameCount(session.rate.hertz)) ms (the disk fell behind)"
        case .xrun, .deviceFailed: return nil
        }
    }

    /// Prints the queued lines whose frame has been heard (all of them with `all`): the clock time it is heard (a
    /// file: its offset), what happened and its output frame.
    private func flushHeard(all: Bool = false) {
        let heard = isFile ? Int64.max : (output.clock.frameHeardNow ?? -1)
        while let first = pending.first, all || first.event.outputFrame <= heard {
            pending.removeFirst()
            let when =
                isFile
                ? PlanCommand.offsetText(rate.seconds(frames: first.event.outputFrame))
                : Self.clockText(first.event.heardAt)
            if interactive { Terminal.errRaw("\r\u{1B}[K") }
            Terminal.out("\(when)  \(first.text)  (frame \(first.event.outputFrame))")
        }
    }

    // MARK: - Keys

    private func handle(_ key: UInt8) {
        switch key {
        case UInt8(ascii: " "):
            _ = session.isHeld ? session.resume() : session.pause()
        case UInt8(ascii: "+"), UInt8(ascii: "="):
            setVolume(session.volumes.master + 0.1)
        case UInt8(ascii: "-"), UInt8(ascii: "_"):
            setVolume(session.volumes.master - 0.1)
        case UInt8(ascii: "b"):
            if session.canStrike { _ = session.strike() } else { message = "paused: resume to strike" }
        case UInt8(ascii: "t"):
            nextTheme()
        case UInt8(ascii: "q"):
            if !session.stopSent && session.stop(withBell: true) { message = "stopping: closing bell, then fade" }
        default: break
        }
    }

    private func setVolume(_ v: Double) {
        let volume = min(1, max(0, (v * 10).rounded() / 10))
        _ = session.setVolume(.master, volume)
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
            _ = session.setTheme(nil)
            message = "theme none"
            return
        }
        var plan = parsed
        plan.plan.ambient = id
        do {
            let assets = try PlanOptions.loadAssets(plan)
            _ = session.setTheme(assets.ambient)
            message = "theme \(id)"
        } catch {
            message = "theme \(id) could not be loaded"
        }
    }

    // MARK: - Status

    /// One line: phase and cycle, sat time, time left until the closing bell (and the clock time it is heard), the
    /// next bell's clock time, theme, volume; the times are the session's own (``RunningSession``).
    private func statusLine() -> String {
        let engine = session.engine
        let phase =
            session.stopSent || session.stopping
            ? "stopping" : session.reachedClosingBell ? "closing" : engine.state.description
        var parts = ["\(phase) cycle \(engine.currentCycle)", Self.short(session.satSeconds)]
        if let left = session.remainingSeconds, !session.stopSent, !session.reachedClosingBell {
            // A countdown rounds up: it shows 00:00 only once the closing bell is due.
            var text = "\(Self.short(left.rounded(.up))) left"
            if let end = session.endsAt { text += " (ends \(Self.clockText(end, millis: false)))" }
            parts.append(text)
        }
        if let bell = session.nextBellAt { parts.append("bell \(Self.clockText(bell, millis: false))") }
        parts.append("theme \(session.theme ?? "none")")
        parts.append("vol \(Int((session.volumes.master * 100).rounded()))%")
        parts.append(message.isEmpty ? "keys: space t + - b q" : message)
        let line = parts.joined(separator: "  ")
        return String(line.prefix(max(20, Terminal.width - 1)))
    }

    static func short(_ seconds: Double) -> String {
        let s = Int(seconds)
        return s >= 3600
            ? String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
            : String(format: "%02d:%02d", s / 60, s % 60)
    }

    /// Local clock time of `date`, `HH:MM:SS.mmm` (`HH:MM:SS` without `millis`).
    static func clockText(_ date: Date, millis: Bool = true) -> String {
        let f = DateFormatter()
        f.dateFormat = millis ? "HH:mm:ss.SSS" : "HH:mm:ss"
        return f.string(from: date)
    }
}
