/// A number as Enso's messages write it for people: `3`, `0.5`, `9e+15`.
///
/// One spelling for every number a message quotes, so the same kind of number never reads two ways: whole numbers
/// below 10^15 without a trailing `.0` (`86400`, `-3`); every number from 10^15 up in exponent form with its shortest
/// digits (`9e+15`, `1.5e+20`, `1e+308`; Swift's own text wrote `9000000000000000.0` below 10^16 and `1e+16` from
/// there, so `sitting 9000000000000000.0 s` and `sitting 1e+308 s` came from one check); others as Swift writes them,
/// shortest digits that read back to the same value (`0.5`, `21.575`, `1e-07`); `inf`, `-inf` and `nan`.
///
/// It is the text of AudioEngine's plan messages (`sitting 9e+15 s is outside 1 s ... 24 h (86400 s)`), of the
/// protocol's range messages, of the journal's CSV numbers and of the CLI's own options (`--sit 9e15`,
/// `--checkpoint-interval 9e15`): it lives here, with the one shape of the JSON text, because every module that
/// writes text for people can import this one (stdlib only), CLISupport too, which imports nothing else of ours.
///
/// - Thread safety: stateless; any thread.
/// - Real-time safe: no (builds a `String`).
public enum NumberText {
    /// The magnitude from which a number is written in exponent form.
    public static let exponentFrom = 1e15

    /// `v` as messages write it (see the type's notes).
    public static func plain(_ v: Double) -> String {
        guard v.isFinite else { return String(v) }
        if v.magnitude < exponentFrom { return v == v.rounded() ? String(Int64(v)) : String(v) }
        let text = String(v.magnitude)
        let sign = v < 0 ? "-" : ""
        if text.contains("e") { return sign + text }
        // Swift writes 10^15 ..< 10^16 positionally ("9000000000000000.0"): the same digits in exponent form.
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let whole = parts[0]
        var digits = Array(whole + (parts.count > 1 ? parts[1] : ""))
        while digits.count > 1, digits.last == "0" { digits.removeLast() }
        let mantissa = String(digits[0]) + (digits.count > 1 ? "." + String(digits[1...]) : "")
        return "\(sign)\(mantissa)e+\(whole.count - 1)"
    }
}
