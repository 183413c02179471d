import AudioCore
import Glibc
import SystemIO

/// `-` as a file name: standard input for a file Enso reads, standard output for one it writes (as in sox and
/// ffmpeg).
///
/// Both go through a private temporary file (mode 0600 in `$TMPDIR`, else `/tmp`), removed afterwards, so every
/// format works both ways: libsndfile's readers seek (a WAV's chunk list, FLAC metadata, an Ogg stream's last
/// page for its length) and its WAV and FLAC writers go back to fill in the header when the data is complete,
/// which a pipe allows neither of. The output reaches stdout only once it is complete: a failed write sends
/// nothing.
///
/// Standard input is spooled within bounds (``spoolInput()``): no more than ``maxSpoolBytes``, the most any file
/// within the decode limit can take; a header that declares more is read alone, without spooling the rest; input
/// no decoder recognises is refused after its first 64 KiB. Spools and output folders carry their process's id,
/// and those of a process that died (`kill -9`) are removed by the next one.
///
/// - Thread safety: any thread, but standard input can be read once per process.
/// - Real-time safe: no (file I/O).
public enum StandardStream {
    /// The file name that means standard input or output.
    public static let name = "-"

    /// The most of standard input that is spooled: 1 GiB + 16 MiB. A sound file within the decode limit holds at
    /// most ``DecodeLimits/maxDecodedSamples`` samples (2^27) of at most 8 bytes each (64-bit float, the widest
    /// sample any format stores), plus its headers and metadata (16 MiB covers embedded pictures and cue lists):
    /// any longer input could not be decoded anyway.
    public static let maxSpoolBytes: Int64 = Int64(DecodeLimits.maxDecodedSamples) * 8 + (16 << 20)

    /// How much of standard input is looked at before the rest is spooled: its header (a WAV or AIFF declares its
    /// length there; every other format's first bytes say which format it is).
    static let headerBytes = 1 << 16

    /// Whether `path` is ``name``.
    public static func isStandard(_ path: String) -> Bool { path == name }

    /// Copies standard input into a new temporary file and returns its path; the caller removes it (``discard(_:)``).
    ///
    /// - The first 64 KiB come first. Input no decoder recognises (`/dev/zero`, a text file) is refused there,
    ///   before more is read.
    /// - A WAV, RF64 or AIFF whose header declares more data than ``maxSpoolBytes`` is not spooled: the temporary file
    ///   holds its header, and the rest is a hole of the declared length (a sparse file, no disk used), so the
    ///   header reads as the file's (rate, channels, length) and the decode limit refuses its samples from the
    ///   header with the figure, as it does for such a file on disk (`info` reads its header only).
    /// - Anything else is spooled up to ``maxSpoolBytes``, and refused past it.
    ///
    /// Stale spools of processes that have died are removed first.
    ///
    /// - Throws: `EnsoError` `.empty` (nothing came in), `.notAudio` (no decoder recognises it), `.tooLarge`
    ///   (over ``maxSpoolBytes``), `.ioFailure` (reading stdin or writing the temporary file failed); the message
    ///   names `-`. No spool is left behind.
    public static func spoolInput() throws(EnsoError) -> String {
        try spoolInput(from: STDIN_FILENO, limit: maxSpoolBytes)
    }

    /// ``spoolInput()`` from `source`, with `limit` for ``maxSpoolBytes`` (tests pass a small one).
    package static func spoolInput(from source: Int32, limit: Int64) throws(EnsoError) -> String {
        removeStaleSpools()
        let (fd, path) = try makeTemporary(suffix: ".in")
        do throws(EnsoError) {
            try spool(from: source, into: fd, path: path, limit: limit)
            close(fd)
            return path
        } catch {
            close(fd)
            unlink(path)
            throw error
        }
    }

    private static func spool(from source: Int32, into fd: Int32, path: String, limit: Int64) throws(EnsoError) {
        var head = [UInt8](repeating: 0, count: headerBytes)
        let got: Int
        switch readFully(source, into: &head) {
        case .success(let n): got = n
        case .failure(let failure): throw readFailure(failure.code)
        }
        guard got > 0 else { throw EnsoError(.empty, path: name, "-: standard input is empty") }
        head.removeLast(head.count - got)
        if let code = writeAll(fd, head).errno.nonZero { throw spoolFailure(code, path) }
        guard got == headerBytes else { return }
        if let data = declaredData(head), data.start + data.bytes > limit {
            // The header says what the file holds; its samples are over the decode limit, never decoded.
            guard ftruncate(fd, off_t(data.start + data.bytes)) == 0 else { throw spoolFailure(errno, path) }
            return
        }
        // An MP3's ID3 tag (cover art) may be longer than the first bytes: its format shows only past them.
        if !head.starts(with: Array("ID3".utf8)) {
            do throws(EnsoError) {
                _ = try SoundFileReader(path: path, toleratingTruncation: true)
            } catch {
                if error.detail == .notAudio {
                    throw EnsoError(
                        .notAudio, path: name,
                        "-: standard input is not a sound file Enso reads (its first \(headerBytes / 1024) KiB match "
                            + "no format); nothing more was read")
                }
            }
        }
        switch copy(from: source, to: fd, limit: limit - Int64(got)) {
        case .success: return
        case .failure(.read(let code)): throw readFailure(code)
        case .failure(.write(let code)): throw spoolFailure(code, path)
        case .failure(.overLimit):
            throw EnsoError(
                .tooLarge, path: name,
                "-: standard input is over \(limit >> 20) MiB, more than any sound file within the decode limit "
                    + "(\(DecodeLimits.maxDecodedSamples) samples of at most 8 bytes, and headers) takes; "
                    + "nothing was kept: save it to a file and give its path")
        }
    }

