import AudioCore

/// The reply to `assets`: the pack's bells and themes with what a picker shows of each, and what the server holds in
/// memory.
public struct AssetsReply: Codable, Sendable, Equatable {
    /// One asset of the pack.
    public struct Entry: Codable, Sendable, Equatable {
        public var id: String
        /// The name to show.
        public var name: String
        /// `bell` or `soundscape` (a theme), as the pack's manifest says.
        public var kind: String
        /// The file's length in seconds (`null` when it cannot be read: see `problem`).
        @Nullable public var durationSeconds: Double?
        /// A theme's loop length in seconds (`null` for a bell).
        @Nullable public var loopSeconds: Double?
        /// Integrated loudness as played (BS.1770-4 of the file plus the pack's gain), in LUFS; `null` when it has none.
        @Nullable public var loudnessLUFS: Double?
        /// The licence the manifest gives.
        public var licence: String
        /// Why the file could not be measured, when it could not.
        public var problem: String?

        public init(
            id: String, name: String, kind: String = "bell", durationSeconds: Double? = nil,
            loopSeconds: Double? = nil, loudnessLUFS: Double? = nil, licence: String = "", problem: String? = nil
        ) {
            self.id = id
            self.name = name
            self.kind = kind
            self.durationSeconds = durationSeconds
            self.loopSeconds = loopSeconds
            self.loudnessLUFS = loudnessLUFS
            self.licence = licence
            self.problem = problem
        }
    }

    public var bells: [Entry]
    public var themes: [Entry]
    /// The pack assets in the cache, as `KIND:ID@RATE`, sorted. Files given by path are never listed (another
    /// client's file is not this client's business): they are counted in ``loadedFiles``.
    public var loaded: [String]
    /// How many cached entries are files given by path.
    public var loadedFiles: Int
    public var cachedBytes: Int
    public var cacheLimitBytes: Int
    /// The pack's folder (`null` when none was found).
    @Nullable public var pack: String?
    /// Why no pack was loaded, when none was.
    public var packProblem: String?

    public init(
        bells: [Entry], themes: [Entry], loaded: [String], loadedFiles: Int = 0, cachedBytes: Int,
        cacheLimitBytes: Int, pack: String?, packProblem: String?
    ) {
        self.bells = bells
        self.themes = themes
        self.loaded = loaded
        self.loadedFiles = loadedFiles
        self.cachedBytes = cachedBytes
        self.cacheLimitBytes = cacheLimitBytes
        self.pack = pack
        self.packProblem = packProblem
    }
}

/// The reply to `devices`: the audio outputs, what `enso devices --json` lists.
public struct DevicesReply: Codable, Sendable, Equatable {
    /// One playback output.
    public struct Device: Codable, Sendable, Equatable {
        /// The name to open (`default`, `hw:CARD=PCH,DEV=0`).
        public var name: String
        /// What the system says of it, one entry per line.
        public var description: [String]

        public init(name: String, description: [String]) {
            self.name = name
            self.description = description
        }
    }

    public var devices: [Device]

    public init(devices: [Device]) { self.devices = devices }
}

/// The reply to `sessions.list`: one page of journal records, oldest first (``SessionsQuery``), whether more remain
/// beyond it, and what could not be read.
public struct SessionsListReply: Codable, Sendable, Equatable {
    public var records: [SessionRecord]
    /// Whether records the query matches remain beyond the page: older ones (ask again with `before` the first
    /// record's id), or newer ones when the query gave `after` (ask again with `after` the last record's id).
    public var more: Bool
    public var warnings: [String]

    public init(records: [SessionRecord], more: Bool = false, warnings: [String]) {
        self.records = records
        self.more = more
        self.warnings = warnings
    }
}

/// The reply to `sessions.markSynced`.
public struct MarkSyncedReply: Codable, Sendable, Equatable {
    /// The ids found (now marked), and those not in the journal.
    public var marked: [String]
    public var missing: [String]

    public init(marked: [String], missing: [String]) {
        self.marked = marked
        self.missing = missing
    }
}
