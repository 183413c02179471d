import AssetPipeline
import AudioCore
import AudioFile
import AudioTestSupport
import Dispatch
import Foundation
import Glibc

/// Bell audition (docs/bells.md): 300 candidates of 3–15 s (WAV, FLAC, Ogg; mono and stereo) auditioned on all
/// cores, against a Python pipeline computing the same loudness (pyloudnorm) and decay/spectral features
/// (librosa) in a venv the bench creates. Targets: ≤ 10 s in total, ≥ 10× faster than Python (ratio ≤ 0.1).
enum BellScenarios {
    static let count = 300

    /// 300 synthetic bells and chimes, lengths 3…15 s, a third each WAV 24-bit, FLAC and Ogg Vorbis.
    static func files() throws -> [String] {
        let dir = Fixtures.directory + "/bells-300"
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        var paths: [String] = []
        for i in 0..<count {
            let format: EncodeFormat = [.wav24, .flac, .ogg][i % 3]
            let ext = format == .wav24 ? "wav" : format == .flac ? "flac" : "ogg"
            let path = "\(dir)/bell-\(i).\(ext)"
            paths.append(path)
            if access(path, R_OK) == 0 { continue }
            let seconds = 3 + Double((i * 37) % 121) / 10
            let base = 180 + Double((i * 53) % 400)
            let t60 = 0.8 + Double((i * 17) % 90) / 10
            let partials = [1.0, 1.93, 2.71, 4.1, 5.4].enumerated().map { k, r in
                BellSignals.Partial(base * r, 0.2 / Double(k + 1), t60: t60 / (1 + 0.3 * Double(k)))
            }
            let b = BellSignals.bell(
                partials, seconds: seconds, attack: 0.002 + Double(i % 7) * 0.004, beat: i % 4 == 0 ? 0.9 : nil,
                channels: 1 + i % 2)
            do { try AudioFileEncoder.write(b, to: path, options: EncodeOptions(format: format)) } catch {
                throw BenchmarkError(error.message)
            }
        }
        return paths
    }

    static let venv = Fixtures.directory + "/bells-python-venv"
    static let pipLog = Fixtures.directory + "/bells-python-pip.log"

    /// The Python peer: per file, pyloudnorm integrated loudness and librosa RMS envelope (decay to −20/−40 dB),
    /// onset count, spectral centroid and an STFT peak (the strongest partial), on 2 processes.
    static let script = """
        import sys, numpy as np, soundfile as sf, pyloudnorm as pyln, librosa
        from multiprocessing import Pool
        def one(path):
            x, sr = sf.read(path, always_2d=True)
            pad = np.zeros((int(0.4 * sr), x.shape[1]))
            loud = pyln.Meter(sr).integrated_loudness(np.vstack([pad, x, pad]))
            y = x.mean(axis=1)
            rms = librosa.feature.rms(y=y, frame_length=480, hop_length=240)[0]
            db = 20 * np.log10(np.maximum(rms, 1e-10)); p = int(np.argmax(db))
            d20 = np.nonzero(db[p:] > db[p] - 20)[0][-1] * 240 / sr
            d40 = np.nonzero(db[p:] > db[p] - 40)[0][-1] * 240 / sr
            onsets = len(librosa.onset.onset_detect(y=y, sr=sr))
            cent = float(np.mean(librosa.feature.spectral_centroid(y=y, sr=sr)))
            S = np.abs(librosa.stft(y, n_fft=4096, hop_length=2048)).mean(axis=1)
            return (path, loud, d20, d40, onsets, cent, float(np.argmax(S) * sr / 4096))
        if __name__ == "__main__":
            with Pool(2) as pool:
                rows = pool.map(one, sys.argv[1:])
            print(len(rows))
        """

    static func installPython() {
        try? Data(script.utf8).write(to: URL(fileURLWithPath: Fixtures.directory + "/bells_pipeline.py"))
        if access(venv + "/bin/python", X_OK) == 0,
            (try? Subprocess.run([venv + "/bin/python", "-c", "import pyloudnorm, librosa, soundfile"])) == 0
        {
            return
        }
        guard let python = Subprocess.which("python3") else { return }
        _ = try? Subprocess.run([python, "-m", "venv", venv], captureTo: pipLog)
        _ = try? Subprocess.run(
            [venv + "/bin/pip", "install", "--disable-pip-version-check", "pyloudnorm", "librosa", "soundfile"],
            captureTo: pipLog)
    }

    static var all: [Benchmark] {
        let group = "Bells audition: 300 candidates of 3-15 s (WAV + FLAC + Ogg, mono + stereo), all cores"
        let prepare: @Sendable () throws -> Void = { _ = try files() }
        let preparePython: @Sendable () throws -> Void = {
            _ = try files()
            installPython()
        }
        return [
            Benchmark("Python pyloudnorm + librosa features (300 files, 2 processes)", group: group, baseline: true, kind: .wholeProcess, prepare: preparePython) {
                let python = venv + "/bin/python"
                guard (try? Subprocess.run([python, "-c", "import pyloudnorm, librosa, soundfile"])) == 0 else {
                    let log = (try? String(contentsOfFile: pipLog, encoding: .utf8)) ?? ""
                    let last = log.split(separator: "\n").last.map(String.init) ?? "pip did not run"
                    throw BenchmarkError("pip could not install pyloudnorm/librosa: \(last)")
                }
                let paths = try files()
                return { try Subprocess.check([python, Fixtures.directory + "/bells_pipeline.py"] + paths) }
            },
            Benchmark("enso bells audition --json (300 files, whole process)", group: group, kind: .wholeProcess, target: 0.1, prepare: prepare) {
                let enso = try StartupScenarios.ensoPath()
                let paths = try files()
                return { try Subprocess.check([enso, "bells", "audition", "--json", "--top", "1"] + paths) }
            },
            Benchmark("BellAudition audition incl. decode (300 files, in-process, parallel)", group: group, prepare: prepare) {
                let paths = try files()
                return {
                    let results = BellAudition.audition(paths: paths, profile: .temple)
                    if results.contains(where: { $0.result.verdict == .error }) {
                        throw BenchmarkError("a candidate could not be auditioned")
                    }
                    blackHole(results)
                }
            },
        ]
    }
}
