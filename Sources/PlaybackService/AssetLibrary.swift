import AssetLoading
import AssetPipeline
import AudioCore
import AudioEngine
import AudioFile
import ControlProtocol
import Foundation
import Synchronization

/// Finds bells and ambient themes by asset id (in the asset pack) or by file path, and loads them at the engine
/// rate once for every client: later loads of the same file version, rate and loop reuse the audio
/// (``EngineAssetCache``, keyed by ``FileIdentity``, so `rain.wav`, `./rain.wav` and `/abs/rain.wav` are one entry
/// and an edited file is loaded afresh; at most ``maxCachedBytes`` of samples, least recently used dropped).
///
/// Loading is split so the server can decode off its control thread: ``source(_:kind:rate:field:seamFix:)``
/// resolves a reference (a pack lookup and a `stat`, cheap), ``needsLoading(_:)`` says whether it is cached, the
/// server's worker runs ``load(_:cache:loader:)`` (decoding into the shared cache), and the command then runs on
/// the control thread with the outcome in hand (``withPrepared(_:_:)``), where ``load(_:kind:rate:field:seamFix:warn:)``
/// finds it. A load nothing prepared still happens there, on the control thread (``controlThreadLoads`` counts them).
///
/// The `assets` reply's measurements (``AssetSummary``) are computed the same way, once per file version.
///
/// One bound, ``maxCachedBytes``, covers every sample the server holds: the cache's entries and the assets in use (a
/// session's, a request's waiting to run), whether the cache still lists them or not (``EngineAssetCache``). A
/// command whose loads would not fit beside what is in use is refused before anything is decoded, with the figures
/// (``admit(_:what:)``).
///
/// - Thread safety: the server's control thread, except the static ``load(_:cache:loader:)`` and
///   ``summarize(_:loader:into:)``, which any thread may run (the cache and the summaries are behind a `Mutex`).
/// - Real-time safe: no.
public final class AssetLibrary {
    /// The asset pack, when one was found (`--assets`, `$ENSO_ASSETS`, or the bundled folder).
    public let pack: AssetPack?
    /// Why no pack was loaded, for `assets` and error messages.
    public let packProblem: String?
    /// The engine assets loaded so far, shared by every client.
    public let cache: EngineAssetCache
    /// How files become engine assets and summaries.
    public let loader: Loader
    /// The default bound: 256 MiB, about 23 minutes of stereo at 48 kHz.
    public static let defaultMaxCachedBytes = 256 << 20

    /// The most bytes of samples the cache holds.
    public var maxCachedBytes: Int { cache.limitBytes }
    /// The bytes of samples the server holds now: the cache's and those of the assets in use it no longer lists.
    public var cachedBytes: Int { cache.heldBytes }

    /// How a resolved asset becomes an engine asset and a summary: ``engine`` in the server; a test passes functions
    /// it controls (one that waits until the test lets it finish).
    public struct Loader: Sendable {
        public var load: @Sendable (AssetSource) throws(EnsoError) -> EngineAssetCache.Entry
        public var summarize: @Sendable (AssetSource) throws(EnsoError) -> AssetSummary

        public init(
            load: @escaping @Sendable (AssetSource) throws(EnsoError) -> EngineAssetCache.Entry,
            summarize: @escaping @Sendable (AssetSource) throws(EnsoError) -> AssetSummary
        ) {
            self.load = load
            self.summarize = summarize
        }

        /// ``EngineAssetLoader`` and ``AssetSummary/measure(path:kind:loop:gainDB:)``.
        public static let engine = Loader(
            load: { (s) throws(EnsoError) in
                var warning: String?
                let asset = try EngineAssetLoader.load(
                    path: s.path, id: s.reference, kind: s.kind, rate: s.rate, loop: s.loop, gainDB: s.gainDB,
                    seamFix: s.seamFix, warn: { warning = $0 })
                return EngineAssetCache.Entry(asset: asset, warning: warning)
            },
            summarize: { (s) throws(EnsoError) in
                try AssetSummary.measure(path: s.path, kind: s.kind, loop: s.loop, gainDB: s.gainDB)
            })
    }

    /// The outcome of one load: the asset and its warning, or why it failed.
    public typealias Outcome = Result<EngineAssetCache.Entry, EnsoError>

    /// Outcomes handed to the command running now (``withPrepared(_:_:)``).
    private var prepared: [AssetSource: Outcome] = [:]
    /// The pack entries' summaries, measured on the worker.
    let summaries = SummaryTable()
    /// Loads and summaries done on the control thread because nothing prepared them.
    public private(set) var controlThreadLoads = 0