    /// Where the data of a WAV, RF64 or AIFF whose header is in `head` starts, and how many bytes its header declares;
    /// `nil` when the header does not say (another format, or a streamed WAV's length of 0 or `0xFFFFFFFF`).
    ///
    /// An RF64 (a WAV over 4 GiB) declares its length in its `ds64` chunk, which comes first (EBU Tech 3306).
    static func declaredData(_ head: [UInt8]) -> (start: Int64, bytes: Int64)? {
        var bytes = head
        var rf64Length: Int64?
        if head.count >= 36 && head.starts(with: Array("RF64".utf8)) && head[12..<16].elementsEqual("ds64".utf8) {
            rf64Length = (0..<8).reduce(Int64(0)) { $0 | Int64(head[28 + $1]) << (8 * Int64($1)) }
            // The rest of its chunks are a WAV's.
            bytes.replaceSubrange(0..<4, with: Array("RIFF".utf8))
        }
        guard let probe = AudioHeaderProbe.parse(bytes, fileSize: Int64(head.count)),
            var declared = probe.declaredDataBytes, let available = probe.availableDataBytes
        else { return nil }
        if let rf64Length, declared == 0xFFFF_FFFF { declared = rf64Length }
        guard declared > 0, !(probe.container == "WAV" && declared == 0xFFFF_FFFF) else { return nil }
        return (Int64(head.count) - available, declared)
    }

    private static func readFailure(_ code: Int32) -> EnsoError {
        EnsoError(.ioFailure, path: name, "-: reading standard input failed: \(systemReason(code))", code: code)
    }

    private static func spoolFailure(_ code: Int32, _ path: String) -> EnsoError {
        EnsoError(
            .ioFailure, path: name, "-: spooling standard input to \(path) failed: \(systemReason(code))", code: code)
    }

