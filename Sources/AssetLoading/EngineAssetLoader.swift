import AssetPipeline
import AudioCore
import AudioDSP
import AudioEngine
import AudioFile
import Foundation
import Synchronization

/// The one way a bell or an ambient theme file becomes an engine asset, for `enso render|play|strike` and
/// `enso serve` alike, so a front end hears what the CLI renders.
///
/// - Thread safety: pure functions.
/// - Real-time safe: no (decodes and resamples).
public enum EngineAssetLoader {
    /// Where a theme's loop comes from.
    public enum ThemeLoop: Sendable, Hashable {
        /// A theme given as a file: its own loop (embedded, else its sidecar `FILE.loop.json`), else the whole file.
        case file
        /// A theme from a pack: the manifest's loop, `nil` for the whole file (the manifest is the pack's record,
        /// as `enso assets check` reads it; a loop embedded in the file does not override it).
        case manifest(LoopRegion?)
    }

    /// Whether `reference` names a file rather than an asset id: it contains `/`, names an existing file or ends
    /// in an audio extension (`rain` is an id, `rain.ogg` and `./rain` are files).
    public static func isFile(_ reference: String) -> Bool {
        if reference.contains("/") || FileManager.default.fileExists(atPath: reference) { return true }
        guard let dot = reference.lastIndex(of: ".") else { return false }
        return AudioFileExtensions.all.contains(reference[reference.index(after: dot)...].lowercased())
    }

    /// Decodes `path` and makes an engine asset of it at `rate`, `gainDB` applied.
    ///
    /// A theme loops as `loop` says (``ThemeLoop``); frames before the loop play once, frames after it never. The
    /// loop is resampled on its own in periodic mode (``Resampler/resample(_:to:quality:keepingSeamless:)``), so a
    /// seamless loop stays seamless at any engine rate. A bell is resampled plainly.
    ///
    /// A theme's seam is judged first (``seamFix``): one that fails the verifier's cheap metrics is crossfaded in
    /// memory the way `enso loops bake` does it, and `warn` is called once with a line naming the file and why.
    ///
    /// A file of more than 2 channels (4.0, 5.1, 7.1, any count libsndfile reads) is folded to stereo first
    /// (``ChannelMapper``: ITU-R BS.775 for the surround layouts, equal-power panning for other counts).
    ///
    /// A theme longer than `streamAbove` seconds is not decoded here: the asset returned is streamed
    /// (``streamed(path:id:rate:loop:gainDB:seamFix:loader:warn:)``).
    ///
    /// - Parameters:
    ///   - seamFix: judge and, when it fails, crossfade a theme's seam (`false`: play the file as it is).
    ///   - salvage: use a damaged file (a stream cut short) as far as it decodes, with a warning naming it and the
    ///     frames kept (`enso render|play --salvage`; the server never salvages).
    ///   - streamAbove: the length in seconds past which a theme streams (``AmbientStreaming/loadLimitSeconds``;
    ///     tests lower it).
    ///   - loader: the thread that keeps streamed themes' rings full.
    ///   - warn: receives the seam-fix and salvage warnings (at most one of each per load).
    /// - Throws: `EnsoError` naming the file, with the kind of what failed (a caller answers a missing file and a
    ///   broken one differently): `unavailable` or `permission` for a file that cannot be read, `invalid-input` for
    ///   a NaN or infinite sample, a loop that does not fit, a bell longer than
    ///   ``BellAudition/maximumDuration`` or a file over the decode limit.
    public static func load(
        path: String, id: String, kind: AssetPack.Kind, rate: SampleRate, loop: ThemeLoop, gainDB: Double,
        seamFix: Bool = true, salvage: Bool = false, streamAbove: Double = AmbientStreaming.loadLimitSeconds,
        loader: StreamLoader? = .shared, warn: (String) -> Void = { _ in }
    ) throws(EnsoError) -> LoadedAsset {
        if kind == .bell { try BellAudition.checkLength(path) }
        if kind == .soundscape {
            let info = try SoundFileReader(path: path, toleratingTruncation: salvage).info
            if Double(info.frames) > streamAbove * info.sampleRate.double {
                return try streamed(
                    path: path, id: id, info: info, rate: rate, loop: loop, gainDB: gainDB, seamFix: seamFix,
                    loader: loader, warn: warn)
            }
        }
        let decoded = try salvage ? AudioFileDecoder.decodeTolerant(path: path) : AudioFileDecoder.decode(path: path)
        if let note = decoded.salvageNote(file: path) { warn(note) }
        // Folded to stereo before resampling (six channels would be converted for nothing): ITU-R BS.775 for the
        // surround layouts, equal-power panning for other counts (``ChannelMapper``).
        var buffer = decoded.buffer.channels > 2 ? ChannelMapper.map(decoded.buffer, to: .stereo) : decoded.buffer
        var played: LoopRegion?
        if kind == .soundscape {
            var region = try loopRegion(loop, of: decoded, path: path)
            if seamFix, let fixed = fixedSeam(buffer, region: region, path: path) {
                if let baked = fixed.baked {
                    buffer = baked.buffer
                    region = baked.loop
                }
                warn(fixed.warning)
            }
            let converted = try Resampler.resample(buffer, to: rate, quality: .medium, keepingSeamless: region)
            buffer = converted.buffer
            played = converted.loop
        } else {
            buffer = try Resampler.resample(buffer, to: rate, quality: .medium)
        }
        if gainDB != 0 { buffer.scale(by: Float(pow(10, gainDB / 20))) }
        return try LoadedAsset(id: id, buffer: buffer, loop: played)
    }

