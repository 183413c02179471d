import AssetLoading
import AssetPipeline
import AudioCore
import AudioEngine
import AudioFile
import CLISupport
import Foundation

extension PlanOptions {
    /// Where an asset comes from: a pack id or a file path.
    enum AssetSource: Equatable {
        case id(String)
        case file(String)

        /// A path when the value names a file (``EngineAssetLoader/isFile(_:)``: contains `/`, names an existing
        /// file or ends in an audio extension); otherwise an asset id.
        init(_ value: String) {
            self = EngineAssetLoader.isFile(value) ? .file(value) : .id(value)
        }
    }

    /// Decodes, resamples (once, periodic for loops) and wraps the plan's bell and ambient.
    ///
    /// - Parameters:
    ///   - includeAmbient: `false` to find the ambient (its id in the pack, its file) without decoding it (`enso plan`).
    ///   - bellLabel: how the command names the bell in its messages (`--bell`; `BELL` for `enso strike`, whose bell
    ///     is its argument).
    /// - Throws: `UsageError` (exit 64) for an unknown id (the message lists the known ids);
    ///   `CommandFailure` (exit 1) for an unreadable file, a missing asset pack or an unusable asset.
    static func loadAssets(
        _ parsed: Parsed, includeAmbient: Bool = true, bellLabel: String = "--bell"
    ) throws -> EngineAssets {
        var pack: AssetPack?
        func resolve(_ id: String, kind: AssetPack.Kind, label: String) throws -> (
            String, EngineAssetLoader.ThemeLoop, Double
        ) {
            try PlanOptions.resolve(id, kind: kind, label: label, parsed: parsed, pack: &pack)
        }
        let bellPath: String
        var bellGain = 0.0
        switch AssetSource(parsed.plan.bell) {
        case .file(let p): bellPath = p
        case .id(let id): (bellPath, _, bellGain) = try resolve(id, kind: .bell, label: bellLabel)
        }
        let bell = try load(
            bellPath, as: parsed.plan.bell, label: bellLabel, rate: parsed.rate, loop: .file, gainDB: bellGain,
            looping: false, seamFix: parsed.seamFix, salvage: parsed.salvage)
        var ambient: LoadedAsset?
        if let a = parsed.plan.ambient {
            var path: String
            var loop = EngineAssetLoader.ThemeLoop.file
            var gain = 0.0
            switch AssetSource(a) {
            case .file(let p): path = p
            case .id(let id): (path, loop, gain) = try resolve(id, kind: .soundscape, label: "--ambient")
            }
            if includeAmbient {
                ambient = try load(
                    path, as: a, label: "--ambient", rate: parsed.rate, loop: loop, gainDB: gain, looping: true,
                    seamFix: parsed.seamFix, salvage: parsed.salvage)
            } else {
                // Not decoded, but found, as `--theme-at`'s themes are.
                try requireFile(path, label: "--ambient")
            }
        }
        var interval: LoadedAsset?
        if let ref = parsed.plan.intervalBell {
            var path = ref
            var gain = 0.0
            if case .id(let id) = AssetSource(ref) {
                (path, _, gain) = try resolve(id, kind: .bell, label: "--interval-bell")
            }
            interval = try load(
                path, as: ref, label: "--interval-bell", rate: parsed.rate, loop: .file, gainDB: gain, looping: false,
                salvage: parsed.salvage)
        }
        return EngineAssets(bell: bell, ambient: ambient, interval: interval)
    }

    /// The file, loop and gain of pack asset `id`, loading the pack into `pack` on first use.
    ///
    /// - Throws: `CommandFailure` (exit 1) when no asset pack is found; `UsageError` (exit 64) naming `label` (the
    ///   option, `--bell`) for an unknown id (the message lists the known ids).
    static func resolve(
        _ id: String, kind: AssetPack.Kind, label: String, parsed: Parsed, pack: inout AssetPack?
    ) throws -> (String, EngineAssetLoader.ThemeLoop, Double) {
        if pack == nil {
            do {
                pack = try AssetPack.load(directory: AssetPack.defaultDirectory(override: parsed.assetsDirectory))
            } catch {
                throw CommandFailure("\(label) \(id): \(error.message)")
            }
        }
        do {
            let entry = try pack!.resolve(id: id, kind: kind)
            return (pack!.path(of: entry), .manifest(entry.loop), entry.gainDB)
        } catch {
            throw UsageError("\(label): \(error.message)")
        }
    }

    /// Throws `CommandFailure` naming `label` when there is no file at `path`: how `enso plan` finds a theme it does
    /// not decode.
    static func requireFile(_ path: String, label: String) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw CommandFailure("\(label): \(path): no such file", code: ErrorDetail.notFound.rawValue, file: path)
        }
    }

    /// Decodes `path` and makes an engine asset at `rate` (``EngineAssetLoader``: the same as `enso serve`); a theme
    /// whose seam fails is crossfaded in memory unless `seamFix` is false, with one warning line on stderr.
    ///
    /// The asset's id is `reference`, the id or file the user gave, as the server names its assets: events, the
    /// status line and the journal say `hearth`, not the pack's file path.
    static func load(
        _ path: String, as reference: String, label: String, rate: SampleRate, loop: EngineAssetLoader.ThemeLoop,
        gainDB: Double, looping: Bool, seamFix: Bool = true, salvage: Bool = false
    ) throws -> LoadedAsset {
        do {
            return try EngineAssetLoader.load(
                path: path, id: reference, kind: looping ? .soundscape : .bell, rate: rate, loop: loop, gainDB: gainDB,
                seamFix: seamFix, salvage: salvage, warn: { Terminal.err("Warning: \(label) \($0)") })
        } catch {
            // The error's kind and file, as every command's JSON error object carries them (docs/cli.md); the exit
            // code stays this command's 1.
            throw CommandFailure(
                "\(label): \(error.message)", exitCode: .failure, code: error.name, file: error.path ?? path)
        }
    }
}
