import AudioCore
import ControlProtocol
import Foundation
import Synchronization
import SystemIO

#if canImport(Glibc)
    import Glibc
#endif

/// The session journal: one JSON line per sitting, appended with `fsync`, never losing a record.
///
/// - Records are appended to `sessions.jsonl` under an exclusive `flock` on `<path>.lock`, then fsynced;
///   a failed write (a full disk) is cut back so the file keeps exactly the records it had.
/// - A session in progress keeps a checkpoint file in `<path>.inprogress/` (written atomically: temp file,
///   fsync, rename). When the session ends its record is appended, then the checkpoint removed. If the
///   process dies, ``recoverInterrupted()`` (run by the next server start or `enso sessions`) appends the
///   checkpoint as `interrupted` unless its id is already in the journal, so nothing is lost or duplicated.
/// - Reading skips a torn last line (a write cut by power loss) with a warning; appending after one starts a
///   new line first, so the torn bytes never swallow a later record.
/// - ``markSynced(_:)`` rewrites the file atomically (temp file, fsync, rename), keeping unreadable lines.
/// - A sitting whose record cannot be appended (a full disk) is kept in memory (``unwrittenRecords``) and written
///   ahead of the next record, by ``writeUnwritten()``, or by recovery; ``read()`` lists it meanwhile. A server
///   whose disk is full for a while loses no sitting, even one whose checkpoints could not be written either.
///
/// - Thread safety: every method may be called from any thread; writers are serialized by the file lock.
/// - Real-time safe: no (file I/O).
public final class SessionJournal: @unchecked Sendable {
    /// The journal file.
    public let path: String
    /// The folder of in-progress checkpoints.
    public var checkpointFolder: String { path + ".inprogress" }
    /// Write calls; tests replace them to simulate failures.
    var syscalls = FileSyscalls()
    /// Sittings whose record could not be appended, oldest first (see the type's notes).
    private let unwritten = Mutex<[SessionRecord]>([])

    /// What a read found: the records in file order and warnings about lines that were skipped.
    public struct Contents: Sendable {
        public var records: [SessionRecord]
        public var warnings: [String]
    }

    public init(path: String) {
        self.path = path
    }

