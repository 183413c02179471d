// How the fuzzers start. SwiftPM links an executable target's `main` as an alias of `<module>_main` (so that tests
// can link the module), which keeps libFuzzer's own `main` out of the link; each fuzzer therefore defines
// `<module>_main` and hands its arguments and its input callback to libFuzzer's driver here.

/// libFuzzer's driver (the body of its own `main`): parses the flags in `argv` and runs `callback` on each input.
@_silgen_name("LLVMFuzzerRunDriver")
private func llvmFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32
) -> Int32

/// Runs libFuzzer with the process's arguments over `callback` (a fuzzer's `LLVMFuzzerTestOneInput`); returns the
/// exit status.
public func runFuzzer(
    _ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32
) -> Int32 {
    var count = argc
    var vector = argv
    return llvmFuzzerRunDriver(&count, &vector, callback)
}
