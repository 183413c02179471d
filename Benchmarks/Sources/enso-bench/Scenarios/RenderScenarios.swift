import AudioCore
import AudioEngine
import AudioFile
import BenchSignals
import Foundation
import Glibc

/// The 60-minute session render (docs/engine.md): ambient loop, 3 cycles × 20 min, 3 strikes per group
/// 3 s apart, 2 s breaths, 10 s fades, 48 kHz stereo, 1024-frame blocks.
///
/// - mixing only, to memory: `SessionEngine` against a plain C mixer doing the same loop, strikes, fades
///   and gains (compiled by the harness); target ≥ 8000× real time;
/// - to a 16-bit WAV: `OfflineRenderer` + `StreamingFileWriter` against the same C mixer writing through
///   `sf_writef_short` (target ≤ 1.3×) and ffmpeg building the session with a filter graph (aloop +
///   adelay + amix + afade; target: ours at least 5× faster, read from the two ratios), with peak RSS
///   (target ≤ 64 MB).
enum RenderScenarios {
    static let rate = 48_000
    static let block = 1024

    /// The plan of the benchmark session.
    static var plan: SessionPlan {
        SessionPlan(
            sitting: 20 * 60, strikes: 3, strikeSpacing: 3, breath: 2, ambientVolume: 0.5, fadeIn: 10, fadeOut: 10,
            repeatMode: .times(3))
    }

    /// A 20 s stereo ambient loop and an 8 s stereo bell, written once as WAV for every peer.
    static func assetFiles() throws -> (ambient: String, bell: String) {
        let ambient = try Fixtures.stored(at: Fixtures.directory + "/render-ambient-20s.wav", format: .wavf) {
            Fixtures.signal(seconds: 20, rate: rate)
        }
        let bell = try Fixtures.stored(at: Fixtures.directory + "/render-bell-8s.wav", format: .wavf) {
            let s = SignalGenerator.bell(
                partials: [(220, 0.4, 7), (528, 0.25, 5), (1012, 0.15, 3), (1730, 0.08, 2)], seconds: 8,
                sampleRate: rate)
            return SignalGenerator.buffer(s, channels: 2, sampleRate: rate)
        }
        return (ambient, bell)
    }

    /// The decoded assets (outside the timed region).
    static func makeAssets() throws -> EngineAssets {
        let files = try assetFiles()
        let ambient = try LoadedAsset(id: "ambient", buffer: AudioFileDecoder.decode(path: files.ambient).buffer)
        let bell = try LoadedAsset(id: "bell", buffer: AudioFileDecoder.decode(path: files.bell).buffer)
        return EngineAssets(bell: bell, ambient: ambient)
    }

    /// A fresh engine at the session's start (cheap: the assets are shared, not copied).
    static func makeEngine(_ assets: EngineAssets) throws -> SessionEngine {
        let timeline = try SessionTimeline(
            plan: plan, sampleRate: SampleRate(checked: rate), bellTail: assets.bell.decayFrames())
        return try SessionEngine(plan: plan, timeline: timeline, assets: assets)
    }

    /// The session's strike frames, end frame and fade-out start, for the peers.
    static func schedule() throws -> (strikes: [Int64], end: Int64, fadeOutStart: Int64, fade: Int64) {
        let engine = try makeEngine(makeAssets())
        let t = engine.timeline
        let strikes = t.events().filter { $0.kind == .strike }.map(\.frame)
        return (strikes, t.endFrame!, t.lastStrikeFrame!, t.fadeOutFrames)
    }

