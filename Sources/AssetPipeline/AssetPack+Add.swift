import AudioCore
import AudioDSP
import AudioFile
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

extension AssetPack {
    /// A file to add to a pack (`enso assets add`).
    public struct Addition: Sendable, Equatable {
        /// The audio file to add.
        public var source: String
        public var kind: Kind
        /// The asset id (lower-case letters, digits and `-`).
        public var id: String
        public var displayName: String
        public var licence: String

        public init(source: String, kind: Kind, id: String, displayName: String, licence: String) {
            self.source = source
            self.kind = kind
            self.id = id
            self.displayName = displayName
            self.licence = licence
        }
    }

    /// What became of one ``Addition``: every key is written, `file` and `error` as `null` when absent (the CLI's
    /// per-file rows, docs/cli.md).
    public struct AdditionResult: Sendable, Codable, Equatable {
        public enum Status: String, Sendable, Codable {
            /// Normalised, stored and listed in the manifest.
            case added
            /// Read, but it cannot join the pack: it fails the pack's checks, cannot be normalised (silent, true peak
            /// too high) or its id is taken. Nothing was written for it.
            case rejected
            /// It could not be read (or the pack folder could not be written): nothing was written for it.
            case error
        }

        public var source: String
        public var id: String
        public var status: Status
        /// The stored file, relative to the pack folder (added only).
        @Nullable public var file: String?
        /// What was done, or why not, in words.
        public var messages: [String]
        /// The `enso assets check` findings on the stored file (when it got that far).
        public var findings: [AssetCheck.Finding]
        /// Why the file could not be added, for `status == .error` (docs/cli.md's error object).
        @Nullable public var error: RowError? = nil
    }

    /// The folder, inside a pack, that holds assets of `kind`.
    public static func folder(for kind: Kind) -> String { kind == .bell ? "bells" : "soundscapes" }

