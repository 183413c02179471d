import AssetLoading
import AssetPipeline
import AudioCore
import AudioEngine
import AudioFile
import ControlProtocol
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Finds bells and ambient themes by asset id (in the asset pack) or by file path, and loads them at the
/// engine rate, once: later sessions at the same rate reuse the loaded audio.
///
/// The cache is keyed by the file's identity (device, inode, size, modification time), not by how its path was
/// spelled, so `rain.wav`, `./rain.wav` and `/abs/rain.wav` are one entry, and an edited file is loaded afresh. It
/// holds at most ``maxCachedBytes`` of samples (default 256 MiB): past that the least recently used entries are
/// dropped (a session still playing one keeps its own reference). An asset larger than the whole bound is used
/// but not kept.
///
/// - Thread safety: the server's control thread only.
/// - Real-time safe: no (decodes and resamples).
public final class AssetLibrary {
    /// The asset pack, when one was found (`--assets`, `$ENSO_ASSETS`, or the bundled folder).
    public let pack: AssetPack?
    /// Why no pack was loaded, for `assets` and error messages.
    public let packProblem: String?
    /// The most bytes of samples the cache holds.
    public let maxCachedBytes: Int
    /// The default bound: 256 MiB, about 23 minutes of stereo at 48 kHz.
    public static let defaultMaxCachedBytes = 256 << 20

    private struct CacheKey: Hashable {
        var kind: String
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modified: Int64
        var modifiedNanoseconds: Int
        var rate: Int
        var loop: String
        var gainDB: Double
        /// Whether the seam fix was applied (`seamFix`): the fixed and the as-is audio are two entries.
        var seamFix: Bool
    }

    private struct CacheEntry {
        var asset: LoadedAsset
        var reference: String
        var bytes: Int
        var lastUse: UInt64
        /// The seam-fix warning of a theme that had one, said again at every use.
        var warning: String?
    }

    private var cache: [CacheKey: CacheEntry] = [:]
    private var useCounter: UInt64 = 0
    /// The bytes of samples the cache holds now.
    public private(set) var cachedBytes = 0

    /// A library over the pack in `directory` (or the default pack folder when `nil`), caching at most
    /// `maxCachedBytes` of samples.
    public init(directory: String? = nil, maxCachedBytes: Int = AssetLibrary.defaultMaxCachedBytes) {
        self.maxCachedBytes = maxCachedBytes
        do {
            pack = try AssetPack.load(directory: try AssetPack.defaultDirectory(override: directory))
            packProblem = nil
        } catch {
            pack = nil
            packProblem = error.message
        }
    }

    /// Loads the bell or theme `reference` (an id or a file) at `rate`.
    ///
    /// A theme whose seam fails verification is crossfaded in memory unless `seamFix` is false
    /// (``EngineAssetLoader``); `warn` receives the warning, at every load of that theme (cached or not).
    ///
    /// - Throws: `ProtocolError` naming `field` and the reference: `unavailable` when it cannot be found,
    ///   `invalid-field` when the file is not a usable asset (a NaN sample, a loop that does not fit), else the
    ///   code of the loader's error kind (`permission`, `failure`).
    public func load(
        _ reference: String, kind: AssetPack.Kind, rate: SampleRate, field: String, seamFix: Bool = true,
        warn: (String) -> Void = { _ in }
    ) throws(ProtocolError) -> LoadedAsset {
        var path = reference
        var loop = EngineAssetLoader.ThemeLoop.file
        var gainDB = 0.0
        if !EngineAssetLoader.isFile(reference) {
            guard let pack else {
                throw ProtocolError(
                    .unavailable, "\(field): no asset pack to find '\(reference)' in (\(packProblem ?? "none found"))",
                    field: field)
            }
            do {
                let entry = try pack.resolve(id: reference, kind: kind)
                path = pack.path(of: entry)
                loop = .manifest(entry.loop)
                gainDB = entry.gainDB
            } catch { throw ProtocolError(.unavailable, "\(field): \(error.message)", field: field) }
        }
        let key = Self.identity(of: path).map {
            CacheKey(
                kind: kind.rawValue, device: $0.device, inode: $0.inode, size: $0.size, modified: $0.modified,
                modifiedNanoseconds: $0.nanoseconds, rate: rate.hertz, loop: "\(loop)", gainDB: gainDB, seamFix: seamFix
            )
        }
        useCounter += 1
        if let key, let hit = cache[key] {
            cache[key]?.lastUse = useCounter
            if let w = hit.warning { warn("\(field): \(w)") }
            return hit.asset
        }
        let asset: LoadedAsset
        var warning: String?
        do {
            asset = try EngineAssetLoader.load(
                path: path, id: reference, kind: kind, rate: rate, loop: loop, gainDB: gainDB, seamFix: seamFix,
                warn: { warning = $0 })
        } catch {
            // The loader's kind, so a theme with a NaN is a bad field value, not a missing asset; the other kinds
            // (unavailable, permission, failure, ...) have protocol codes of the same name.
            let code = error.kind == .invalidInput ? ErrorCode.invalidField : ErrorCode(rawValue: error.kind.rawValue)
            throw ProtocolError(code, "\(field): \(error.message)", field: field)
        }
        if let w = warning { warn("\(field): \(w)") }
        if let key {
            insert(asset, reference: "\(kind.rawValue):\(reference)@\(rate.hertz)", for: key, warning: warning)
        }
        return asset
    }

    private func insert(_ asset: LoadedAsset, reference: String, for key: CacheKey, warning: String?) {
        let bytes = asset.frameCount * asset.channels * MemoryLayout<Float>.size
        guard bytes <= maxCachedBytes else { return }
        while cachedBytes + bytes > maxCachedBytes, let oldest = cache.min(by: { $0.value.lastUse < $1.value.lastUse })
        {
            cachedBytes -= oldest.value.bytes
            cache[oldest.key] = nil
        }
        cache[key] = CacheEntry(asset: asset, reference: reference, bytes: bytes, lastUse: useCounter, warning: warning)
        cachedBytes += bytes
    }

    /// The file's identity for the cache, or `nil` when it cannot be `stat`ed (then loading reports why).
    private static func identity(of path: String) -> (
        device: UInt64, inode: UInt64, size: Int64, modified: Int64, nanoseconds: Int
    )? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return (
            UInt64(st.st_dev), UInt64(st.st_ino), Int64(st.st_size), Int64(st.st_mtim.tv_sec), Int(st.st_mtim.tv_nsec)
        )
    }

    /// The `assets` reply: the pack's bells and themes, and what is loaded in memory.
    public var reply: AssetsReply {
        func entries(_ kind: AssetPack.Kind) -> [AssetsReply.Entry] {
            (pack?.entries(kind: kind) ?? []).map { AssetsReply.Entry(id: $0.id, name: $0.displayName) }
        }
        return AssetsReply(
            bells: entries(.bell), themes: entries(.soundscape), loaded: cache.values.map(\.reference).sorted(),
            cachedBytes: cachedBytes, cacheLimitBytes: maxCachedBytes, pack: pack?.directory, packProblem: packProblem)
    }
}