    /// A library over the pack in `directory` (or the default pack folder when `nil`), caching at most
    /// `maxCachedBytes` of samples, loading with `loader`.
    public init(
        directory: String? = nil, maxCachedBytes: Int = AssetLibrary.defaultMaxCachedBytes,
        loader: Loader = .engine
    ) {
        cache = EngineAssetCache(limitBytes: maxCachedBytes)
        self.loader = loader
        do {
            pack = try AssetPack.load(directory: try AssetPack.defaultDirectory(override: directory))
            packProblem = nil
        } catch {
            pack = nil
            packProblem = error.message
        }
    }

    // MARK: - Resolving

    /// `reference` (an id or a file) resolved: which file, how to load it, at `rate`.
    ///
    /// - Throws: `ProtocolError` `unavailable` naming `field` when the id is not in the pack (or there is none).
    public func source(
        _ reference: String, kind: AssetPack.Kind, rate: SampleRate, field: String, seamFix: Bool = true
    ) throws(ProtocolError) -> AssetSource {
        guard !EngineAssetLoader.isFile(reference) else {
            return AssetSource(reference: reference, path: reference, kind: kind, rate: rate, seamFix: seamFix)
        }
        guard let pack else {
            throw ProtocolError(
                .unavailable, "\(field): no asset pack to find '\(reference)' in (\(packProblem ?? "none found"))",
                field: field)
        }
        do {
            let entry = try pack.resolve(id: reference, kind: kind)
            return AssetSource(entry, in: pack, rate: rate, seamFix: seamFix)
        } catch { throw ProtocolError(.unavailable, "\(field): \(error.message)", field: field) }
    }

    /// Finds `reference` as ``source(_:kind:rate:field:seamFix:)`` does, and its file, without decoding it: how
    /// `plan` checks the themes `start` would load.
    ///
    /// - Throws: `ProtocolError` `unavailable` naming `field` when the id is not in the pack or the file is not there.
    public func find(_ reference: String, kind: AssetPack.Kind, field: String) throws(ProtocolError) {
        let found = try source(reference, kind: kind, rate: .hz48000, field: field)  // the rate does not move a file
        guard found.key != nil else {
            throw ProtocolError(.unavailable, "\(field): \(found.path): no such file", field: field)
        }
    }

    /// Whether loading `source` would decode: it is neither prepared nor cached, and its file exists (a missing
    /// file fails at once wherever it is loaded).
    public func needsLoading(_ source: AssetSource) -> Bool {
        guard prepared[source] == nil, let key = source.key else { return false }
        return cache.entry(for: key) == nil
    }

    // MARK: - Loading

    /// Loads `source` into `cache` (or finds it there) with `loader`: the server's worker runs this.
    public static func load(_ source: AssetSource, cache: EngineAssetCache, loader: Loader) -> Outcome {
        if let key = source.key, let hit = cache.entry(for: key) { return .success(hit) }
        do {
            let entry = try loader.load(source)
            if let key = source.key { cache.insert(entry, label: source.label, for: key) }
            return .success(entry)
        } catch {
            return .failure(error)
        }
    }

    /// Runs `body` with `outcomes` at hand: loads of those sources inside it take them instead of decoding.
    public func withPrepared<R>(_ outcomes: [AssetSource: Outcome], _ body: () -> R) -> R {
        prepared = outcomes
        defer { prepared = [:] }
        return body()
    }

