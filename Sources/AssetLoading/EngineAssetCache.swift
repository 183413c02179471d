import AssetPipeline
import AudioCore
import AudioEngine
import Synchronization

/// Engine assets already loaded (decoded, seam-fixed, resampled), shared by every thread that loads: one entry per
/// file version, engine rate and way of loading it, at most ``limitBytes`` of samples.
///
/// A server keeps one for all its clients, so a bell or theme one client loaded starts at once for the next.
/// Past the bound the least recently used entries are dropped (whoever still plays one keeps its own reference); an
/// asset larger than the whole bound is used but not kept. The CLI loads each asset once per process and keeps none.
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
        public var bytes: Int { asset.residentBytes }
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

    /// Keeps `entry` under `key`, dropping the least recently used entries to stay within ``limitBytes``; an entry
    /// larger than the bound is not kept.
    ///
    /// - Parameter label: how a listing may name it (``labels``); `nil` keeps it out of listings.
    public func insert(_ entry: Entry, label: String?, for key: Key) {
        let bytes = entry.bytes
        guard bytes <= limitBytes else { return }
        state.withLock { s in
            if let old = s.table.removeValue(forKey: key) { s.bytes -= old.entry.bytes }
            while s.bytes + bytes > limitBytes, let oldest = s.table.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                s.bytes -= oldest.value.entry.bytes
                s.table[oldest.key] = nil
            }
            s.useCounter += 1
            s.table[key] = Stored(entry: entry, label: label, lastUse: s.useCounter)
            s.bytes += bytes
        }
    }

    /// The bytes of samples held now.
    public var cachedBytes: Int { state.withLock { $0.bytes } }

    /// The labels of the labelled entries (sorted) and how many entries have none.
    public var contents: (labels: [String], unlabelled: Int) {
        state.withLock { s in
            let labels = s.table.values.compactMap(\.label).sorted()
            return (labels, s.table.count - labels.count)
        }
    }
}
