// libFuzzer target over the live path a front end drives: bytes → LineFramer → RequestDispatcher → the real
// SessionController (engine on the paced null output, journal in a temporary folder, the bundled asset pack) →
// Reply, then the events the controller emits. Built with `-sanitize=fuzzer,address` and run by run.sh
// (`make fuzz`).
//
// An input is a transcript: its lines are sent in order (a `start`, then `set`, `strike`, `pause` ... on the
// session it started); at its end any session is shut down, so every input starts from an idle controller.
// Besides "no crash", every reply must be one line of valid JSON with `ok`, the request's id echoed when it could be
// read, and a documented code on errors; every event must encode as one valid JSON line.
import ControlProtocol
import Foundation
import FuzzSupport
import PlaybackService

/// Lines of one input that are executed (a session needs only a few; more would only slow the fuzzer).
private let linesPerInput = 12
/// Inputs between fresh journals (the journal is read whole by `sessions-list`).
private let inputsPerJournal = 2000

private let folder: String = {
    let dir = NSTemporaryDirectory() + "enso-controller-fuzz-\(getpid())"
    try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    // The journals go when libFuzzer exits.
    atexit { try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "enso-controller-fuzz-\(getpid())") }
    return dir
}()

private func makeController(_ generation: Int) -> SessionController {
    let journal = SessionJournal(path: folder + "/journal-\(generation).jsonl")
    try? FileManager.default.removeItem(atPath: folder + "/journal-\(generation - 1).jsonl")
    // Short checkpoints so that the checkpoint path runs too.
    return SessionController(output: .null, journal: journal, assets: AssetLibrary(), checkpointInterval: 0.1)
}

/// `ENSO_FUZZ_ECHO=1` prints every reply and event to stderr (to see what an input does: run the binary on its file).
private let echo = ProcessInfo.processInfo.environment["ENSO_FUZZ_ECHO"] == "1"

nonisolated(unsafe) private var generation = 0
nonisolated(unsafe) private var inputs = 0
nonisolated(unsafe) private var controller = makeController(0)
nonisolated(unsafe) private var dispatcher = RequestDispatcher(service: controller)

private func check(_ reply: Reply, for frame: LineFramer.Frame) {
    if echo { FileHandle.standardError.write(Data(reply.line)) }
    checkReply(reply, for: frame)
}

private func check(_ events: [ProtocolEvent]) {
    for event in events {
        if echo { FileHandle.standardError.write(Data(event.line)) }
        let decoded = decodeLine(event.line, "an event")
        precondition(decoded["event"]?.stringValue == event.kind.rawValue, "event without its kind")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    var framer = LineFramer(limit: 4096)
    var frames = framer.append(UnsafeBufferPointer(start: data, count: size))
    if let last = framer.finish() { frames.append(last) }
    for frame in frames.prefix(linesPerInput) {
        let reply = dispatcher.reply(to: frame)
        check(reply, for: frame)
        check(controller.poll())
    }
    check(controller.shutdown())
    precondition(!controller.isActive, "a session outlived shutdown")
    _ = controller.takeWarnings()
    inputs += 1
    if inputs % inputsPerJournal == 0 {
        generation += 1
        controller = makeController(generation)
        dispatcher = RequestDispatcher(service: controller)
    }
    return 0
}

/// The entry point SwiftPM links as `main` for this executable (Shared/FuzzerDriver.swift says why).
@_cdecl("controller_fuzz_main")
public func controllerFuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in fuzz(data, size) }
}