    /// Loads the bell or theme `reference` (an id or a file) at `rate`: prepared, cached, or decoded here.
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
        let source = try source(reference, kind: kind, rate: rate, field: field, seamFix: seamFix)
        let outcome: Outcome
        if let given = prepared[source] {
            outcome = given
        } else if let key = source.key, let hit = cache.entry(for: key) {
            outcome = .success(hit)
        } else {
            controlThreadLoads += 1
            outcome = Self.load(source, cache: cache, loader: loader)
        }
        switch outcome {
        case .success(let entry):
            if let w = entry.warning { warn("\(field): \(w)") }
            return entry.asset
        case .failure(let error):
            // The loader's kind through the one table (``ErrorCode/init(_:)``): a file that is not there is
            // `unavailable`, one that is not audio or holds a NaN an asset the engine cannot play, `unsupported`
            // (not `invalid-field`, which says the request itself is wrong: a front end would blame its own code for
            // a user's bad file). The field names the asset either way.
            throw ProtocolError(ErrorCode(error.kind), "\(field): \(error.message)", field: field)
        }
    }

    // MARK: - The memory bound

    /// The bytes of samples `source` takes once loaded: its cached entry's when there is one, else from the file's
    /// header: its frames at the engine rate × its channels × 4 bytes (the whole file: at most what a theme whose
    /// loop is shorter keeps), or, for a theme long enough to stream (``AmbientStreaming/loadLimitSeconds``), the
    /// one ring its play holds. `nil` when the header cannot be read (the load then fails and says why).
    public func bytes(of source: AssetSource) -> Int? {
        if let key = source.key, let hit = cache.entry(for: key), !hit.asset.isStreamed { return hit.bytes }
        guard let info = try? AudioFileDecoder.info(path: source.path) else { return nil }
        let channels = min(info.channels.count, 2)
        if source.kind == .soundscape,
            Double(info.frames) > AmbientStreaming.loadLimitSeconds * info.sampleRate.double
        {
            return AmbientStreaming.ringFrames(at: source.rate) * channels * MemoryLayout<Float>.size
        }
        let frames = (Double(info.frames) * source.rate.double / info.sampleRate.double).rounded(.up)
        return Int(frames) * channels * MemoryLayout<Float>.size
    }

    /// Refuses `sources` (what one command loads, each with its field) when their samples would not fit within
    /// ``maxCachedBytes`` beside the assets in use; the cache then makes room by dropping entries nobody uses.
    ///
    /// - Parameter what: the command's name for the message (`the plan`, `the theme`).
    /// - Throws: `ProtocolError` `unsupported` giving what the sources need, the bound and what is in use, naming the
    ///   largest source.
    public func admit(_ sources: [(source: AssetSource, field: String)], what: String) throws(ProtocolError) {
        var seen = Set<EngineAssetCache.Key>()
        var needed: [(bytes: Int, field: String, source: AssetSource)] = []
        for (source, field) in sources {
            guard let key = source.key, seen.insert(key).inserted else { continue }
            // An asset in use is held already: using it again costs nothing.
            if let hit = cache.entry(for: key), cache.isInUse(hit.asset) { continue }
            if let b = bytes(of: source) { needed.append((b, field, source)) }
        }
        let total = needed.reduce(0) { $0 + $1.bytes }
        let inUse = cache.inUseBytes
        guard inUse + total > maxCachedBytes else { return }
        let largest = needed.max { $0.bytes < $1.bytes }
        let held = inUse > 0 ? ", \(Self.mebibytes(inUse)) of it in use by the session" : ""
        let count =
            needed.count == 1
            ? ""
            : " (\(needed.count) sounds, the largest \(largest?.source.reference ?? ""), \(Self.mebibytes(largest?.bytes ?? 0)))"
        throw ProtocolError(
            .unsupported,
            "\(what) needs \(Self.mebibytes(total)) of samples in memory\(count), and the server holds at most "
                + "\(Self.mebibytes(maxCachedBytes))\(held); name fewer or shorter sounds")
    }

    /// `bytes` in MiB as a message says it (`231.6 MiB`).
    static func mebibytes(_ bytes: Int) -> String {
        String(format: "%.1f MiB", Double(bytes) / Double(1 << 20))
    }

    // MARK: - The `assets` reply

    /// The pack entries whose summary is missing or was measured on another version of the file.
    public var unsummarized: [AssetSource] {
        guard let pack else { return [] }
        let known = summaries.all
        return pack.entries.compactMap { entry in
            let source = AssetSource(entry, in: pack, rate: .hz48000, seamFix: false)
            guard let stored = known[source.summaryKey], stored.file == source.key?.file else { return source }
            return nil
        }
    }

    /// Measures `source` with `loader` into `table`: the server's worker runs this.
    static func summarize(_ source: AssetSource, loader: Loader, into table: SummaryTable) {
        table.set(source, Result { () throws(EnsoError) in try loader.summarize(source) })
    }

    /// The `assets` reply: the pack's bells and themes with their summaries, and what the cache holds (pack assets by
    /// id; files only counted). A summary nothing prepared is measured here, on the control thread.
    public var reply: AssetsReply {
        for source in unsummarized {
            controlThreadLoads += 1
            Self.summarize(source, loader: loader, into: summaries)
        }
        let known = summaries.all
        func entries(_ kind: AssetPack.Kind) -> [AssetsReply.Entry] {
            guard let pack else { return [] }
            return pack.entries(kind: kind).map { e in
                var measured: AssetSummary?
                var problem: String?
                switch known[AssetSource.summaryKey(kind, e.id)]?.outcome {
                case .success(let s): measured = s
                case .failure(let error): problem = error.message
                case nil: break
                }
                return AssetsReply.Entry(
                    id: e.id, name: e.displayName, kind: kind.rawValue, durationSeconds: measured?.durationSeconds,
                    loopSeconds: measured?.loopSeconds, loudnessLUFS: measured?.loudnessLUFS, licence: e.licence,
                    problem: problem)
            }
        }
        let contents = cache.contents
        return AssetsReply(
            bells: entries(.bell), themes: entries(.soundscape), loaded: contents.labels,
            loadedFiles: contents.unlabelled, cachedBytes: cachedBytes, cacheLimitBytes: maxCachedBytes,
            pack: pack?.directory, packProblem: packProblem)
    }
}