    /// `$XDG_DATA_HOME/enso/sessions.jsonl`, or `~/.local/share/enso/sessions.jsonl` without it.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") { return xdg + "/enso/sessions.jsonl" }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return home + "/.local/share/enso/sessions.jsonl"
    }

    // MARK: - Reading

    /// Reads every record.
    ///
    /// - Throws: `EnsoError` `.unavailable`/`.permission`/`.failure` when the file exists but cannot
    ///   be read (a missing file is an empty journal).
    public func read() throws(EnsoError) -> Contents {
        var contents = try readBytes().map { Self.parse($0, path: path) } ?? Contents(records: [], warnings: [])
        let waiting = unwrittenRecords
        if !waiting.isEmpty {
            contents.records += waiting
            contents.warnings.append(
                "\(path): the last \(waiting.count) record(s) could not be written yet (\(waiting.map(\.id).joined(separator: ", "))): "
                    + "kept in memory and written with the next record")
        }
        return contents
    }

    static func parse(_ data: [UInt8], path: String) -> Contents {
        var records: [SessionRecord] = []
        var warnings: [String] = []
        let decoder = JSONDecoder()
        var lineNumber = 0
        var start = 0
        while start < data.count {
            lineNumber += 1
            let newline = data[start...].firstIndex(of: 0x0A)
            let end = newline ?? data.count
            let line = data[start..<end]
            start = end + 1
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { continue }
            if let r = try? decoder.decode(SessionRecord.self, from: Data(line)) {
                records.append(r)
            } else if newline == nil {
                warnings.append("\(path): skipped a torn last line (\(line.count) bytes, an interrupted write)")
            } else {
                warnings.append("\(path): skipped line \(lineNumber): not a session record")
            }
        }
        return Contents(records: records, warnings: warnings)
    }

    private func readBytes() throws(EnsoError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            let e = errno
            if e == ENOENT { return nil }
            throw Self.error(e, "cannot read the journal \(path)")
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw Self.error(errno, "cannot read the journal \(path)") }
        guard (st.st_mode & S_IFMT) == S_IFREG else { throw notRegularFile }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw Self.error(errno, "cannot read the journal \(path)")
            }
            if n == 0 { break }
            bytes += chunk[0..<n]
        }
        return bytes
    }

    // MARK: - Appending

    /// Appends `record` as one line and fsyncs.
    ///
    /// - Throws: `EnsoError` naming the journal and the system's reason (for a full disk:
    ///   `.failure`, "No space left on device"); the file then holds exactly the records it held before.
    public func append(_ record: SessionRecord) throws(EnsoError) {
        try withLock { () throws(EnsoError) in try appendLocked([record]) }
    }

    /// The records whose append failed, oldest first, that this process still holds for the journal.
    public var unwrittenRecords: [SessionRecord] { unwritten.withLock { $0 } }

    /// Appends the records an earlier append could not write (``unwrittenRecords``), if any.
    ///
    /// - Throws: `EnsoError` as ``append(_:)``; the records are then still held.
    public func writeUnwritten() throws(EnsoError) {
        guard !unwrittenRecords.isEmpty else { return }
        try withLock { () throws(EnsoError) in try appendLocked([]) }
    }

    /// Holds `record` for a later append (``unwrittenRecords``), once.
    func holdUnwritten(_ record: SessionRecord) {
        unwritten.withLock { w in if !w.contains(where: { $0.id == record.id }) { w.append(record) } }
    }

    /// Appends the unwritten records, then `records`, as one write; on success the unwritten ones are released and
    /// their checkpoints removed. The caller holds the lock.
    func appendLocked(_ records: [SessionRecord]) throws(EnsoError) {
        let waiting = unwrittenRecords.filter { r in !records.contains { $0.id == r.id } }
        try appendLocked(lines: waiting + records)
        if !waiting.isEmpty {
            unwritten.withLock { w in w.removeAll { r in waiting.contains { $0.id == r.id } } }
            for r in waiting { unlink(checkpointPath(r.id)) }
        }
    }

    private func appendLocked(lines records: [SessionRecord]) throws(EnsoError) {
        guard !records.isEmpty else { return }
        try ensureFolder(of: path)
        let fd = try openForAppending(O_RDWR, "cannot open the journal \(path) for writing")
        defer { close(fd) }
        var st = stat()
        let size: off_t = fstat(fd, &st) == 0 ? st.st_size : 0
        var text = ""
        if size > 0 {
            var last: UInt8 = 0
            if pread(fd, &last, 1, size - 1) == 1 && last != 0x0A { text = "\n" }
        }
        for r in records { text += Self.encodeLine(r) + "\n" }
        var bytes = Array(text.utf8)
        let (written, writeFailure) = writeAll(fd, bytes, using: syscalls.write)
        let failure = writeFailure != 0 ? writeFailure : syscalls.fsync(fd) == 0 ? 0 : errno
        if failure != 0 {
            // Cut a partial line back off so the journal keeps exactly what it had.
            if written > 0 { _ = ftruncate(fd, size); _ = fsync(fd) }
            throw Self.error(failure, "cannot write the journal \(path)")
        }
        bytes.removeAll()
    }

    static func encodeLine(_ record: SessionRecord) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // A record holds only strings, finite numbers and Booleans, so encoding cannot fail.
        let data = (try? encoder.encode(record)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    // MARK: - Checking

    /// Checks that a sitting can be journaled: the folders exist and are trusted, the journal opens for appending and
    /// the checkpoint folder takes a file. Nothing is written to the journal.
    ///
    /// - Throws: `EnsoError` naming the path: `.permission` for `EACCES`, `EPERM` and `EROFS` (a read-only
    ///   mount) or a folder open to others, `.unavailable` for a missing parent that cannot be made, `.invalidInput`
    ///   when the journal's path is not a regular file (a folder), else `.failure`.
    public func checkWritable() throws(EnsoError) {
        try ensureFolder(of: path)
        close(try openForAppending(O_WRONLY, "cannot write the journal \(path)"))
        try ensureFolder(of: checkpointFolder + "/x")
        let probe = checkpointFolder + "/.probe-\(getpid())-\(String(UInt32.random(in: 0...UInt32.max), radix: 16))"
        let pfd = syscalls.open(probe, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard pfd >= 0 else { throw Self.error(errno, "cannot write checkpoints in \(checkpointFolder)") }
        close(pfd)
        unlink(probe)
    }

    // MARK: - Marking synced

    /// Sets `syncedToHealth` on the records with the given ids, rewriting the file atomically.
    ///
    /// Only lines that can hold a wanted id are decoded: an id of plain characters (a UUID) is looked for as bytes
    /// first, and other lines are copied as they are. On a 50 000-record journal this is one pass over the bytes
    /// instead of 50 000 decodes and encodes (0.5 s of the control thread per call before).
    ///
    /// - Returns: the ids that were found (already-synced ones included) and those that were not.
    /// - Throws: `EnsoError` when the journal cannot be read or rewritten; the old file is then intact.
    public func markSynced(_ ids: [String]) throws(EnsoError) -> (found: [String], missing: [String]) {
        try withLock { () throws(EnsoError) in
            let wanted = Set(ids)
            var found = Set<String>()
            let data = try readBytes() ?? []
            // Plain ids appear verbatim between quotes in any JSON spelling of the record; others need a decode.
            let plain = ids.allSatisfy { $0.utf8.allSatisfy { Self.isPlainIDByte($0) } }
            let needles = ids.map { Array(("\"" + $0 + "\"").utf8) }
            var out: [UInt8] = []
            out.reserveCapacity(data.count + 64)
            var changed = false
            var decodes = 0
            let decoder = JSONDecoder()
            for line in data.split(separator: 0x0A, omittingEmptySubsequences: true) {
                if !plain || needles.contains(where: { Self.contains(line, $0) }) {
                    decodes += 1
                    if var r = try? decoder.decode(SessionRecord.self, from: Data(line)), wanted.contains(r.id) {
                        found.insert(r.id)
                        if !r.syncedToHealth {
                            r.syncedToHealth = true
                            changed = true
                        }
                        out += Array(Self.encodeLine(r).utf8)
                        out.append(0x0A)
                        continue
                    }
                }
                out += line
                out.append(0x0A)
            }
            lastMarkSyncedDecodes = decodes
            if changed { try writeAtomically(out, to: path) }
            // A record still waiting to be written is marked where it waits.
            unwritten.withLock { w in
                for i in w.indices where wanted.contains(w[i].id) && !found.contains(w[i].id) {
                    w[i].syncedToHealth = true
                    found.insert(w[i].id)
                }
            }
            return (ids.filter { found.contains($0) }, ids.filter { !found.contains($0) })
        }
    }

    /// How many lines the last ``markSynced(_:)`` decoded (for tests: it must not decode every record).
    private(set) var lastMarkSyncedDecodes = 0

    private static func isPlainIDByte(_ b: UInt8) -> Bool {
        (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || b == 0x2D || b == 0x5F
            || b == 0x2E
    }

    /// Whether `haystack` contains `needle` (both short lines; a plain scan).
    private static func contains(_ haystack: ArraySlice<UInt8>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, haystack.count >= needle.count else { return false }
        var i = haystack.startIndex
        let last = haystack.endIndex - needle.count
        while i <= last {
            if haystack[i] == first && haystack[i..<(i + needle.count)].elementsEqual(needle) { return true }
            i += 1
        }
        return false
    }

    /// Replaces `target` with `bytes` atomically and durably, as a private file (``AtomicFile``, mode 0600,
    /// `.powerLoss`): a file or link planted under the temporary name is never opened.
    func writeAtomically(_ bytes: [UInt8], to target: String) throws(EnsoError) {
        try AtomicFile.write(bytes, to: target, mode: 0o600, durability: .powerLoss, syscalls: syscalls)
    }

    // MARK: - Helpers

    /// Runs `body` holding an exclusive `flock` on `<path>.lock`.
    func withLock<T>(_ body: () throws(EnsoError) -> T) throws(EnsoError) -> T {
        try ensureFolder(of: path)
        let lockPath = path + ".lock"
        let fd = open(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Self.error(errno, "cannot open the journal lock \(lockPath)") }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0 {
            guard errno == EINTR else { throw Self.error(errno, "cannot lock the journal \(lockPath)") }
        }
        return try body()
    }

    /// Creates the folder of `file` (0700, parents too) when missing, then checks it is trusted as ssh checks
    /// `~/.ssh`: it and every folder above it owned by this user (or root) and writable by nobody else
    /// (``checkTrusted(folder:)``).
    ///
    /// - Throws: `.permission` naming the folder and what to do when others could write there (they could plant
    ///   links or forged checkpoints); the errno's kind when it cannot be created (`EACCES`, `EROFS`: `.permission`).
    func ensureFolder(of file: String) throws(EnsoError) {
        let folder = (file as NSString).deletingLastPathComponent
        guard !folder.isEmpty else { return }
        // Nothing is created under a folder another user controls.
        if TrustedPath.problem(with: folder) != nil { try Self.checkTrusted(folder: folder) }
        try Self.makeFolder(folder)
        try Self.checkTrusted(folder: folder)
    }

    static func makeFolder(_ folder: String) throws(EnsoError) {
        if mkdir(folder, 0o700) == 0 { return }
        let e = errno
        if e == EEXIST { return }
        let parent = (folder as NSString).deletingLastPathComponent
        guard e == ENOENT, !parent.isEmpty, parent != folder else {
            throw error(e, "cannot create the journal folder \(folder)")
        }
        try makeFolder(parent)
        if mkdir(folder, 0o700) != 0 && errno != EEXIST {
            throw error(errno, "cannot create the journal folder \(folder)")
        }
    }

    /// Refuses a journal folder that another user controls: the one folder walk (``TrustedPath``, with `lstat`, as
    /// ssh's `safe_path`) over it and every folder above it, so a link another user planted is never followed (its
    /// target would be judged, not the link) and a private folder inside another user's folder is refused; the
    /// journal folder itself is writable by nobody else, sticky or not (others could plant files in it).
    static func checkTrusted(folder: String) throws(EnsoError) {
        if let problem = TrustedPath.problem(with: folder) {
            switch problem.reason {
            case .notFolder where problem.path == folder:
                throw EnsoError(.unavailable, "the journal folder \(folder) is not a folder", code: ENOTDIR)
            case .cannotExamine(let code):
                throw error(code, "cannot use the journal folder \(folder)")
            case .writable(let mode) where problem.path == folder:
                throw EnsoError(
                    .permission,
                    "the journal folder \(folder) is writable by other users (mode \(String(mode & 0o7777, radix: 8))), "
                        + "who could plant files in it; make it private (chmod go-w \(folder)) or choose another --journal"
                )
            case .owner(let uid) where problem.path == folder:
                throw EnsoError(
                    .permission,
                    "the journal folder \(folder) belongs to another user (uid \(uid)); use a folder of your own")
            default:
                throw EnsoError(
                    .permission,
                    "the journal folder \(folder) is not safe: \(problem), who could replace it; "
                        + "use a folder of your own (--journal)", code: EACCES)
            }
        }
        var st = stat()
        guard stat(folder, &st) == 0 else { throw error(errno, "cannot use the journal folder \(folder)") }
        guard st.st_mode & 0o022 == 0 else {
            throw EnsoError(
                .permission,
                "the journal folder \(folder) is writable by other users (mode \(String(st.st_mode & 0o7777, radix: 8))), "
                    + "who could plant files in it; make it private (chmod go-w \(folder)) or choose another --journal")
        }
    }

    /// An `EnsoError` for errno `code`, with the system's description (the one errno table: `ErrorKind(errno:)`).
    /// A journal path that names something other than a regular file (a folder, a FIFO, a device): the server's
    /// own configuration, `invalid-input` (the protocol's `unsupported`, through `ErrorCode(kind)`), whether the
    /// journal is read or written. Writing to a folder gave `EISDIR`, `unavailable`, while reading it gave this.
    var notRegularFile: EnsoError { EnsoError(.invalidInput, "the journal \(path) is not a regular file") }

    /// Opens the journal for appending (`access`: `O_WRONLY` or `O_RDWR`), creating it 0600: a regular file or
    /// ``notRegularFile`` (a FIFO is opened without blocking, to be refused).
    ///
    /// - Throws: ``notRegularFile``, else the failed call's error with `what`.
    private func openForAppending(_ access: Int32, _ what: String) throws(EnsoError) -> Int32 {
        let fd = syscalls.open(path, access | O_APPEND | O_CREAT | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let e = errno
            // A folder (`EISDIR`), a FIFO no one reads or a device without its driver (`ENXIO`).
            throw e == EISDIR || e == ENXIO ? notRegularFile : Self.error(e, what)
        }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw notRegularFile
        }
        // Back to blocking writes for the file's contents.
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }

    static func error(
        _ code: Int32, _ what: String, fileID: String = #fileID, function: String = #function
    ) -> EnsoError {
        EnsoError(errno: code, what, fileID: fileID, function: function)
    }
}
