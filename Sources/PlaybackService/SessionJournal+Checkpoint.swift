import Foundation

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

    /// Saves the record of a session in progress (as `interrupted`, ending now), replacing its previous
    /// checkpoint atomically.
    ///
    /// - Throws: `PlaybackServiceError` when the checkpoint cannot be written; the previous one is then intact.
    public func checkpoint(_ record: SessionRecord) throws(PlaybackServiceError) {
        var r = record
        r.outcome = .interrupted
        let cp = Checkpoint(pid: getpid(), processStart: Self.processStart(getpid()) ?? "", record: r)
        try ensureFolder(of: checkpointPath(r.id))
        let data = (try? JSONEncoder().encode(cp)) ?? Data()
        try writeAtomically(Array(data), to: checkpointPath(r.id))
    }

    /// Appends the final record of a session and removes its checkpoint (in that order, so a crash between
    /// the two leaves a checkpoint that recovery recognises as already journaled).
    ///
    /// - Throws: `PlaybackServiceError` when the record cannot be appended; the checkpoint is then kept, so
    ///   the session is recovered later rather than lost.
    public func finish(_ record: SessionRecord) throws(PlaybackServiceError) {
        try withLock { () throws(PlaybackServiceError) in
            try appendLocked([record])
            unlink(checkpointPath(record.id))
        }
    }

    /// Appends every checkpoint whose process is gone as an `interrupted` record (unless its id is already in
    /// the journal), then removes it. Checkpoints of live processes are left alone.
    ///
    /// - Returns: the records recovered.
    /// - Throws: `PlaybackServiceError` when the journal cannot be read or written; unrecovered checkpoints
    ///   are kept for the next attempt.
    @discardableResult
    public func recoverInterrupted() throws(PlaybackServiceError) -> [SessionRecord] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: checkpointFolder) else { return [] }
        let files = names.filter { $0.hasSuffix(".json") }.sorted()
        guard !files.isEmpty else { return [] }
        return try withLock { () throws(PlaybackServiceError) in
            let known = Set(try read().records.map(\.id))
            var recovered: [SessionRecord] = []
            var done: [String] = []
            for name in files {
                let file = checkpointFolder + "/" + name
                guard let data = FileManager.default.contents(atPath: file),
                    let cp = try? JSONDecoder().decode(Checkpoint.self, from: data)
                else { continue }
                if cp.pid != getpid() && Self.isAlive(pid: cp.pid, start: cp.processStart) { continue }
                if cp.pid == getpid() && cp.processStart == Self.processStart(getpid()) { continue }
                if !known.contains(cp.record.id) { recovered.append(cp.record) }
                done.append(file)
            }
            if !recovered.isEmpty { try appendLocked(recovered) }
            for file in done { unlink(file) }
            return recovered
        }
    }

    func checkpointPath(_ id: String) -> String {
        let safe = String(id.unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" })
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
