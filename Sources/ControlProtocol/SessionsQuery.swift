/// What `sessions.list` asks for: one page of the journal, oldest first.
///
/// A journal grows by a record or two a day and is never trimmed of unsynced records, so it is listed a page at a
/// time: the newest ``limit`` records by default, older pages with `before` (the page's first id), newer ones with
/// `after` (its last id). The reply's `more` says whether records remain beyond the page in the direction it was
/// read (older ones without `after`, newer ones with it).
///
/// - Thread safety: a value type; any thread.
public struct SessionsQuery: Sendable, Equatable {
    /// The most records in one page when the request gives no `limit`: 100 records, about 40 KB of JSON, a few
    /// screens of history, far under what a client's output queue holds, whatever the journal's length.
    public static let defaultLimit = 100
    /// The range of `limit`. A page is also cut short (with `more`) before its reply would grow past what one reply
    /// may be (the server's bound), so a large limit costs bytes, never the reply.
    public static let limitRange: ClosedRange<Int> = 1...1_000_000

    /// Where a page starts.
    public enum Anchor: Sendable, Equatable {
        /// The newest records.
        case newest
        /// The records just before the session with this id (the next older page).
        case before(String)
        /// The records just after the session with this id (the next newer page).
        case after(String)
    }

    /// The most records in the page.
    public var limit: Int
    public var anchor: Anchor
    /// Only the records not yet written to a health store (the anchor itself may be any record).
    public var unsyncedOnly: Bool

    public init(limit: Int = SessionsQuery.defaultLimit, anchor: Anchor = .newest, unsyncedOnly: Bool = false) {
        self.limit = limit
        self.anchor = anchor
        self.unsyncedOnly = unsyncedOnly
    }

    /// The query of a `sessions.list` request.
    ///
    /// - Throws: `invalid-field` naming `limit` (not a whole number in ``limitRange``), `after` or `before` (not a
    ///   string, or both given), `unsyncedOnly` (not a Boolean).
    public init(_ request: Request) throws(ProtocolError) {
        let after = try request.string("after")
        let before = try request.string("before")
        if after != nil && before != nil {
            throw .invalidField("before", "give after or before, not both (after pages forward, before back)")
        }
        self.init(
            limit: try request.integer("limit", in: Self.limitRange) ?? Self.defaultLimit,
            anchor: after.map { .after($0) } ?? before.map { .before($0) } ?? .newest,
            unsyncedOnly: try request.bool("unsyncedOnly") ?? false)
    }

    /// The page of `records` (the whole journal, oldest first) this query asks for, at most `maxBytes` of encoded
    /// records (at least one record, however long), and whether records remain beyond it.
    ///
    /// - Parameter size: the bytes one record takes in the reply.
    /// - Returns: `nil` when the anchor's id is not among `records`.
    public func page(
        of records: [SessionRecord], maxBytes: Int, size: (SessionRecord) -> Int
    ) -> (records: [SessionRecord], more: Bool)? {
        var candidates: ArraySlice<SessionRecord>
        var forward = false
        switch anchor {
        case .newest:
            candidates = records[...]
        case .before(let id):
            guard let i = records.firstIndex(where: { $0.id == id }) else { return nil }
            candidates = records[..<i]
        case .after(let id):
            guard let i = records.firstIndex(where: { $0.id == id }) else { return nil }
            candidates = records[(i + 1)...]
            forward = true
        }
        if unsyncedOnly { candidates = candidates.filter { !$0.syncedToHealth }[...] }
        // Records are taken from the anchor's side outwards until the limit or the byte bound.
        var taken: [SessionRecord] = []
        var bytes = 0
        let ordered: [SessionRecord] = forward ? Array(candidates) : Array(candidates.reversed())
        for record in ordered {
            guard taken.count < limit else { break }
            let b = size(record)
            if !taken.isEmpty && bytes + b > maxBytes { break }
            taken.append(record)
            bytes += b
        }
        return (forward ? taken : taken.reversed(), taken.count < candidates.count)
    }
}
