import AudioFile
import CLISupport
import Foundation
import SystemIO

/// SIGINT (Ctrl-C) and SIGTERM during a command that writes files through the atomic writers (`render`, `convert`,
/// `loops bake`, `bells fix`): the unfinished temporary files are removed, a line on stderr says so, and the process
/// exits 130 or 143 (128 + the signal, as a shell reports a process the signal killed).
///
/// Without it the signal killed the process where it stood, leaving `.OUT.tmp-PID-XXXX` beside OUT (40 MB ten
/// seconds into an hour-long FLAC render), though docs/engine.md promises the temporary file is removed on any
/// failure. A signal handler may run only async-signal-safe C, so none is installed: the two signals are blocked in
/// the calling thread, which every thread started afterwards inherits, and one thread of ours takes them with
/// `sigwait`, then does the ordinary Swift work (``SystemIO/AtomicFile/removeUnfinished(then:)``, the message) and
/// `_exit`s. A signal sent before that thread runs waits, blocked, until it does. `kill -9` still leaves the file,
/// which the next write of the same OUT removes.
///
/// - Thread safety: call ``install()`` once, from the main thread, before the command starts any thread.
enum WriteInterruption {
    /// The exit codes a command that installs this adds to its help.
    static let exitCodes = [
        ExitCodeMeaning(.interrupted, "Interrupted by SIGINT (Ctrl-C): the file being written is removed."),
        ExitCodeMeaning(.terminated, "Stopped by SIGTERM: the file being written is removed."),
    ]

    /// Blocks SIGINT and SIGTERM in this thread (and so in every thread it starts) and starts the thread that takes
    /// them.
    static func install() {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let waited = signals
        Thread.detachNewThread {
            var set = waited
            var signal: Int32 = 0
            while sigwait(&set, &signal) != 0 {}
            stop(by: signal)
        }
    }

    /// Removes the unfinished files, says so and exits with 128 + `signal`.
    private static func stop(by signal: Int32) -> Never {
        AtomicFile.removeUnfinished { removed in
            let name = signal == SIGTERM ? "SIGTERM" : "SIGINT"
            // Output bound for standard output (`-o -`) is written in a private folder first: it goes too, named `-`.
            for file in removed where StandardStream.isSpooledOutput(file) { StandardStream.discard(file) }
            let files = removed.map { StandardStream.isSpooledOutput($0) ? StandardStream.name : $0 }.sorted()
            let what =
                files.isEmpty
                ? "" : ": \(files.joined(separator: ", ")) \(files.count == 1 ? "was" : "were") not written"
            // A progress bar may hold the terminal's line.
            Terminal.err((Terminal.stderrIsTerminal ? "\n" : "") + "Interrupted by \(name)\(what).")
            _exit((signal == SIGTERM ? ExitCode.terminated : .interrupted).rawValue)
        }
    }
}
