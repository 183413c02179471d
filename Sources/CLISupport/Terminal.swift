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
    public static var outputWidth: Int {
        if let raw = getenv("COLUMNS"), let columns = Int(String(cString: raw)), columns > 0 { return columns }
        var ws = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &ws) == 0 && ws.ws_col > 0 { return Int(ws.ws_col) }
        return 80
    }

    /// Writes all of `text` to `fd`, retrying short writes and EINTR; a closed pipe ends quietly.
    private static func write(_ text: String, to fd: Int32) {
        var t = text
        t.withUTF8 { buf in
            var offset = 0
            while offset < buf.count {
                let n = Glibc.write(fd, buf.baseAddress! + offset, buf.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return
                }
                offset += n
            }
        }
    }
}
