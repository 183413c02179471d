import AudioFile

/// Decoding whole files: `AudioFileDecoder` against a plain C `sf_readf_float` loop and ffmpeg.
enum DecodeScenarios {
    static var all: [Benchmark] {
        var list: [Benchmark] = []
        for seconds in [60.0, 1.0] {
            for (format, name) in [(EncodeFormat.flac, "FLAC"), (.ogg, "Ogg Vorbis"), (.wav16, "WAV 16-bit")] {
                let variant = "\(name) \(Int(seconds)) s"
                let group = "Decode \(Int(seconds)) s stereo 48 kHz \(name)"
                let prepare: @Sendable () throws -> Void = {
                    _ = try Fixtures.file(format, seconds: seconds)
                    try CPeer.build()
                }
                list.append(
                    Benchmark("C sf_readf_float loop (\(variant))", group: group, baseline: true, prepare: prepare) {
                        let path = try Fixtures.file(format, seconds: seconds)
                        let decode = try CPeer.load().decode
                        return {
                            let frames = path.withCString { decode($0) }
                            if frames <= 0 { throw BenchmarkError("C peer could not decode \(path)") }
                            blackHole(frames)
                        }
                    })
                list.append(
                    Benchmark("AudioFile decode (\(variant))", group: group, target: 1.15, prepare: prepare) {
                        let path = try Fixtures.file(format, seconds: seconds)
                        return { blackHole(try AudioFileDecoder.decode(path: path)) }
                    })
                list.append(
                    Benchmark(
                        "ffmpeg decode -f null (\(variant), whole process)", group: group, kind: .wholeProcess,
                        prepare: prepare
                    ) {
                        guard let ffmpeg = Subprocess.which("ffmpeg") else {
                            throw BenchmarkError("ffmpeg not installed")
                        }
                        let path = try Fixtures.file(format, seconds: seconds)
                        return {
                            try Subprocess.check([
                                ffmpeg, "-v", "error", "-nostdin", "-threads", "1", "-i", path, "-f", "null", "-",
                            ])
                        }
                    })
            }
        }
        return list
    }
}
