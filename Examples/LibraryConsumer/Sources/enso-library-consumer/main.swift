import AssetPipeline
import AudioCore
import AudioDSP
import AudioEngine
import AudioFile
import Foundation

/// A consumer of Enso's library API: makes a bell, auditions it, renders a short session with it to a file, and
/// reads the file back. Each step checks what it got and the program exits 1 with a message when one is wrong,
/// so `make test` fails when the API a consumer relies on breaks.
///
/// Usage: enso-library-consumer OUT_FOLDER

/// Stops with `message` on stderr and exit status 1.
func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("enso-library-consumer: \(message)\n".utf8))
    exit(1)
}

let arguments = CommandLine.arguments.dropFirst()
guard let folder = arguments.first, arguments.count == 1 else { fail("usage: enso-library-consumer OUT_FOLDER") }
let rate = SampleRate.hz48000

// 1. A bell: a 440 Hz partial and two overtones, struck at once, ringing down over 6 s (60 dB).
let seconds = 6.0
let frames = Int(seconds * Double(rate.hertz))
let bellSamples: [Float] = (0..<frames).map { i in
    let t = Double(i) / Double(rate.hertz)
    let decay = pow(10, -3 * t / seconds)
    let tone = sin(2 * .pi * 440 * t) + 0.5 * sin(2 * .pi * 1_187 * t) + 0.25 * sin(2 * .pi * 2_290 * t)
    return Float(0.35 * decay * tone)
}
let bellPath = folder + "/bell.wav"
do {
    try AudioFileEncoder.write(
        AudioBuffer(channelData: [bellSamples], sampleRate: rate), to: bellPath, options: EncodeOptions(format: .wav24))
} catch {
    fail("writing the bell: \(error.message)")
}

// 2. Audition it as `enso bells audition` does.
let result = BellAudition.auditionFile(bellPath, profile: .bowl)
guard result.verdict != .error, let metrics = result.metrics else {
    fail("auditioning \(bellPath): \(result.reasons.joined(separator: "; "))")
}
print(
    "audition: \(result.verdict.rawValue), class \(result.bellClass?.rawValue ?? "-"), score "
        + String(format: "%.0f", result.score ?? 0) + ", "
        + (metrics.loudness.integrated.map { String(format: "%.1f LUFS", $0) } ?? "no integrated loudness"))

// 3. Render a short session with that bell: 4 s sitting, two strikes, once.
let decoded: DecodedAudio
do { decoded = try AudioFileDecoder.decode(path: bellPath) } catch { fail("decoding the bell: \(error.message)") }
let plan = SessionPlan(sitting: 4, strikes: 2, strikeSpacing: 1, breath: 0, repeatMode: .times(1))
let sessionPath = folder + "/session.flac"
let rendered: FrameCount
do {
    let bell = try LoadedAsset(id: "consumer-bell", buffer: decoded.buffer)
    let timeline = try SessionTimeline(plan: plan, sampleRate: rate, bellTail: bell.decayFrames(gain: plan.bellVolume))
    let engine = try SessionEngine(plan: plan, timeline: timeline, assets: EngineAssets(bell: bell))
    let writer = try StreamingFileWriter(path: sessionPath, format: .flac, sampleRate: rate, channels: .stereo)
    rendered = try OfflineRenderer(engine: engine).run { block, _ in try writer.write(interleaved: block) }
    try writer.finish()
} catch {
    fail("rendering the session: \(error)")
}

// 4. Read it back: the length rendered, and the bell heard in it.
do {
    let session = try AudioFileDecoder.decode(path: sessionPath)
    guard FrameCount(session.buffer.frameCount) == rendered, session.buffer.peak > 0.05 else {
        fail("\(sessionPath): \(session.buffer.frameCount) frames, peak \(session.buffer.peak); rendered \(rendered)")
    }
    print(
        "render: \(sessionPath), " + String(format: "%.2f s", session.buffer.duration)
            + " (\(rendered) frames at \(rate.hertz) Hz), peak " + String(format: "%.2f", session.buffer.peak))
} catch {
    fail("reading \(sessionPath) back: \(error.message)")
}
