import Foundation
import Glibc

/// The venvs the Python peers run in: pinned versions (the peer is the same program from run to run), installed by
/// `pip` once and again when the pins change.
///
/// On 2026-12-01 every Python worker segfaulted in librosa's `peak_pick`: the numba cache had been written by two pool
/// workers compiling at once. With the cache written by one process first (``warmNumbaCache(_:running:log:)``) the
/// same versions run. The workers of a `multiprocessing.Pool` that die leave `pool.map` waiting forever, so the
/// scripts use `ProcessPoolExecutor`, which fails instead.
enum PythonVenv {
    /// The scientific stack every peer shares: pip's newest releases on 2026-12-01. (numpy 2.2.6 with numba 0.61.2 ran
    /// the full bell script 8 % slower: 62.9 s vs 58.3 s over the 300 bench bells, one run each.)
    static let stack = [
        "numpy==2.4.6", "scipy==1.17.1", "numba==0.68.1", "llvmlite==0.50.0", "librosa==0.11.0", "soundfile==0.14.0",
    ]

    /// Makes `venv` hold `stack + packages` (exactly those pins), logging pip's output to `log`. A venv made with other
    /// pins is removed first. Failures are left in `log` for the scenario to report.
    static func ensure(_ venv: String, packages: [String], log: String) {
        let pins = (stack + packages).joined(separator: "\n") + "\n"
        let stamp = venv + "/enso-pins.txt"
        if (try? String(contentsOfFile: stamp, encoding: .utf8)) == pins { return }
        try? FileManager.default.removeItem(atPath: venv)
        guard let python = Subprocess.which("python3") else {
            try? Data("python3 is not installed\n".utf8).write(to: URL(fileURLWithPath: log))
            return
        }
        guard (try? Subprocess.run([python, "-m", "venv", venv], captureTo: log)) == 0,
            (try? Subprocess.run(
                [venv + "/bin/pip", "install", "--disable-pip-version-check"] + stack + packages, captureTo: log)) == 0
        else { return }
        try? Data(pins.utf8).write(to: URL(fileURLWithPath: stamp))
    }

    /// Compiles and caches the venv's numba functions with one process: deletes numba's cache files (`*.nbi`,
    /// `*.nbc`) and runs `argv` once. Pool workers that compile at the same time write the cache at the same time,
    /// and a cache written that way segfaulted every later run (librosa's `peak_pick`, numba 0.61 and 0.68 alike).
    static func warmNumbaCache(_ venv: String, running argv: [String], log: String) {
        if let walker = FileManager.default.enumerator(atPath: venv) {
            for case let relative as String in walker where relative.hasSuffix(".nbi") || relative.hasSuffix(".nbc") {
                unlink(venv + "/" + relative)
            }
        }
        _ = try? Subprocess.run(argv, captureTo: log)
    }

    /// The last line pip wrote to `log` (why a peer is missing).
    static func lastLine(_ log: String) -> String {
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").last.map(String.init) ?? "pip did not run"
    }
}
