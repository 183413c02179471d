import Foundation
import Synchronization

/// Progress of work counted in files (a batch): files done of the total, the rate and the time left, on stderr.
///
/// - `bar` (the default): one line, redrawn at most 20 times a second and only on a terminal (logs and pipes get
///   results, not bars): `auditioning ████████░░░░ 120/3000  4.2/s  11:26 left b07.wav`.
/// - `json`: the schema of `render --progress json` (``TimeProgress``), counted in files instead of seconds: one
///   object a line, at most 4 a second and always one at the end, `{"done":120,"fraction":0.04,"speed":4.2,
///   "total":3000}` (`speed` in files a second), written whether or not stderr is a terminal.
/// - `none`: nothing.
///
/// - Thread safety: any thread may call `advance`; output is serialised.
public final class ProgressBar: Sendable {
    private struct State {
        var done = 0
        var lastOutput = -Double.infinity
    }

    private let total: Int
    private let label: String
    private let mode: TimeProgress.Mode
    private let started: Double
    private let clock: @Sendable () -> Double
    private let write: @Sendable (String) -> Void
    private let state = Mutex(State())

    /// A bar for `total` files; `enabled` defaults to whether stderr is a terminal.
    public convenience init(total: Int, label: String, enabled: Bool = Terminal.stderrIsTerminal) {
        self.init(total: total, label: label, mode: enabled ? .bar : .none, onTerminalOnly: false)
    }

    /// Progress over `total` files in `mode`.
    ///
    /// - Parameters:
    ///   - onTerminalOnly: `bar` draws only when stderr is a terminal (`json` always writes).
    ///   - clock: wall-clock seconds (a parameter so tests step it by hand).
    ///   - write: where the text goes (stderr; a parameter for tests).
    public init(
        total: Int, label: String, mode: TimeProgress.Mode, onTerminalOnly: Bool = true,
        clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 },
        write: @escaping @Sendable (String) -> Void = { Terminal.errRaw($0) }
    ) {
        self.total = max(total, 0)
        self.label = label
        self.mode = mode == .bar && onTerminalOnly && !Terminal.stderrIsTerminal ? .none : mode
        self.clock = clock
        self.write = write
        self.started = clock()
    }

    /// Marks `n` more files done and redraws (at most 20 times a second) or prints a JSON line (at most 4).
    public func advance(by n: Int = 1, item: String = "") {
        guard mode != .none else { return }
        let now = clock()
        let text: String? = state.withLock { s in
            s.done += n
            let interval = mode == .json ? 0.25 : 0.05
            guard now - s.lastOutput >= interval || (mode == .bar && s.done >= total) else { return nil }
            s.lastOutput = now
            return self.text(done: s.done, item: item, now: now)
        }
        if let text { write(text) }
    }

    /// Ends the progress: clears the bar, or prints the last JSON line (`done` as counted).
    public func finish() {
        switch mode {
        case .none: return
        case .bar: write("\r\u{1B}[K")
        case .json:
            let now = clock()
            write(state.withLock { self.text(done: $0.done, item: "", now: now) })
        }
    }

    private func text(done: Int, item: String, now: Double) -> String {
        let rate = Double(done) / max(now - started, 1e-6)
        switch mode {
        case .json:
            return TimeProgress.jsonLine(done: Double(done), total: Double(max(total, done)), speed: rate)
        default:
            let left = rate > 0 && done > 0 ? Double(total - done) / rate : nil
            return "\r\u{1B}[K"
                + Self.render(
                    done: done, total: total, label: label, item: item, width: Terminal.width,
                    rate: done > 0 ? rate : nil,
                    secondsLeft: left)
        }
    }

    /// The bar's text, e.g. `verifying ████░░░░ 120/3000  4.2/s  11:26 left b07.wav` (exposed for tests): the
    /// rate and the time left once a file is done (the time left at the rate so far).
    public static func render(
        done: Int, total: Int, label: String, item: String, width: Int, rate: Double? = nil,
        secondsLeft: Double? = nil
    ) -> String {
        let fraction = min(1, Double(done) / Double(max(total, 1)))
        let barWidth = 24
        let filled = Int((fraction * Double(barWidth)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled)
        var line = "\(label) \(bar) \(done)/\(total)"
        if let rate { line += rate >= 10 ? "  \(Int(rate.rounded()))/s" : "  " + String(format: "%.1f/s", rate) }
        if let secondsLeft, secondsLeft.isFinite {
            line += "  " + TimeProgress.clock(max(0, secondsLeft), like: secondsLeft) + " left"
        }
        if !item.isEmpty { line += " " + item }
        if line.count > width - 1 { line = String(line.prefix(max(0, width - 1))) }
        return line
    }
}
