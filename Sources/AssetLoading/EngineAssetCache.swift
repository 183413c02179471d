import AssetPipeline
import AudioCore
import AudioEngine
import Synchronization

/// Engine assets already loaded (decoded, seam-fixed, resampled), shared by every thread that loads: one entry per
/// file version, engine rate and way of loading it, at most ``limitBytes`` of samples.
///
/// A server keeps one for all its clients, so a bell or theme one client loaded starts at once for the next.
/// Past the bound the least recently used entries are dropped; an asset larger than the whole bound is used but not
/// kept. The CLI loads each asset once per process and keeps none.
///
/// The bound covers every sample the server holds, not only the table: an asset marked in use (``use(_:)``: a
/// session plays it, a request holds it until it runs) counts against it whether or not the table holds it, and
/// the table's entry of it is never the one dropped (dropping it would free nothing). ``heldBytes`` is that total.
///
/// - Thread safety: any thread (one `Mutex` around the table; decoding happens outside it).
/// - Real-time safe: no.
public final class EngineAssetCache: Sendable {
    /// What an entry was loaded from and how: two loads with equal keys give the same samples.
    public struct Key: Hashable, Sendable {
        public var file: FileIdentity
        /// The loop sidecar's (`FILE.loop.json`) of a theme given as a file, when it has one: editing it changes the loop.
        public var sidecar: FileIdentity?
        public var kind: AssetPack.Kind
        public var rate: SampleRate
        public var loop: EngineAssetLoader.ThemeLoop
        public var gainDB: Double
        /// Whether the seam fix was asked for (``EngineAssetLoader/load(path:id:kind:rate:loop:gainDB:seamFix:warn:)``):
        /// the fixed and the as-is audio are two entries.
        public var seamFix: Bool

        public init(
            file: FileIdentity, sidecar: FileIdentity? = nil, kind: AssetPack.Kind, rate: SampleRate,
            loop: EngineAssetLoader.ThemeLoop, gainDB: Double, seamFix: Bool
        ) {
            self.file = file
            self.sidecar = sidecar
            self.kind = kind
            self.rate = rate
            self.loop = loop
            self.gainDB = gainDB
            self.seamFix = seamFix
        }
    }

    /// A loaded asset and the seam-fix warning its load gave (said again at every use).
    public struct Entry: Sendable {
        public var asset: LoadedAsset
        public var warning: String?

        public init(asset: LoadedAsset, warning: String?) {
            self.asset = asset
            self.warning = warning
        }

        /// The bytes of samples it holds.
        public var bytes: Int { EngineAssetCache.bytes(of: asset) }
    }

    private struct Stored {
        var entry: Entry
        var label: String?
        var lastUse: UInt64
    }

    private struct State {
        var table: [Key: Stored] = [:]
        var useCounter: UInt64 = 0
        var bytes = 0
        /// The assets in use, by identity (held here, so an identity is never reused while it is listed), and how
        /// many uses hold each.
        var inUse: [ObjectIdentifier: (asset: LoadedAsset, uses: Int)] = [:]

        /// The bytes of the assets in use that the table does not hold.
        var inUseOutside: Int {
            let inTable = Set(table.values.map { ObjectIdentifier($0.entry.asset) })
            return inUse.reduce(0) { $0 + (inTable.contains($1.key) ? 0 : EngineAssetCache.bytes(of: $1.value.asset)) }
        }

        func isInUse(_ stored: Stored) -> Bool { inUse[ObjectIdentifier(stored.entry.asset)] != nil }

        /// Drops the least recently used entries not in use until `added` more bytes fit within `limit`; whether
        /// they do.
        mutating func makeRoom(for added: Int, limit: Int) -> Bool {
            while bytes + inUseOutside + added > limit,
                let oldest = table.filter({ !isInUse($0.value) }).min(by: { $0.value.lastUse < $1.value.lastUse })
            {
                bytes -= oldest.value.entry.bytes
                table[oldest.key] = nil
            }
            return bytes + inUseOutside + added <= limit
        }
    }

    /// The most bytes of samples it holds.
    public let limitBytes: Int
    private let state = Mutex(State())

    public init(limitBytes: Int) { self.limitBytes = limitBytes }

    /// The entry for `key`, marked as just used; `nil` when it is not held.
    public func entry(for key: Key) -> Entry? {
        state.withLock { s in
            guard var stored = s.table[key] else { return nil }
            s.useCounter += 1
            stored.lastUse = s.useCounter
            s.table[key] = stored
            return stored.entry
        }
    }

    /// Keeps `entry` under `key`, dropping the least recently used entries not in use so that everything held stays
    /// within ``limitBytes``; an entry that does not fit beside the assets in use is not kept.
    ///
    /// - Parameter label: how a listing may name it (``labels``); `nil` keeps it out of listings.
    public func insert(_ entry: Entry, label: String?, for key: Key) {
        let bytes = entry.bytes
        guard bytes <= limitBytes else { return }
        state.withLock { s in
            if let old = s.table.removeValue(forKey: key) { s.bytes -= old.entry.bytes }
            // An asset in use is counted already (outside the table): keeping it adds nothing.
            let added = s.inUse[ObjectIdentifier(entry.asset)] == nil ? bytes : 0
            guard s.makeRoom(for: added, limit: limitBytes) else { return }
            s.useCounter += 1
            s.table[key] = Stored(entry: entry, label: label, lastUse: s.useCounter)
            s.bytes += bytes
        }
    }

    /// The bytes of samples the table holds now.
    public var cachedBytes: Int { state.withLock { $0.bytes } }

    /// The bytes of samples the server holds now: the table's and those of the assets in use it does not hold.
    public var heldBytes: Int { state.withLock { $0.bytes + $0.inUseOutside } }

    /// The bytes of the assets in use.
    public var inUseBytes: Int { state.withLock { s in s.inUse.values.reduce(0) { $0 + Self.bytes(of: $1.asset) } } }

    /// The bytes of samples `asset` holds.
    public static func bytes(of asset: LoadedAsset) -> Int {
        asset.residentBytes
    }

    /// Whether `asset` is in use.
    public func isInUse(_ asset: LoadedAsset) -> Bool { state.withLock { $0.inUse[ObjectIdentifier(asset)] != nil } }

    /// Marks `asset` in use (once more): it counts against the bound until as many ``release(_:)``, and entries
    /// nobody uses are dropped to make room for it. (Whether it may be used at all is the caller's to judge first:
    /// an asset in use is never dropped, so the bound holds only for what callers admit.)
    public func use(_ asset: LoadedAsset) {
        state.withLock { s in
            s.inUse[ObjectIdentifier(asset), default: (asset, 0)].uses += 1
            _ = s.makeRoom(for: 0, limit: limitBytes)
        }
    }

    /// Ends one use of `asset` (marked by ``use(_:)``).
    public func release(_ asset: LoadedAsset) {
        state.withLock { s in
            let id = ObjectIdentifier(asset)
            guard let held = s.inUse[id] else { return }
            s.inUse[id] = held.uses > 1 ? (held.asset, held.uses - 1) : nil
        }
    }

    /// The labels of the labelled entries (sorted) and how many entries have none.
    public var contents: (labels: [String], unlabelled: Int) {
        state.withLock { s in
            let labels = s.table.values.compactMap(\.label).sorted()
            return (labels, s.table.count - labels.count)
        }
    }
}