    static var all: [Benchmark] {
        let memory = "Session render 60 min, 48 kHz stereo, mixing only (to memory)"
        let wav = "Session render 60 min, 48 kHz stereo, to 16-bit WAV"
        let prepare: @Sendable () throws -> Void = {
            _ = try assetFiles()
            try RenderPeer.build()
        }
        return [
            Benchmark("C mixer render (60 min, 1024-frame blocks)", group: memory, baseline: true, prepare: prepare) {
                try peerClosure(wavPath: nil)
            },
            Benchmark("SessionEngine render (60 min, 1024-frame blocks)", group: memory, target: 1.8, prepare: prepare)
            {
                let assets = try makeAssets()
                return {
                    let renderer = OfflineRenderer(engine: try makeEngine(assets), blockFrames: block)
                    var sum: Float = 0
                    try renderer.run { samples, _ in sum += samples[0] }
                    blackHole(sum)
                }
            },
            Benchmark("C mixer + sf_writef_short (60 min WAV)", group: wav, baseline: true, prepare: prepare) {
                try peerClosure(wavPath: Fixtures.directory + "/render-peer.wav")
            },
            Benchmark("OfflineRenderer + StreamingFileWriter (60 min WAV)", group: wav, target: 1.3, prepare: prepare) {
                let assets = try makeAssets()
                let path = Fixtures.directory + "/render-enso.wav"
                return {
                    let renderer = OfflineRenderer(engine: try makeEngine(assets), blockFrames: block)
                    // .processCrash, like the C peer: both leave the file in the page cache (no fsync).
                    let writer = try StreamingFileWriter(
                        path: path, format: .wav16, sampleRate: SampleRate(checked: rate), channels: .stereo,
                        durability: .processCrash)
                    try renderer.run { samples, _ in try writer.write(interleaved: samples) }
                    try writer.finish()
                }
            },
            Benchmark(
                "ffmpeg aloop+adelay+amix+afade (60 min WAV, whole process)", group: wav, kind: .wholeProcess,
                prepare: prepare
            ) {
                guard let ffmpeg = Subprocess.which("ffmpeg") else { throw BenchmarkError("ffmpeg not installed") }
                let files = try assetFiles()
                let s = try schedule()
                let seconds = Double(s.end) / Double(rate)
                var graph = "[0:a]aloop=loop=-1:size=\(20 * rate),atrim=end_sample=\(s.end),volume=0.5,"
                graph += "afade=t=in:d=10,afade=t=out:st=\(Double(s.fadeOutStart) / Double(rate)):d=10[amb];"
                graph += "[1:a]asplit=\(s.strikes.count)" + s.strikes.indices.map { "[b\($0)]" }.joined() + ";"
                for (i, f) in s.strikes.enumerated() {
                    graph += "[b\(i)]adelay=delays=\(f)S:all=1,apad[d\(i)];"
                }
                graph += "[amb]" + s.strikes.indices.map { "[d\($0)]" }.joined()
                graph += "amix=inputs=\(s.strikes.count + 1):duration=first:normalize=0"
                let out = Fixtures.directory + "/render-ffmpeg.wav"
                return {
                    try Subprocess.check([
                        ffmpeg, "-v", "error", "-nostdin", "-y", "-threads", "1", "-i", files.ambient, "-i", files.bell,
                        "-filter_complex", graph, "-t", "\(seconds)", "-c:a", "pcm_s16le", out,
                    ])
                }
            },
        ]
    }

    /// The C peer's timed closure: the same session mixed (and optionally written) by `enso_render_mix`.
    static func peerClosure(wavPath: String?) throws -> () throws -> Void {
        let mix = try RenderPeer.load()
        let files = try assetFiles()
        let ambient = try AudioFileDecoder.decode(path: files.ambient).buffer
        let bell = try AudioFileDecoder.decode(path: files.bell).buffer
        let s = try schedule()
        return {
            let rc = ambient.samples.withUnsafeBufferPointer { a in
                bell.samples.withUnsafeBufferPointer { b in
                    s.strikes.withUnsafeBufferPointer { st in
                        mix(
                            a.baseAddress!, Int64(ambient.frameCount), b.baseAddress!, Int64(bell.frameCount),
                            st.baseAddress!, Int32(st.count), s.end, Int64(10 * rate), s.fadeOutStart, s.fade, 0.5, 1,
                            Int32(block), wavPath)
                    }
                }
            }
            if rc < 0 { throw BenchmarkError("C mixer failed (\(rc))") }
            blackHole(rc)
        }
    }
}