    /// Reads from `source` until `buffer` is full or the input ends; returns the bytes read.
    private static func readFully(_ source: Int32, into buffer: inout [UInt8]) -> Result<Int, ReadFailure> {
        var got = 0
        while got < buffer.count {
            let n = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress! + got, $0.count - got) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(ReadFailure(code: errno))
            }
            got += n
        }
        return .success(got)
    }

    private struct ReadFailure: Error {
        var code: Int32
    }

    /// A path in a new private temporary folder where an output bound for stdout is written first (the file
    /// itself is not created, so the atomic writers create it); `extension` keeps format inference working.
    /// Pass it to ``sendToOutput(_:)`` when the file is complete, or to ``discard(_:)``.
    ///
    /// - Throws: `EnsoError` `.ioFailure` when no temporary folder can be made.
    public static func temporaryOutputPath(extension ext: String) throws(EnsoError) -> String {
        removeStaleSpools()
        var template = Array((temporaryFolder() + "/\(outputPrefix)\(getpid())-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        guard made != nil else {
            let code = errno
            throw EnsoError(
                .ioFailure, path: name, "-: cannot make a temporary folder: \(systemReason(code))", code: code)
        }
        return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) } + "/out." + ext
    }

    /// Copies the complete file at `path` (from ``temporaryOutputPath(extension:)``) to standard output, then
    /// removes it and its folder.
    ///
    /// - Throws: `EnsoError` `.ioFailure` when stdout is closed or full (a reader that stopped reading).
    public static func sendToOutput(_ path: String) throws(EnsoError) {
        defer { discard(path) }
        // A reader that stops early (`| head -c 100`) is an EPIPE here, not a SIGPIPE that would kill the process
        // before the temporary file is removed.
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            throw EnsoError(.ioFailure, path: name, "-: \(path): \(systemReason(code))", code: code)
        }
        defer { close(fd) }
        switch copy(from: fd, to: STDOUT_FILENO, limit: .max) {
        case .success, .failure(.overLimit): return
        case .failure(.read(let code)):
            throw EnsoError(.ioFailure, path: name, "-: reading \(path) failed: \(systemReason(code))", code: code)
        case .failure(.write(let code)):
            throw EnsoError(
                .ioFailure, path: name, "-: writing standard output failed: \(systemReason(code))", code: code)
        }
    }

    /// Which side of a ``copy(from:to:limit:)`` failed, with its errno, or that the source held more than the limit.
    private enum CopyFailure: Error {
        case read(Int32)
        case write(Int32)
        case overLimit
    }

    /// Copies everything `source` holds to `destination`, 64 KiB at a time, at most `limit` bytes (more is
    /// ``CopyFailure/overLimit``): a read interrupted by a signal is retried, each chunk goes through `writeAll`;
    /// returns the bytes copied.
    private static func copy(from source: Int32, to destination: Int32, limit: Int64) -> Result<Int64, CopyFailure> {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var total: Int64 = 0
        while true {
            let n = buffer.withUnsafeMutableBytes { read(source, $0.baseAddress!, $0.count) }
            if n == 0 { return .success(total) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(.read(errno))
            }
            guard total + Int64(n) <= limit else { return .failure(.overLimit) }
            let code = buffer.withUnsafeBytes {
                writeAll(destination, UnsafeRawBufferPointer(rebasing: $0[0..<n])).errno
            }
            if code != 0 { return .failure(.write(code)) }
            total += Int64(n)
        }
    }

    /// Whether `path` is a file of ``temporaryOutputPath(extension:)``: output bound for standard output.
    public static func isSpooledOutput(_ path: String) -> Bool {
        path.hasPrefix(temporaryFolder() + "/" + outputPrefix)
    }

    /// Removes a file from ``temporaryOutputPath(extension:)`` or ``spoolInput()`` (and the folder the former
    /// made); a missing file is fine.
    public static func discard(_ path: String) {
        unlink(path)
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
        if folder.hasPrefix(temporaryFolder() + "/" + outputPrefix) { rmdir(folder) }
    }

    /// The name prefixes of spools (`enso-stdin-PID-XXXXXX.in`) and output folders (`enso-stdout-PID-XXXXXX`).
    static let inputPrefix = "enso-stdin-"
    static let outputPrefix = "enso-stdout-"

    /// Removes the spools and output folders in the temporary folder whose process is gone and which belong to this
    /// user (a `kill -9` during `info -` leaves its spool, up to ``maxSpoolBytes``). A name whose process id is
    /// alive, or taken again by another process, is kept.
    public static func removeStaleSpools() {
        let folder = temporaryFolder()
        guard let dir = opendir(folder) else { return }
        var stale: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let prefix = [inputPrefix, outputPrefix].first(where: { name.hasPrefix($0) }) else { continue }
            guard let pid = Int32(name.dropFirst(prefix.count).prefix { $0.isNumber }), pid > 0, pid != getpid(),
                kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            stale.append(folder + "/" + name)
        }
        closedir(dir)
        for path in stale {
            var st = stat()
            // Only this user's: another user's spool is not ours to remove.
            guard lstat(path, &st) == 0, st.st_uid == geteuid() else { continue }
            switch st.st_mode & S_IFMT {
            case S_IFREG: unlink(path)
            case S_IFDIR: removeOutputFolder(path)
            default: continue
            }
        }
    }

    /// Removes an output folder's regular files (the output and an atomic writer's temporary), then the folder.
    private static func removeOutputFolder(_ folder: String) {
        if let dir = opendir(folder) {
            var names: [String] = []
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                    String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                }
                if name != "." && name != ".." { names.append(name) }
            }
            closedir(dir)
            for name in names {
                var st = stat()
                let file = folder + "/" + name
                if lstat(file, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG { unlink(file) }
            }
        }
        rmdir(folder)
    }

    private static func temporaryFolder() -> String {
        if let raw = getenv("TMPDIR") {
            let dir = String(cString: raw)
            if dir.hasPrefix("/") { return dir.hasSuffix("/") && dir.count > 1 ? String(dir.dropLast()) : dir }
        }
        return "/tmp"
    }

    private static func makeTemporary(suffix: String) throws(EnsoError) -> (Int32, String) {
        var template = Array((temporaryFolder() + "/\(inputPrefix)\(getpid())-XXXXXX" + suffix).utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, Int32(suffix.utf8.count)) }
        guard fd >= 0 else {
            let code = errno
            throw EnsoError(
                .ioFailure, path: name, "-: cannot make a temporary file: \(systemReason(code))", code: code)
        }
        return (fd, template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
    }
}

extension Int32 {
    /// The value, or `nil` when it is 0 (an errno of "no error").
    fileprivate var nonZero: Int32? { self == 0 ? nil : self }
}
