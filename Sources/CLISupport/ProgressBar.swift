import Foundation
import Synchronization

/// A one-line progress bar on stderr, drawn only when stderr is a terminal.
///
/// Off a terminal it stays silent (logs and pipes get results, not bars).
///
/// - Thread safety: any thread may call `advance`; drawing is serialised.
public final class ProgressBar: Sendable {
    private struct State {
        var done = 0
        var lastDraw: Double = 0
    }

    private let total: Int
    private let label: String
    private let enabled: Bool
    private let state = Mutex(State())

    /// A bar for `total` units; `enabled` defaults to whether stderr is a terminal.
    public init(total: Int, label: String, enabled: Bool = Terminal.stderrIsTerminal) {
        self.total = max(total, 1)
        self.label = label
        self.enabled = enabled
    }

    /// Marks `n` more units done and redraws at most 20 times a second.
    public func advance(by n: Int = 1, item: String = "") {
        guard enabled else { return }
        let line: String? = state.withLock { s in
            s.done += n
            let now = Date().timeIntervalSince1970
            guard now - s.lastDraw > 0.05 || s.done >= total else { return nil }
            s.lastDraw = now
            return Self.render(done: s.done, total: total, label: label, item: item, width: Terminal.width)
        }
        if let line { Terminal.errRaw("\r\u{1B}[K" + line) }
    }

    /// Clears the bar.
    public func finish() {
        guard enabled else { return }
        Terminal.errRaw("\r\u{1B}[K")
    }

    /// The bar's text (exposed for tests).
    public static func render(done: Int, total: Int, label: String, item: String, width: Int) -> String {
        let fraction = min(1, Double(done) / Double(max(total, 1)))
        let barWidth = 24
        let filled = Int((fraction * Double(barWidth)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: barWidth - filled)
        var line = "\(label) \(bar) \(done)/\(total)"
        if !item.isEmpty { line += " " + item }
        if line.count > width - 1 { line = String(line.prefix(max(0, width - 1))) }
        return line
    }
}
