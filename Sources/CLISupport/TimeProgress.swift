import Foundation
import JSONText
import Synchronization

/// Progress of work measured in media time (a render): how much of the total is done, and how fast, on stderr.
///
/// - `bar` (the default): one line, redrawn at most 20 times a second and only on a terminal,
///   `render ████████░░░░░░░░ 12:34 / 40:24  610×`: session time done, the total, and the speed (media seconds per
///   wall-clock second).
/// - `json`: one JSON object a line for a front end, at most 4 a second and always one at the end (`done` equal
///   to `total`): `{"done":754.2,"fraction":0.311,"speed":610.4,"total":2424}`, seconds; written whether or not
///   stderr is a terminal. Anything else on stderr (an `Error:` or `Warning:` line) does not start with `{`.
/// - `none`: nothing.
///
/// - Thread safety: any thread may call `update`; output is serialised.
public final class TimeProgress: Sendable {
    /// How progress is shown.
    public enum Mode: String, CaseIterable, Sendable {
        case bar, json, none
    }

    private struct State {
        var done: Double = 0
        var lastOutput: Double = -.infinity
    }

    private let mode: Mode
    private let label: String
    private let total: Double
    private let started: Double
    private let clock: @Sendable () -> Double
    private let write: @Sendable (String) -> Void
    private let state = Mutex(State())

    /// Progress over `total` seconds of media.
    ///
    /// - Parameters:
    ///   - clock: wall-clock seconds (a parameter so tests step it by hand).
    ///   - write: where the text goes (stderr; a parameter for tests).
    public init(
        mode: Mode, label: String, totalSeconds: Double,
        clock: @escaping @Sendable () -> Double = { Date().timeIntervalSince1970 },
        write: @escaping @Sendable (String) -> Void = { Terminal.errRaw($0) }
    ) {
        self.mode = mode == .bar && !Terminal.stderrIsTerminal ? .none : mode
        self.label = label
        self.total = max(totalSeconds, 0)
        self.clock = clock
        self.write = write
        self.started = clock()
    }

    /// Marks `seconds` of media done (absolute, not a step) and redraws or prints when it is time.
    public func update(doneSeconds seconds: Double) {
        guard mode != .none else { return }
        let now = clock()
        let text: String? = state.withLock { s in
            s.done = min(max(seconds, s.done), total)
            let interval = mode == .json ? 0.25 : 0.05
            guard now - s.lastOutput >= interval else { return nil }
            s.lastOutput = now
            return self.text(done: s.done, now: now)
        }
        if let text { write(text) }
    }

    /// Ends the progress: clears the bar, or prints the last JSON line (`done` = `total`).
    public func finish() {
        switch mode {
        case .none: return
        case .bar: write("\r\u{1B}[K")
        case .json:
            let now = clock()
            let text = state.withLock { s in
                s.done = total
                return self.text(done: total, now: now)
            }
            write(text)
        }
    }

    /// Ends the progress of work that failed: clears the bar; no last JSON line (the work did not complete).
    public func abandon() {
        if mode == .bar { write("\r\u{1B}[K") }
    }

    private func text(done: Double, now: Double) -> String {
        let speed = done / max(now - started, 1e-6)
        switch mode {
        case .json: return Self.jsonLine(done: done, total: total, speed: speed)
        default:
            return "\r\u{1B}[K"
                + Self.barLine(label: label, done: done, total: total, speed: speed, width: Terminal.width)
        }
    }

    /// The bar's text, e.g. `render ████░░░░ 12:34 / 40:24  610×` (exposed for tests).
    public static func barLine(label: String, done: Double, total: Double, speed: Double, width: Int) -> String {
        let fraction = total > 0 ? min(1, done / total) : 1
        let barWidth = 24
        let filled = Int((fraction * Double(barWidth)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled)
        var line = "\(label) \(bar) \(clock(done, like: total)) / \(clock(total, like: total))  \(speedText(speed))"
        if line.count > width - 1 { line = String(line.prefix(max(0, width - 1))) }
        return line
    }

    /// One JSON progress line, keys sorted, seconds to 0.1 s, the fraction to 0.001 (exposed for tests).
    public static func jsonLine(done: Double, total: Double, speed: Double) -> String {
        let fraction = total > 0 ? min(1, done / total) : 1
        func number(_ v: Double, _ digits: Int) -> String {
            let scale = pow(10, Double(digits))
            return NumberText.plain((v * scale).rounded() / scale)
        }
        return
            "{\"done\":\(number(done, 1)),\"fraction\":\(number(fraction, 3)),\"speed\":\(number(speed, 1)),\"total\":\(number(total, 1))}\n"
    }

    /// `m:ss`, or `h:mm:ss` when `reference` is an hour or more (so done and total line up).
    static func clock(_ seconds: Double, like reference: Double) -> String {
        let s = Int(seconds.rounded(.down))
        if reference >= 3600 { return String(format: "%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) }
        return String(format: "%d:%02d", s / 60, s % 60)
    }

    static func speedText(_ speed: Double) -> String {
        speed >= 10 ? "\(Int(speed.rounded()))×" : String(format: "%.1f×", speed)
    }
}
