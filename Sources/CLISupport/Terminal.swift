import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Writing to stdout and stderr, and knowing whether they are terminals.
///
/// Results go to stdout; errors, warnings and progress go to stderr.
public enum Terminal {
    /// Prints `text` and a newline to stdout.
    public static func out(_ text: String) {
        write(text + "\n", to: STDOUT_FILENO)
    }

    /// Writes `text` to stdout without a newline (a long document in pieces).
    public static func outRaw(_ text: String) {
        write(text, to: STDOUT_FILENO)
    }

    /// Prints `text` and a newline to stderr.
    public static func err(_ text: String) {
        write(text + "\n", to: STDERR_FILENO)
    }

    /// Writes `text` to stderr without a newline (progress lines).
    public static func errRaw(_ text: String) {
        write(text, to: STDERR_FILENO)
    }

    /// Flushes C stdio buffers (output written here is unbuffered already).
    public static func flush() {
        fflush(nil)
    }

    /// Whether stdout is a terminal.
    public static var stdoutIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
    /// Whether stderr is a terminal (progress bars show only then).
    public static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }
    /// Whether stdin is a terminal (interactive keys only then).
    public static var stdinIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// The terminal width, or 80.
    public static var width: Int {
        var ws = winsize()
        if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &ws) == 0 && ws.ws_col > 0 { return Int(ws.ws_col) }
        return 80
    }

    /// The width help is wrapped to: `$COLUMNS` when set, else stdout's terminal width, else 80 (a pipe or a
    /// file, as swift-argument-parser does).
    public static var outputWidth: Int { columns ?? stdoutTerminalWidth ?? 80 }

    /// The width tables are fitted to (``TextTable/render()``): `$COLUMNS` when set (also when stdout is a pipe),
    /// else stdout's terminal width; `nil`, no limit, for a pipe or a file without `COLUMNS`, so a script that
    /// reads the table gets each row on one line.
    public static var tableWidth: Int? { columns ?? stdoutTerminalWidth }

    /// `$COLUMNS` when it is set to a positive whole number.
    private static var columns: Int? {
        guard let raw = getenv("COLUMNS"), let columns = Int(String(cString: raw)), columns > 0 else { return nil }
        return columns
    }

    /// The width of the terminal stdout is, or `nil` when it is not one.
    private static var stdoutTerminalWidth: Int? {
        var ws = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &ws) == 0 && ws.ws_col > 0 { return Int(ws.ws_col) }
        return nil
    }

    /// Whether a write to stdout met a reader that had stopped reading (`| head -c 10`): the rest of the output
    /// is dropped and ``CommandLineTool`` exits quietly with ``ExitCode/readerStopped``.
    public static var readerStopped: Bool { stoppedReader.load(ordering: .relaxed) }

    /// Records that stdout's reader stopped reading (an `EPIPE` on stdout met outside ``out(_:)``).
    public static func noteReaderStopped() { stoppedReader.store(true, ordering: .relaxed) }

    private static let stoppedReader = Atomic<Bool>(false)

    /// Writes all of `text` to `fd`, retrying short writes and EINTR; a closed pipe ends quietly (and is noted for
    /// stdout: ``readerStopped``).
    private static func write(_ text: String, to fd: Int32) {
        var t = text
        t.withUTF8 { buf in
            var offset = 0
            while offset < buf.count {
                let n = Glibc.write(fd, buf.baseAddress! + offset, buf.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    if errno == EPIPE && fd == STDOUT_FILENO { noteReaderStopped() }
                    return
                }
                offset += n
            }
        }
    }
}
