import AudioCore
import ControlProtocol
import Foundation
import SystemIO

#if canImport(Glibc)
    import Glibc
#endif

extension SessionJournal {
    /// A checkpoint of a session in progress: its record so far and the process that owns it.
    struct Checkpoint: Codable {
        var pid: Int32
        /// The owner's start time (field 22 of `/proc/PID/stat`), so a reused pid is not taken for the owner.
        var processStart: String
        var record: SessionRecord
    }

    /// Saves the record of a session in progress (as `interrupted`, ending now; as `completed` when the record says so:
    /// a sitting whose closing bell has rung was sat in full, so a crash during that bell's ring loses nothing),
    /// replacing its previous checkpoint atomically.
    ///
    /// - Throws: `EnsoError` when the checkpoint cannot be written; the previous one is then intact.
    public func checkpoint(_ record: SessionRecord) throws(EnsoError) {
        var r = record
        if r.outcome != .completed { r.outcome = .interrupted }
        let cp = Checkpoint(pid: getpid(), processStart: Self.processStart(getpid()) ?? "", record: r)
        // The journal's folder first: whoever can write there could swap the checkpoint folder.
        try ensureFolder(of: path)
        try ensureFolder(of: checkpointPath(r.id))
        let data = (try? JSONEncoder().encode(cp)) ?? Data()
        try writeAtomically(Array(data), to: checkpointPath(r.id))
    }

    /// Appends the final record of a session and removes its checkpoint (in that order, so a crash between
    /// the two leaves a checkpoint that recovery recognises as already journaled).
    ///
    /// - Throws: `EnsoError` when the record cannot be appended. The record is then held in memory and written
    ///   with the next one (``unwrittenRecords``), and the checkpoint is kept, so a process that dies first still
    ///   leaves the sitting to be recovered as `interrupted`.
    public func finish(_ record: SessionRecord) throws(EnsoError) {
        do {
            try withLock { () throws(EnsoError) in
                try appendLocked([record])
                unlink(checkpointPath(record.id))
            }
        } catch {
            holdUnwritten(record)
            throw error
        }
    }

    /// Appends every checkpoint whose process is gone as its record, `interrupted` (or `completed`, when its closing
    /// bell had rung) unless its id is already in the journal, then removes it. Checkpoints of live processes are left alone.
    ///
    /// - Returns: the records recovered.
    /// - Throws: `EnsoError` when the journal cannot be read or written; unrecovered checkpoints
    ///   are kept for the next attempt.
    @discardableResult
    public func recoverInterrupted() throws(EnsoError) -> [SessionRecord] {
        try recoverInterruptedReporting().recovered
    }

    /// ``recoverInterrupted()``, with a warning for each checkpoint left alone because it cannot be trusted: only
    /// regular files owned by this user, in a folder only this user (or root) can write to, are read (another
    /// user must not be able to forge sittings). Temporary files left by dead processes are removed.
    ///
    /// - Throws: as ``recoverInterrupted()``; `.permission` when the checkpoint folder is open to others.
    public func recoverInterruptedReporting() throws(EnsoError) -> (recovered: [SessionRecord], warnings: [String]) {
        removeStaleTemporaryFiles()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: checkpointFolder) else {
            return ([], [])
        }
        let files = names.filter { $0.hasSuffix(".json") }.sorted()
        guard !files.isEmpty else { return ([], []) }
        try Self.checkTrusted(
            folder: (path as NSString).deletingLastPathComponent.isEmpty
                ? "." : (path as NSString).deletingLastPathComponent)
        try Self.checkTrusted(folder: checkpointFolder)
        return try withLock { () throws(EnsoError) in
            let known = Set(try read().records.map(\.id))
            var recovered: [SessionRecord] = []
            var warnings: [String] = []
            var done: [String] = []
            for name in files {
                let file = checkpointFolder + "/" + name
                let data: [UInt8]
                switch Self.readOwnFile(file) {
                case .success(let bytes): data = bytes
                case .failure(let why):
                    warnings.append("\(file): not recovered: \(why)")
                    continue
                }
                guard let cp = try? JSONDecoder().decode(Checkpoint.self, from: Data(data)) else { continue }
                if cp.pid != getpid() && Self.isAlive(pid: cp.pid, start: cp.processStart) { continue }
                if cp.pid == getpid() && cp.processStart == Self.processStart(getpid()) { continue }
                if !known.contains(cp.record.id) { recovered.append(cp.record) }
                done.append(file)
            }
            if !recovered.isEmpty { try appendLocked(recovered) }
            for file in done { unlink(file) }
            return (recovered, warnings)
        }
    }

    struct Untrusted: Error { var reason: String }

    /// The bytes of `file` when it is a regular file (not a link) owned by this user and under 1 MiB.
    static func readOwnFile(_ file: String) -> Result<[UInt8], Untrusted> {
        let fd = open(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return .failure(Untrusted(reason: String(cString: strerror(errno)))) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else {
            return .failure(Untrusted(reason: "not a regular file"))
        }
        guard st.st_uid == geteuid() else {
            return .failure(Untrusted(reason: "owned by another user (uid \(st.st_uid)), so not trusted"))
        }
        guard st.st_size <= 1 << 20 else {
            return .failure(Untrusted(reason: "\(st.st_size) bytes, too large for a checkpoint"))
        }
        var bytes = [UInt8](repeating: 0, count: Int(st.st_size))
        let n = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, $0.count, 0) }
        guard n == bytes.count else { return .failure(Untrusted(reason: "cannot be read")) }
        return .success(bytes)
    }

    /// Removes the journal's and the checkpoints' temporary files whose process is gone (a `kill -9` during an atomic
    /// rewrite leaves one, up to the journal's size; ``AtomicFile/removeStaleTemporaries(in:of:)``).
    func removeStaleTemporaryFiles() {
        let folder = (path as NSString).deletingLastPathComponent
        AtomicFile.removeStaleTemporaries(in: folder.isEmpty ? "." : folder, of: path)
        AtomicFile.removeStaleTemporaries(in: checkpointFolder)
    }

    func checkpointPath(_ id: String) -> String {
        let safe = String(
            id.unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" })
        return checkpointFolder + "/" + (safe.isEmpty ? "session" : safe) + ".json"
    }

    /// Whether `pid` is running and is the process that started at `start`.
    static func isAlive(pid: Int32, start: String) -> Bool {
        guard pid > 0, kill(pid, 0) == 0 || errno == EPERM else { return false }
        guard let now = processStart(pid) else { return false }
        return start.isEmpty || now == start
    }

    /// Field 22 (`starttime`) of `/proc/PID/stat`, or `nil` when the process does not exist.
    static func processStart(_ pid: Int32) -> String? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/stat") else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After the command name, fields start at number 3; starttime is number 22.
        return fields.count > 19 ? String(fields[19]) : nil
    }
}
