import AssetPipeline
import AudioCore
import AudioDevice
import AudioFile
import CLISupport
import Foundation

extension LoopsCommand {
    /// `--listen`: plays each file's seam on the output, `repeats` times: the loop's last seconds straight into its
    /// first seconds, exactly as a looping player joins them, faded in and out around it with a short pause between
    /// repetitions so the only join heard is the real seam.
    static func listen(_ results: [LoopVerifier.Result], args: ParsedArguments) throws {
        let seconds = try args.valueOrDefault(of: LoopsOptions.listenSeconds)
        let repeats = try args.valueOrDefault(of: LoopsOptions.repeats)
        let playable = results.filter { $0.verdict != .error && $0.loop != nil }
        guard let first = playable.first else { return }
        let output = try DeviceOptions.open(args, rate: SampleRate(checked: first.sampleRate))
        let signals = StopSignals()
        for r in playable where !signals.stopRequested {
            let clip = try seamClip(r, seconds: seconds, rate: output.format.sampleRate)
            let source = SeamClipSource(clip: clip)
            Terminal.err(
                "Listening: \(r.file) (\(r.verdict)), seam \(repeats)×, \(String(format: "%.1f", seconds)) s each side")
            do {
                try output.start(source, startFrame: 0, frameLimit: FrameCount(clip.count / 2 * repeats))
            } catch {
                throw CommandFailure(error.message)
            }
            while output.isRunning && !signals.stopRequested { usleep(10_000) }
            output.stop(drain: !signals.stopRequested)
            if let failure = output.failure { throw CommandFailure(failure.message) }
        }
    }

    /// Interleaved stereo at `rate`: 20 ms fade-in, the loop's last `seconds`, its first `seconds`, 20 ms fade-out,
    /// 0.4 s of silence.
    static func seamClip(_ r: LoopVerifier.Result, seconds: Double, rate: SampleRate) throws -> [Float] {
        guard let loop = r.loop else { return [] }
        let decoded: DecodedAudio
        do {
            decoded = try AudioFileDecoder.decode(path: r.file)
        } catch {
            throw CommandFailure(error.message, exitCode: .inputError)
        }
        let b = decoded.buffer
        let side = min(Int(seconds * Double(b.sampleRate.hertz)), Int(loop.length) / 2)
        let tail = b.slice(frames: (Int(loop.end) - side)..<Int(loop.end))
        let head = b.slice(frames: Int(loop.start)..<(Int(loop.start) + side))
        var joined = AudioBuffer(channels: b.channelCount, frameCount: 2 * side, sampleRate: b.sampleRate)
        for c in 0..<b.channels {
            for i in 0..<side {
                joined[c, i] = tail[c, i]
                joined[c, side + i] = head[c, i]
            }
        }
        do {
            joined = try Resampler.resample(joined, to: rate, quality: .medium)
        } catch {
            throw CommandFailure(error.message)
        }
        let n = joined.frameCount
        let fade = min(n / 4, rate.hertz / 50)
        let pause = rate.hertz * 2 / 5
        var out = [Float](repeating: 0, count: 2 * (n + pause))
        let right = joined.channels > 1 ? 1 : 0
        for i in 0..<n {
            let g: Float = i < fade ? Float(i) / Float(fade) : i >= n - fade ? Float(n - 1 - i) / Float(fade) : 1
            out[2 * i] = joined[0, i] * g
            out[2 * i + 1] = joined[right, i] * g
        }
        return out
    }
}

/// Plays an interleaved stereo clip over and over.
///
/// - Thread safety: rendered from the output's render thread only.
/// - Real-time safe: yes (copies from the preallocated clip).
final class SeamClipSource: RenderSource {
    let channelCount = 2
    private let clip: [Float]
    private var position = 0

    init(clip: [Float]) { self.clip = clip }

    func render(into buffer: UnsafeMutablePointer<Float>, frames: Int) {
        let frameCount = clip.count / 2
        guard frameCount > 0 else {
            for i in 0..<(2 * frames) { buffer[i] = 0 }
            return
        }
        clip.withUnsafeBufferPointer { c in
            for i in 0..<frames {
                buffer[2 * i] = c[2 * position]
                buffer[2 * i + 1] = c[2 * position + 1]
                position += 1
                if position == frameCount { position = 0 }
            }
        }
    }
}
