import AudioCore
import CLISupport
import Foundation

/// Single key presses from a terminal on stdin: raw mode (no line buffering, no echo) while alive.
///
/// - Thread safety: one control thread.
final class TerminalKeys {
    private var saved = termios()
    private var active = false

    /// Puts stdin in raw mode when it is a terminal.
    init() {
        guard Terminal.stdinIsTerminal, tcgetattr(STDIN_FILENO, &saved) == 0 else { return }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        if tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0 {
            active = true
            TerminalKeys.restoreOnExit = saved
        }
    }

    deinit { restore() }

    /// The terminal settings to put back if the process exits at once (second SIGINT).
    nonisolated(unsafe) static var restoreOnExit: termios?

    /// Puts the terminal back as it was.
    func restore() {
        guard active else { return }
        tcsetattr(STDIN_FILENO, TCSANOW, &saved)
        active = false
        TerminalKeys.restoreOnExit = nil
    }

    /// The next key pressed, if any (does not wait).
    func poll() -> UInt8? {
        guard active else { return nil }
        var fds = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard Glibc.poll(&fds, 1, 0) > 0 else { return nil }
        var byte: UInt8 = 0
        return read(STDIN_FILENO, &byte, 1) == 1 ? byte : nil
    }
}

/// SIGINT and SIGTERM as requests: the first asks for a graceful stop, a second SIGINT exits at once.
///
/// - Thread safety: any thread reads ``stopRequested``.
final class StopSignals: Sendable {
    private let requested = RealtimeCounter()
    private nonisolated(unsafe) var sources: [any DispatchSourceSignal] = []

    init() {
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { [requested] in
                requested.increment()
                if requested.count > 1 && sig == SIGINT {
                    if var t = TerminalKeys.restoreOnExit { tcsetattr(STDIN_FILENO, TCSANOW, &t) }
                    Terminal.err("\nInterrupted.")
                    exit(ExitCode.interrupted.rawValue)
                }
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Whether a stop was requested.
    var stopRequested: Bool { requested.count > 0 }
}