    /// An asset id made from a file name: its stem written in ASCII where a Latin letter has an ASCII form (ICU's
    /// `Latin-ASCII` transform: `Été` → `Ete`, `groß` → `gross`, `Øre` → `Ore`), in lower case, every run of other
    /// characters turned into `-`. A name with no such letter or digit (`鐘.wav`) gives none: the caller asks for `--id`.
    public static func suggestedID(for path: String) -> String {
        let name = ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        let stem = (name.applyingTransform(StringTransform("Latin-ASCII"), reverse: false) ?? name).lowercased()
        var id = ""
        for scalar in stem.unicodeScalars {
            if ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar) {
                id.unicodeScalars.append(scalar)
            } else if !id.isEmpty && !id.hasSuffix("-") {
                id += "-"
            }
        }
        while id.hasSuffix("-") { id.removeLast() }
        return id
    }

    /// A display name made from an id: words capitalised (`temple-bell-3` → `Temple Bell 3`).
    public static func suggestedDisplayName(for id: String) -> String { capitalisedWords(id) }

    /// A display name made from a file name: its stem's words (split at `-`, `_` and spaces) each begun in upper case,
    /// the rest as written (`temple-bell-3.wav` → `Temple Bell 3`, `Cloche Été.flac` → `Cloche Été`, where the id's
    /// ASCII gave `Cloche Ete`).
    public static func suggestedDisplayName(forFile path: String) -> String {
        capitalisedWords(((path as NSString).lastPathComponent as NSString).deletingPathExtension)
    }

    /// `text`'s words (split at `-`, `_` and spaces) each begun in upper case, the rest as written, one space apart.
    private static func capitalisedWords(_ text: String) -> String {
        text.split(whereSeparator: { $0 == "-" || $0 == "_" || $0.isWhitespace })
            .map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
    }

    /// Adds files to the pack in `directory` (made, with a new manifest, when it has none).
    ///
    /// Each file is decoded and normalised to its kind's target loudness (``Kind/loudnessTarget``): a bell through
    /// ``BellTrim/normalize(_:target:maxTruePeak:)`` (pre-roll trimmed to 10 ms, DC removed, iterated gain, true peak
    /// at most −1 dBTP); a soundscape by gain alone, keeping its loop (embedded, sidecar or the whole file). It is
    /// stored as 24-bit FLAC in `bells/` or `soundscapes/` under a temporary name, and the checks of
    /// `enso assets check` run on the stored file: one that fails them (or, with `strict`, warns) is deleted and
    /// reported `rejected`. The others are renamed into place and the manifest is rewritten once, atomically. If that
    /// write fails, the new files are removed and replaced files restored, so the pack is never half-changed. The
    /// pack folder is locked (`flock`) from reading the manifest to writing it, so concurrent runs both land.
    ///
    /// - Parameter replace: an id already in the pack is replaced (otherwise that addition is rejected).
    /// - Returns: one result per addition, in order.
    /// - Throws: `EnsoError` when the existing manifest cannot be read (`.invalidInput`), the folder or
    ///   manifest cannot be written (`.failure`), or `bells/` or `soundscapes/` is a link out of the pack
    ///   (`.permission`, ``checkInsidePack(_:of:)``); nothing is changed then.
    public static func add(
        _ additions: [Addition], to directory: String, replace: Bool = false, strict: Bool = false
    ) throws(EnsoError) -> [AdditionResult] {
        let fm = FileManager.default
        let dir = URL(fileURLWithPath: directory).standardizedFileURL.path
        // Folders this call makes are removed again when nothing is added.
        var made: [String] = []
        for folder in [dir] + Kind.allCases.map({ dir + "/" + folder(for: $0) }) where !fm.fileExists(atPath: folder) {
            made.append(folder)
        }
        var committed = false
        defer {
            if !committed {
                for folder in made.reversed() where (try? fm.contentsOfDirectory(atPath: folder))?.isEmpty == true {
                    try? fm.removeItem(atPath: folder)
                }
            }
        }
        // One writer at a time: an exclusive lock on the pack folder from reading the manifest to writing it, so
        // two `enso assets add` runs on one pack both land (the second reads the first's manifest).
        do { try fm.createDirectory(atPath: dir, withIntermediateDirectories: true) } catch {
            throw EnsoError(.failure, "\(dir): cannot make the pack folder: \(error.localizedDescription)")
        }
        let lock = open(dir, O_RDONLY | O_DIRECTORY)
        guard lock >= 0, flock(lock, LOCK_EX) == 0 else {
            if lock >= 0 { close(lock) }
            throw EnsoError(.failure, "\(dir): cannot lock the pack folder: \(String(cString: strerror(errno)))")
        }
        defer { close(lock) }
        for kind in Kind.allCases where additions.contains(where: { $0.kind == kind }) {
            try checkInsidePack(folder(for: kind), of: dir)
        }
        var pack: AssetPack
        if fm.fileExists(atPath: dir + "/" + manifestName) {
            pack = try load(directory: dir)
        } else {
            pack = AssetPack(name: (dir as NSString).lastPathComponent, entries: [], directory: dir)
        }
        var results: [AdditionResult] = []
        var staged: [(entry: Entry, temp: String, final: String)] = []
        var claimed = Set<String>()
        for addition in additions {
            var result = AdditionResult(
                source: addition.source, id: addition.id, status: .error, file: nil, messages: [], findings: [])
            defer { results.append(result) }
            if let problem = idProblem(addition.id) {
                result.status = .rejected
                result.messages = ["\(addition.source): id '\(addition.id)' \(problem)"]
                continue
            }
            if claimed.contains(addition.id) || (!replace && pack.entry(id: addition.id) != nil) {
                result.status = .rejected
                result.messages = [
                    "\(addition.source): id '\(addition.id)' is already in the pack (choose another id, or --replace)"
                ]
                continue
            }
            // A long soundscape is read in chunks, never whole (``stageStreaming(_:info:in:strict:)``).
            let long = (try? AudioFileDecoder.info(path: addition.source)).flatMap {
                AssetCheck.streams(addition.kind, $0) ? $0 : nil
            }
            var decoded: DecodedAudio?
            if long == nil {
                do { decoded = try AudioFileDecoder.decode(path: addition.source) } catch {
                    result.messages = [error.message]
                    result.error = RowError(code: error.name, message: error.message, file: addition.source)
                    continue
                }
            }
            let temp = dir + "/" + folder(for: addition.kind) + "/.adding-" + addition.id + ".flac"
            do throws(EnsoError) {
                let file = folder(for: addition.kind) + "/" + addition.id + ".flac"
                let final = dir + "/" + file
                let stage =
                    if let long {
                        try stageStreaming(addition, info: long, in: dir, strict: strict)
                    } else {
                        try self.stage(addition, decoded!, in: dir, strict: strict)
                    }
                result.findings = stage.findings
                guard stage.failed.isEmpty else {
                    try? fm.removeItem(atPath: temp)
                    result.status = .rejected
                    result.messages = stage.failed.map { "\(addition.source): \($0.check): \($0.message)" }
                    continue
                }
                var entry = stage.entry
                entry.file = file
                staged.append((entry, temp, final))
                claimed.insert(addition.id)
                result.status = .added
                result.file = file
                result.messages = ["\(addition.source) → \(file): " + stage.steps.joined(separator: ", ")]
            } catch {
                // Read, but it cannot become an asset (too quiet to normalise, true peak too high, a bad loop), or the
                // folder cannot be written. Nothing of it stays behind.
                try? fm.removeItem(atPath: temp)
                result.status = error.kind == .failure ? .error : .rejected
                result.messages = [error.message]
                if result.status == .error {
                    result.error = RowError(code: error.name, message: error.message, file: addition.source)
                }
            }
        }
        guard !staged.isEmpty else { return results }
        try commit(staged, into: &pack)
        committed = true
        return results
    }

    /// Refuses a pack's `bells/` or `soundscapes/` that leads out of the pack: a symbolic link whose target is not
    /// inside the pack folder (or anything else that is not a folder). `assets add` writes there, and a pack's link
    /// to `/etc` or to another user's files must not turn an addition into a write where the link points.
    ///
    /// A missing folder is fine (it is made as a real folder); a link to a folder inside the pack is followed.
    ///
    /// - Throws: `EnsoError` `.permission` naming the folder and where it leads.
    static func checkInsidePack(_ name: String, of dir: String) throws(EnsoError) {
        let path = dir + "/" + name
        var st = stat()
        guard lstat(path, &st) == 0 else { return }
        if (st.st_mode & S_IFMT) == S_IFDIR { return }
        guard (st.st_mode & S_IFMT) == S_IFLNK else {
            throw EnsoError(
                .invalidInput, "\(path) is not a folder; move it away so \(name)/ can hold the pack's files")
        }
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let pack = URL(fileURLWithPath: dir).resolvingSymlinksInPath().path
        guard !target.hasPrefix(pack + "/") else { return }
        throw EnsoError(
            .permission,
            "\(path) is a symbolic link out of the pack (to \(target)); assets add never writes through it: "
                + "replace it with a folder inside the pack", code: EACCES)
    }

    /// Why `id` cannot be an asset id, or nil when it can.
    static func idProblem(_ id: String) -> String? {
        if id.isEmpty {
            return "is empty: the file's name holds no letter a–z (once Latin letters are written in ASCII) and no "
                + "digit to make one from: give it with --id"
        }
        let ok = id.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
        if !ok || id.hasPrefix("-") { return "must be lower-case letters, digits and '-' (use --id)" }
        return nil
    }

    /// Decodes and normalises one addition; the steps are recorded in the manifest's `command`.
    static func prepare(
        _ addition: Addition, _ decoded: DecodedAudio
    ) throws(EnsoError) -> (buffer: AudioBuffer, loop: LoopRegion?, steps: [String]) {
        let target = addition.kind.loudnessTarget
        let name = (addition.source as NSString).lastPathComponent
        switch addition.kind {
        case .bell:
            let buffer: AudioBuffer
            let report: BellTrim.Report
            do { (buffer, report) = try BellTrim.normalize(decoded.buffer, target: target) } catch {
                // The pack's target is fixed: say so, and name the file.
                throw EnsoError(
                    error.kind,
                    "\(addition.source): cannot be normalised to the pack's \(formatLUFS(target)) LUFS: "
                        + error.message)
            }
            let steps = [
                "enso assets add \(name)",
                String(
                    format: "trim %.3f s, DC removed, gain %+.2f dB to %@ LUFS", report.removedSeconds, report.gain,
                    formatLUFS(target)),
                "flac 24-bit",
            ]
            return (buffer, nil, steps)
        case .soundscape:
            let region = try LoopVerifier.loopRegion(of: decoded, path: addition.source).region
            var buffer = decoded.buffer
            let gain = try normalizationGain(buffer, target: target, name: addition.source)
            buffer.scale(by: gain)
            let steps = [
                "enso assets add --kind soundscape \(name)",
                String(format: "gain %+.2f dB to %@ LUFS", 20 * log10(Double(gain)), formatLUFS(target)), "flac 24-bit",
            ]
            let whole = region.start == 0 && region.end == FramePosition(buffer.frameCount)
            return (buffer, whole ? nil : region, steps)
        }
    }

    /// Renames the staged files into place and writes the manifest; on failure undoes both.
    static func commit(_ staged: [(entry: Entry, temp: String, final: String)], into pack: inout AssetPack)
        throws(EnsoError)
    {
        let fm = FileManager.default
        var moved: [(final: String, backup: String?)] = []
        func rollback() {
            for m in moved.reversed() {
                try? fm.removeItem(atPath: m.final)
                if let b = m.backup { try? fm.moveItem(atPath: b, toPath: m.final) }
            }
            for s in staged { try? fm.removeItem(atPath: s.temp) }
        }
        let original = pack
        for s in staged {
            var backup: String?
            if fm.fileExists(atPath: s.final) {
                let b = s.final + ".replaced"
                try? fm.removeItem(atPath: b)
                do { try fm.moveItem(atPath: s.final, toPath: b) } catch {
                    rollback()
                    throw EnsoError(.failure, "\(s.final): cannot replace: \(error.localizedDescription)")
                }
                backup = b
            }
            do { try fm.moveItem(atPath: s.temp, toPath: s.final) } catch {
                moved.append((s.final, backup))
                rollback()
                throw EnsoError(.failure, "\(s.final): cannot store: \(error.localizedDescription)")
            }
            moved.append((s.final, backup))
            if let i = pack.entries.firstIndex(where: { $0.id == s.entry.id }) {
                pack.entries[i] = s.entry
            } else {
                pack.entries.append(s.entry)
            }
        }
        do {
            try pack.writeManifest()
        } catch {
            pack = original
            rollback()
            throw error
        }
        for m in moved { if let b = m.backup { try? fm.removeItem(atPath: b) } }
    }

    private static func formatLUFS(_ x: Double) -> String { String(format: "%g", x) }
}
