// libFuzzer target over the protocol's JSON line parser (JSONParser, Request.parse). Built and run by run.sh
// (`make fuzz`).
//
// Each input is parsed as it is, and again wrapped in a nesting depth chosen by its first byte (0...1020 levels of
// alternating arrays and objects), so deep nesting is reached at once rather than by slow mutation. Findings (traps):
// - a parse that takes more than 100 ms of CPU time (thread CPU time, so machine load cannot raise it: a
//   super-linear parse is a finding, as the 1 s parses of 511-deep objects were);
// - a value nested deeper than JSONParser.maxDepth that is not refused as too deep;
// - a parsed value that does not survive MessageEncoder and a second parse unchanged;
// - Request.parse disagreeing with JSONParser on whether the line is JSON (a number no Double holds is refused by both).
import ControlProtocol
import Foundation
import FuzzSupport

#if canImport(Glibc)
    import Glibc
#endif

/// The CPU time budget per parse.
private let budgetNanoseconds: Int64 = 100_000_000

private func threadCPUNanoseconds() -> Int64 {
    var t = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
    return Int64(t.tv_sec) * 1_000_000_000 + Int64(t.tv_nsec)
}

/// Parses `bytes`, trapping when it takes longer than the budget.
private func timedParse(_ bytes: [UInt8], _ what: String) -> Result<JSONValue, JSONParser.Failure> {
    let start = threadCPUNanoseconds()
    let result = Result { () throws(JSONParser.Failure) in try JSONParser.parse(bytes) }
    let spent = threadCPUNanoseconds() - start
    precondition(
        spent < budgetNanoseconds, "\(what): \(bytes.count) bytes took \(spent / 1_000_000) ms of CPU to parse")
    return result
}

private func depth(_ v: JSONValue) -> Int {
    switch v {
    case .array(let a): 1 + (a.map(depth).max() ?? 0)
    case .object(let o): 1 + (o.values.map(depth).max() ?? 0)
    default: 0
    }
}

private func check(_ bytes: [UInt8], _ what: String) {
    let result = timedParse(bytes, what)
    if case .success(let value) = result {
        precondition(depth(value) <= JSONParser.maxDepth, "\(what): a value deeper than the cap was accepted")
        let again = timedParse(Array(MessageEncoder.encode(value).utf8), what + " re-encoded")
        precondition(again == .success(value), "\(what): the value changed through MessageEncoder")
    }
    // Request.parse says "not valid JSON", "nested too deeply" or that a number is out of range (`1e400`) exactly
    // when the parser fails (for UTF-8 lines).
    guard String(validating: bytes, as: UTF8.self) != nil else { return }
    let start = threadCPUNanoseconds()
    let request = Result { () throws(Request.Failure) in try Request.parse(bytes) }
    precondition(threadCPUNanoseconds() - start < budgetNanoseconds, "\(what): Request.parse over budget")
    if case .failure(let f) = request {
        let notJSON =
            f.error.message.contains("not valid JSON") || f.error.message.contains("nested too deeply")
            || f.error.message.contains("is out of range: numbers must be finite")
        if case .success = result { precondition(!notJSON, "\(what): Request.parse refused JSON the parser read") }
        if case .failure = result {
            precondition(notJSON, "\(what): Request.parse did not say why: \(f.error.message)")
        }
    } else {
        guard case .success = result else { preconditionFailure("\(what): Request.parse read what is not JSON") }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    check(bytes, "input")
    guard let first = bytes.first else { return 0 }
    let levels = Int(first) * 4
    var wrapped: [UInt8] = []
    wrapped.reserveCapacity(size + levels * 6)
    for i in 0..<levels { wrapped += i % 2 == 0 ? Array("[".utf8) : Array(#"{"k":"#.utf8) }
    let inner = bytes.dropFirst()
    wrapped += inner.isEmpty ? Array("0".utf8) : Array(inner)
    for i in (0..<levels).reversed() { wrapped += i % 2 == 0 ? Array("]".utf8) : Array("}".utf8) }
    check(wrapped, "input nested \(levels) levels")
    if levels > JSONParser.maxDepth {
        let r = Result { () throws(JSONParser.Failure) in try JSONParser.parse(wrapped) }
        precondition(r == .failure(.tooDeep), "input nested \(levels) levels was not refused as too deep: \(r)")
    }
    return 0
}

/// The entry point SwiftPM links as `main` for this executable (Shared/FuzzerDriver.swift says why).
@_cdecl("parser_fuzz_main")
public func parserFuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in fuzz(data, size) }
}