/// The pack entries' summaries by `KIND:ID`, each with the file version it was measured on.
///
/// - Thread safety: any thread (a `Mutex`).
final class SummaryTable: Sendable {
    typealias Stored = (file: FileIdentity?, outcome: Result<AssetSummary, EnsoError>)
    private let table = Mutex<[String: Stored]>([:])

    var all: [String: Stored] { table.withLock { $0 } }

    func set(_ source: AssetSource, _ outcome: Result<AssetSummary, EnsoError>) {
        table.withLock { $0[source.summaryKey] = (source.key?.file, outcome) }
    }
}

/// A bell or theme reference resolved to its file and the way it is loaded: what the cache and the loader need.
///
/// - Thread safety: a value type; any thread.
public struct AssetSource: Hashable, Sendable {
    /// The reference as the request gave it (an id or a path): the engine asset's id.
    public var reference: String
    /// The audio file.
    public var path: String
    public var kind: AssetPack.Kind
    public var rate: SampleRate
    public var loop: EngineAssetLoader.ThemeLoop
    public var gainDB: Double
    public var seamFix: Bool
    /// Whether it is a pack asset (then listings may name it).
    public var fromPack: Bool
    /// The cache key, from the file's identity as of resolving; `nil` when the file cannot be `stat`ed.
    public var key: EngineAssetCache.Key?

    /// A file given by path: its own loop (``EngineAssetLoader/ThemeLoop/file``), no gain.
    init(reference: String, path: String, kind: AssetPack.Kind, rate: SampleRate, seamFix: Bool) {
        self.init(
            reference: reference, path: path, kind: kind, rate: rate, loop: .file, gainDB: 0, seamFix: seamFix,
            fromPack: false)
    }

    /// A pack entry.
    init(_ entry: AssetPack.Entry, in pack: AssetPack, rate: SampleRate, seamFix: Bool) {
        self.init(
            reference: entry.id, path: pack.path(of: entry), kind: entry.kind, rate: rate, loop: .manifest(entry.loop),
            gainDB: entry.gainDB, seamFix: seamFix, fromPack: true)
    }

    private init(
        reference: String, path: String, kind: AssetPack.Kind, rate: SampleRate, loop: EngineAssetLoader.ThemeLoop,
        gainDB: Double, seamFix: Bool, fromPack: Bool
    ) {
        self.reference = reference
        self.path = path
        self.kind = kind
        self.rate = rate
        self.loop = loop
        self.gainDB = gainDB
        self.seamFix = seamFix
        self.fromPack = fromPack
        // A theme's own loop may come from its sidecar: a new sidecar is a new entry.
        let sidecar = kind == .soundscape && loop == .file ? FileIdentity.of(path: LoopSidecar.path(for: path)) : nil
        key = FileIdentity.of(path: path).map {
            EngineAssetCache.Key(
                file: $0, sidecar: sidecar, kind: kind, rate: rate, loop: loop, gainDB: gainDB, seamFix: seamFix)
        }
    }

    /// Where `assets` keeps its summary (`KIND:ID`).
    var summaryKey: String { Self.summaryKey(kind, reference) }

    /// Where `assets` keeps the summary of the pack's `id` of `kind`.
    static func summaryKey(_ kind: AssetPack.Kind, _ id: String) -> String { "\(kind.rawValue):\(id)" }

    /// How `assets` lists it once cached (`KIND:ID@RATE`); `nil` for a file given by path.
    var label: String? { fromPack ? "\(kind.rawValue):\(reference)@\(rate.hertz)" : nil }
}
