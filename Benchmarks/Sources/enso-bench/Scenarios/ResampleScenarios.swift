import AudioCore
import AudioFile

/// Resampling 44.1 -> 48 kHz: `Resampler` against plain C libsamplerate at the same quality, and sox.
enum ResampleScenarios {
    static let seconds = 10.0

    static var all: [Benchmark] {
        var list: [Benchmark] = []
        for quality in ResamplerQuality.allCases {
            let group = "Resample \(Int(seconds)) s stereo 44.1 -> 48 kHz, \(quality.rawValue) quality"
            let converter: Int32 = quality == .best ? 0 : quality == .medium ? 1 : 2
            list.append(
                Benchmark(
                    "C libsamplerate src_process (\(quality.rawValue))", group: group, baseline: true,
                    prepare: CPeer.build
                ) {
                    let input = Fixtures.signal(seconds: seconds, rate: 44_100).interleaved()
                    let resample = try CPeer.load().resample
                    let frames = input.count / 2
                    return {
                        let n = input.withUnsafeBufferPointer {
                            resample($0.baseAddress!, frames, 2, 48_000.0 / 44_100.0, converter)
                        }
                        if n <= 0 { throw BenchmarkError("C peer failed") }
                        blackHole(n)
                    }
                })
            list.append(
                Benchmark("Resampler resample (\(quality.rawValue))", group: group, target: 1.1) {
                    let input = Fixtures.signal(seconds: seconds, rate: 44_100)
                    return { blackHole(try Resampler.resample(input, to: .hz48000, quality: quality)) }
                })
            list.append(
                Benchmark("StreamingResampler process (\(quality.rawValue), 4096-frame chunks)", group: group) {
                    let input = Fixtures.signal(seconds: seconds, rate: 44_100)
                    let chunks = stride(from: 0, to: input.frameCount, by: 4096).map {
                        input.slice(frames: $0..<min($0 + 4096, input.frameCount))
                    }
                    return {
                        let r = try StreamingResampler(
                            channels: .stereo, from: .hz44100, to: .hz48000, quality: quality)
                        for chunk in chunks { blackHole(try r.process(chunk)) }
                        blackHole(try r.flush())
                    }
                })
            if quality == .best {
                list.append(
                    Benchmark(
                        "sox rate -v (whole process, reads a 10 s WAV)", group: group, kind: .wholeProcess,
                        prepare: { _ = try Fixtures.file(.wavf, seconds: seconds, rate: 44_100) }
                    ) {
                        guard let sox = Subprocess.which("sox") else { throw BenchmarkError("sox not installed") }
                        let path = try Fixtures.file(.wavf, seconds: seconds, rate: 44_100)
                        return { try Subprocess.check([sox, path, "-t", "f32", "/dev/null", "rate", "-v", "48000"]) }
                    })
            }
        }
        return list
    }
}
