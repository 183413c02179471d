import Foundation
import Glibc

/// A C library the harness compiles at run time (`cc -O2 -shared`) and loads into the measuring process, so a peer
/// and Enso run in the same process: `<name>.c` and `lib<name>.so` in the fixtures folder.
struct CompiledPeer {
    /// The file names' stem.
    let name: String
    /// The C source.
    let source: String
    /// The libraries it links (`-l`).
    let libraries: [String]

    var libraryPath: String { Fixtures.directory + "/lib\(name).so" }

    /// Writes the C source and compiles it, unless the same source was compiled before.
    func build() throws {
        let cPath = Fixtures.directory + "/\(name).c"
        if (try? String(contentsOfFile: cPath, encoding: .utf8)) == source && access(libraryPath, R_OK) == 0 { return }
        guard let cc = Subprocess.which("cc") else { throw BenchmarkError("no C compiler (cc) on PATH") }
        try source.write(toFile: cPath, atomically: false, encoding: .utf8)
        try Subprocess.check(
            [cc, "-O2", "-shared", "-fPIC", cPath, "-o", libraryPath] + libraries.map { "-l" + $0 })
    }

    /// The compiled function `symbol`, loaded into this process as a `type` (a `@convention(c)` function type).
    func function<Function>(_ symbol: String, as type: Function.Type) throws -> Function {
        guard let lib = dlopen(libraryPath, RTLD_NOW) else {
            throw BenchmarkError("cannot load \(libraryPath): \(String(cString: dlerror()))")
        }
        guard let f = dlsym(lib, symbol) else { throw BenchmarkError("\(libraryPath) lacks \(symbol)") }
        return unsafeBitCast(f, to: type)
    }
}
