import AssetPipeline
import AudioCore
import AudioEngine
import AudioFile
import ControlProtocol
import Foundation

/// Finds bells and ambient themes by asset id (in the asset pack) or by file path, and loads them at the
/// engine rate, once: later sessions at the same rate reuse the loaded audio.
///
/// - Thread safety: the server's control thread only.
/// - Real-time safe: no (decodes and resamples).
public final class AssetLibrary {
    /// The asset pack, when one was found (`--assets`, `$ENSO_ASSETS`, or the bundled folder).
    public let pack: AssetPack?
    /// Why no pack was loaded, for `assets` and error messages.
    public let packProblem: String?
    private var loaded: [String: LoadedAsset] = [:]
    /// The seam-fix warning of each loaded theme that had one, said again whenever the theme is used.
    private var loadWarnings: [String: String] = [:]

    /// A library over the pack in `directory` (or the default pack folder when `nil`).
    public init(directory: String? = nil) {
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
    /// - Throws: `ProtocolError` `unavailable` naming `field` and the reference when it cannot be found or
    ///   decoded.
    public func load(
        _ reference: String, kind: AssetPack.Kind, rate: SampleRate, field: String, seamFix: Bool = true,
        warn: (String) -> Void = { _ in }
    ) throws(ProtocolError) -> LoadedAsset {
        let key = "\(kind.rawValue):\(reference)@\(rate.hertz)" + (seamFix ? "" : ":as-is")
        if let a = loaded[key] {
            if let w = loadWarnings[key] { warn(w) }
            return a
        }
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
        let asset: LoadedAsset
        do {
            asset = try EngineAssetLoader.load(
                path: path, id: reference, kind: kind, rate: rate, loop: loop, gainDB: gainDB, seamFix: seamFix,
                warn: { loadWarnings[key] = "\(field): \($0)" })
        } catch {
            throw ProtocolError(.unavailable, "\(field): \(error.message)", field: field)
        }
        loaded[key] = asset
        if let w = loadWarnings[key] { warn(w) }
        return asset
    }

    /// The `assets` reply: the pack's bells and themes, and what is loaded in memory.
    public var json: JSONValue {
        func entries(_ kind: AssetPack.Kind) -> JSONValue {
            .array((pack?.entries(kind: kind) ?? []).map { ["id": .string($0.id), "name": .string($0.displayName)] })
        }
        var o: [String: JSONValue] = [
            "bells": entries(.bell), "themes": entries(.soundscape),
            "loaded": .array(loaded.keys.sorted().map { .string($0) }),
            "pack": pack.map { .string($0.directory) } ?? .null,
        ]
        if let packProblem { o["packProblem"] = .string(packProblem) }
        return .object(o)
    }
}
