import AudioCore

/// The reply to `assets`: the pack's bells and themes, and what the server holds in memory.
public struct AssetsReply: Codable, Sendable, Equatable {
    /// One asset of the pack.
    public struct Entry: Codable, Sendable, Equatable {
        public var id: String
        /// The name to show.
        public var name: String

        public init(id: String, name: String) {
            self.id = id
            self.name = name
        }
    }

    public var bells: [Entry]
    public var themes: [Entry]
    /// The assets in the cache (ids or files), sorted.
    public var loaded: [String]
    public var cachedBytes: Int
    public var cacheLimitBytes: Int
    /// The pack's folder (`null` when none was found).
    @Nullable public var pack: String?
    /// Why no pack was loaded, when none was.
    public var packProblem: String?

    public init(
        bells: [Entry], themes: [Entry], loaded: [String], cachedBytes: Int, cacheLimitBytes: Int, pack: String?,
        packProblem: String?
    ) {
        self.bells = bells
        self.themes = themes
        self.loaded = loaded
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

/// The reply to `sessions.list`: journal records, oldest first, and what could not be read.
public struct SessionsListReply: Codable, Sendable, Equatable {
    public var records: [SessionRecord]
    public var warnings: [String]

    public init(records: [SessionRecord], warnings: [String]) {
        self.records = records
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
