import Glibc
import Synchronization
import SystemIO

/// libmpg123's notes and errors, named by file.
///
/// libsndfile decodes MP3 through libmpg123, which prints what it finds in a damaged stream straight to the
/// process's stderr ("Note: Illegal Audio-MPEG-Header 0x58bbbf2c at offset 23016.") without the file's name, and
/// libsndfile gives no way to quiet it or take the text: in a folder scan nobody could tell which file it was. So
/// while libsndfile works on an MP3 (open, read, seek), stderr is pointed at a private temporary file; afterwards
/// each line libmpg123 wrote is printed as `FILE: mp3 decoder: LINE`, and anything else that came in meanwhile (from
/// another thread) is passed on as it was.
///
/// One MP3 call at a time holds stderr (a lock), so two threads' messages cannot mix; calls on other formats are
/// not wrapped. A line is libmpg123's when it starts with `Note: `, `Warning: `, `[src/libmpg123/` or `[` + a file
/// of libmpg123's (its `error:` lines carry their source position).
///
/// - Thread safety: any thread.
/// - Real-time safe: no (file descriptors and a lock).
enum DecoderMessages {
    private static let lock = Mutex(())

    /// Runs `body` with stderr captured when `active`, then prints what libmpg123 wrote, named by `path`.
    static func naming<T>(_ path: String, when active: Bool, _ body: () -> T) -> T {
        guard active else { return body() }
        var result: T?
        lock.withLock { _ in result = capturing(path, body) }
        return result!
    }

    /// `body` with stderr pointed at a temporary file; then what came in, named (the lock held).
    private static func capturing<T>(_ path: String, _ body: () -> T) -> T {
        // An unnamed temporary file (removed when closed): libmpg123 may write more than a pipe holds.
        guard let file = tmpfile() else { return body() }
        defer { fclose(file) }
        let sink = fileno(file)
        fflush(nil)
        let saved = dup(STDERR_FILENO)
        guard saved >= 0, dup2(sink, STDERR_FILENO) >= 0 else {
            if saved >= 0 { close(saved) }
            return body()
        }
        let result = body()
        fflush(nil)
        _ = dup2(saved, STDERR_FILENO)
        close(saved)
        let text = readAll(sink)
        if !text.isEmpty { _ = writeAll(STDERR_FILENO, Array(named(text, path: path).utf8)) }
        return result
    }

    /// `text` with each of libmpg123's lines named by `path`; other lines as they were.
    static func named(_ text: String, path: String) -> String {
        var out = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast(text.hasSuffix("\n") ? 1 : 0)
        {
            if isDecoderLine(line) {
                out += "\(path): mp3 decoder: \(line)\n"
            } else {
                out += line + "\n"
            }
        }
        if !text.hasSuffix("\n"), out.hasSuffix("\n") { out.removeLast() }
        return out
    }

    static func isDecoderLine(_ line: Substring) -> Bool {
        line.hasPrefix("Note: ") || line.hasPrefix("Warning: ") || line.hasPrefix("[src/libmpg123/")
            || (line.hasPrefix("[") && line.contains("] error: "))
            || (line.hasPrefix("[") && line.contains("] warning: "))
    }

    private static func readAll(_ fd: Int32) -> String {
        let size = lseek(fd, 0, SEEK_END)
        guard size > 0 else { return "" }
        var bytes = [UInt8](repeating: 0, count: Int(size))
        let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, $0.count, 0) }
        return String(decoding: bytes.prefix(max(n, 0)), as: UTF8.self)
    }
}

extension DecoderMessages {
    /// The file names libmpg123 decodes, by extension.
    static let mpegExtensions: Set<String> = ["mp3", "mp2", "mp1", "mpa", "mpga"]

    /// Whether the file at `path` may be an MP3 before libsndfile has opened it: by its extension, an ID3 tag or an
    /// MPEG frame sync (11 set bits) at its start.
    static func mayBeMPEG(_ path: String) -> Bool {
        if let dot = path.lastIndex(of: "."), mpegExtensions.contains(path[path.index(after: dot)...].lowercased()) {
            return true
        }
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var b = [UInt8](repeating: 0, count: 3)
        guard b.withUnsafeMutableBytes({ pread(fd, $0.baseAddress!, 3, 0) }) == 3 else { return false }
        return b == Array("ID3".utf8) || (b[0] == 0xFF && b[1] & 0xE0 == 0xE0)
    }
}
