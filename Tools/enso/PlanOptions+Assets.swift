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

        /// A path when the value names an existing file, contains `/` or ends in an audio extension;
        /// otherwise an asset id.
        init(_ value: String) {
            let audioExtensions = [".wav", ".flac", ".ogg", ".oga", ".opus", ".aif", ".aiff", ".mp3", ".caf"]
            if value.contains("/") || FileManager.default.fileExists(atPath: value)
                || audioExtensions.contains(where: { value.lowercased().hasSuffix($0) })
            {
                self = .file(value)
            } else {
                self = .id(value)
            }
        }
    }

    /// Decodes, resamples (once, periodic for loops) and wraps the plan's bell and ambient.
    ///
    /// - Parameter includeAmbient: `false` to check the ambient id without decoding it (`enso plan`).
    /// - Throws: `UsageError` (exit 64) for an unknown id (the message lists the known ids);
    ///   `CommandFailure` (exit 1) for an unreadable file, a missing asset pack or an unusable asset.
    static func loadAssets(_ parsed: Parsed, includeAmbient: Bool = true) throws -> EngineAssets {
        var pack: AssetPack?
        func resolve(_ id: String, kind: AssetPack.Kind, option: String) throws -> (String, LoopRegion?, Double) {
            try PlanOptions.resolve(id, kind: kind, option: option, parsed: parsed, pack: &pack)
        }
        let bellPath: String
        var bellGain = 0.0
        switch AssetSource(parsed.plan.bell) {
        case .file(let p): bellPath = p
        case .id(let id): (bellPath, _, bellGain) = try resolve(id, kind: .bell, option: "bell")
        }
        let bell = try load(bellPath, option: "bell", rate: parsed.rate, loop: nil, gainDB: bellGain, looping: false)
        var ambient: LoadedAsset?
        if let a = parsed.plan.ambient {
            var path: String
            var loop: LoopRegion?
            var gain = 0.0
            switch AssetSource(a) {
            case .file(let p): path = p
            case .id(let id): (path, loop, gain) = try resolve(id, kind: .soundscape, option: "ambient")
            }
            if includeAmbient {
                ambient = try load(path, option: "ambient", rate: parsed.rate, loop: loop, gainDB: gain, looping: true)
            }
        }
        return EngineAssets(bell: bell, ambient: ambient)
    }

    /// The file, loop and gain of pack asset `id`, loading the pack into `pack` on first use.
    ///
    /// - Throws: `CommandFailure` (exit 1) when no asset pack is found; `UsageError` (exit 64) naming
    ///   `--option` for an unknown id (the message lists the known ids).
    static func resolve(
        _ id: String, kind: AssetPack.Kind, option: String, parsed: Parsed, pack: inout AssetPack?
    ) throws -> (String, LoopRegion?, Double) {
        if pack == nil {
            do {
                pack = try AssetPack.load(directory: AssetPack.defaultDirectory(override: parsed.assetsDirectory))
            } catch {
                throw CommandFailure("--\(option) \(id): \(error.message)")
            }
        }
        do {
            let entry = try pack!.resolve(id: id, kind: kind)
            return (pack!.path(of: entry), entry.loop, entry.gainDB)
        } catch {
            throw UsageError("--\(option): \(error.message)")
        }
    }

    /// Decodes `path` and makes an engine asset at `rate`.
    ///
    /// A loop that is not the whole file is cut out and resampled on its own in periodic mode (the intro
    /// before the loop start is not played), so the loop stays seamless at any rate.
    static func load(
        _ path: String, option: String, rate: SampleRate, loop: LoopRegion?, gainDB: Double, looping: Bool
    ) throws -> LoadedAsset {
        do {
            let decoded = try AudioFileDecoder.decode(path: path)
            guard decoded.buffer.channels <= 2 else {
                throw CommandFailure("--\(option) \(path): \(decoded.buffer.channels) channels; use a mono or stereo file")
            }
            var buffer = decoded.buffer
            var periodic = false
            if looping {
                let region = loop ?? decoded.info.loops.first
                if let r = region, r.start > 0 || r.end < buffer.frameCount {
                    buffer = buffer.slice(frames: Int(r.start)..<Int(r.end))
                }
                periodic = true
            }
            if gainDB != 0 {
                let g = Float(pow(10, gainDB / 20))
                for i in buffer.samples.indices { buffer.samples[i] *= g }
            }
            let resampled = try Resampler.resample(buffer, to: rate, quality: .medium, periodic: periodic)
            return try LoadedAsset(id: path, buffer: resampled)
        } catch let e as AudioFileError {
            throw CommandFailure("--\(option): \(e.message)")
        } catch let e as AudioEngineError {
            throw CommandFailure("--\(option): \(e.message)")
        }
    }
}