    /// The loop a theme plays, as `loop` says (``ThemeLoop``), in frames of the decoded file.
    ///
    /// - Throws: `EnsoError` `invalid-input` naming the file when a manifest's loop does not fit in it, or as
    ///   ``LoopVerifier/loopRegion(of:path:)`` for a file's own loop.
    public static func loopRegion(
        _ loop: ThemeLoop, of decoded: DecodedAudio, path: String
    ) throws(EnsoError) -> LoopRegion {
        try loopRegion(loop, info: decoded.info, frames: FrameCount(decoded.buffer.frameCount), path: path) {
            () throws(EnsoError) in
            try LoopVerifier.loopRegion(of: decoded, path: path).region
        }
    }

    /// The loop a theme of `frames` frames plays, as `loop` says; `fileLoop` gives the file's own.
    static func loopRegion(
        _ loop: ThemeLoop, info: AudioFileInfo, frames: FrameCount, path: String,
        fileLoop: () throws(EnsoError) -> LoopRegion
    ) throws(EnsoError) -> LoopRegion {
        switch loop {
        case .manifest(let given?):
            // The test `assets check` and `assets list` apply: a pack they pass plays.
            guard PackMeasures.loopFits(given, frames: frames) else {
                throw EnsoError(
                    .invalidInput, "\(path): loop \(given.start)..<\(given.end) does not fit in \(frames) frames",
                    path: path)
            }
            return given
        case .manifest(nil):
            return LoopRegion(start: 0, end: FramePosition(frames))
        case .file:
            return try fileLoop()
        }
    }

    /// A theme streamed from disk: its header and loop are read now, its audio only as it plays (each play opens a
    /// ``LoopPlaybackReader`` behind an ``AmbientStream`` that `loader` keeps full). It sounds as the same file
    /// loaded whole, frame for frame, rate conversion and gain included.
    ///
    /// Its seam is judged and fixed as a loaded theme's (``fixedSeam(_:region:path:bakingWhileJudging:)``), from the window around
    /// the seam (``SeamWindow``: the loop whole up to 20 s, else its first and last 10 s), read once now: when
    /// the seam fails, the stream plays the baked loop, the file's frames with the crossfade's replaced and the
    /// mean removed (``SeamFixPatch``), which for a loop of up to 20 s are the loaded theme's, bit for bit. Only
    /// the crossfade (at most 1 s) stays in memory.
    ///
    /// - Throws: `EnsoError` naming the file: as ``load(path:id:kind:rate:loop:gainDB:seamFix:streamAbove:loader:warn:)``
    ///   for its header, channels and loop.
    public static func streamed(
        path: String, id: String, info: AudioFileInfo, rate: SampleRate, loop: ThemeLoop, gainDB: Double,
        seamFix: Bool = true, loader: StreamLoader? = .shared, warn: (String) -> Void = { _ in }
    ) throws(EnsoError) -> LoadedAsset {
        let channels = min(info.channels.count, 2)
        let region = try loopRegion(loop, info: info, frames: info.frames, path: path) { () throws(EnsoError) in
            try LoopVerifier.loopRegion(info: info, frames: info.frames, path: path).region
        }
        var patch: SeamFixPatch?
        if seamFix, region.length >= 4 {
            let window = try SeamWindow.read(path: path, loop: region, foldingToStereo: true)
            if let fixed = fixedSeam(window.buffer, region: window.loop, path: path, bakingWhileJudging: true) {
                if let baked = fixed.baked { patch = SeamFixPatch(baked, of: window) }
                warn(fixed.warning)
            }
        }
        let source = StreamedThemeSource(
            path: path, loop: region, patch: patch, rate: rate, channels: channels,
            gain: gainDB != 0 ? Float(pow(10, gainDB / 20)) : nil, loader: loader)
        let probe = try source.reader()
        return try LoadedAsset(
            id: id, sampleRate: rate, channels: channels, frameCount: probe.frameCount, loop: probe.loop,
            stream: source)
    }

    /// The seam fix: when the loop's seam fails one of the verifier's cheap metrics (continuity, click, DC offset,
    /// rhythm, dip: ``SeamRules/passes(_:loop:)``), the loop baked by ``LoopBaker/bake(_:region:crossfade:curve:)``
    /// (its crossfade and curve chosen from the material, as `enso loops bake` chooses them) and the warning;
    /// `nil` for a seam that passes them (the theme is then untouched, bit for bit).
    ///
    /// A loop too short to bake keeps its seam (`baked` is `nil`); the warning says so. `buffer` is the decoded
    /// theme or, for a streamed one, its ``SeamWindow``.
    ///
    /// - Parameter bakingWhileJudging: bake on a second thread while the seam is judged, and keep the bake only
    ///   when the seam fails (the bake is a function of the frames alone, so it is the one baked after the
    ///   verdict, bit for bit). A streamed theme's first frame waits for the verdict and the bake, and the second
    ///   core is idle meanwhile: a failing seam's start is then the judge's time, not the judge's and the bake's.
    ///   Its window bounds the bake thrown away when the seam passes (20 s); a loaded theme (up to 2 min, and every
    ///   bundled one passes) bakes only after a failing verdict.
    static func fixedSeam(
        _ buffer: AudioBuffer, region: LoopRegion, path: String, bakingWhileJudging: Bool = false
    ) -> (baked: LoopBaker.Result?, warning: String)? {
        guard region.length >= 4 else { return nil }
        let loop = Int(region.start)..<Int(region.end)
        let report: SeamRules.Report
        let bakedAhead: Result<LoopBaker.Result, EnsoError>?
        if bakingWhileJudging {
            let judged = Mutex<SeamRules.Report?>(nil)
            let baked = Mutex<Result<LoopBaker.Result, EnsoError>?>(nil)
            DispatchQueue.concurrentPerform(iterations: 2) { i in
                if i == 0 {
                    let r = SeamRules.passes(buffer, loop: loop)
                    judged.withLock { $0 = r }
                } else {
                    let b = Result { () throws(EnsoError) in try LoopBaker.bake(buffer, region: region) }
                    baked.withLock { $0 = b }
                }
            }
            report = judged.withLock { $0! }
            bakedAhead = baked.withLock { $0 }
        } else {
            report = SeamRules.passes(buffer, loop: loop)
            bakedAhead = nil
        }
        let failing = report.metrics.filter { $0.status == .fail }
        guard !failing.isEmpty else { return nil }
        let why = "\(path): the loop's seam is not seamless (\(failing.map(\.note).joined(separator: "; ")))"
        do {
            let baked = try
                (bakedAhead ?? Result { () throws(EnsoError) in try LoopBaker.bake(buffer, region: region) })
                .get()
            let ms = Int((Double(baked.crossfade) * 1000 / Double(buffer.sampleRate.hertz)).rounded())
            return (
                baked,
                why + "; playing it with a \(ms) ms crossfade at the seam, as 'enso loops bake' would make it "
                    + "(--no-seam-fix plays the file as it is)"
            )
        } catch {
            return (nil, why + "; it cannot be crossfaded (\(error.message)), so it plays as it is")
        }
    }
}
