import Foundation

/// A measured figure printed beside the limit it was judged against, never rounded across that limit: "falls 20 dB
/// in 3.00 s (must ring at least 3 s)" for 2.996 s would contradict its own verdict. The figure is given with
/// `decimals` places, or as many more (up to 4) as it takes to fall on its verdict's side; at 4 places it is cut
/// toward that side.
///
/// - Thread safety: pure functions; any thread.
public enum RuleFigure {
    /// `value` with `decimals` places, as `%.Nf` prints it, but without the sign of a value that prints as zero
    /// ("0.0", never "-0.0": a peak of 0.99997 is at 0.0 dBFS, a seam 0.04 dB under its reference level with it).
    package static func fixed(_ value: Double, decimals: Int) -> String {
        let text = String(format: "%.\(decimals)f", value)
        guard text.hasPrefix("-"), text.dropFirst().allSatisfy({ $0 == "0" || $0 == "." }) else { return text }
        return String(text.dropFirst())
    }

    /// `value` as text on the side of `limit` its verdict is on.
    ///
    /// - Parameters:
    ///   - passes: whether `value` passed the rule.
    ///   - passesAbove: the rule passes at or above `limit` (a minimum) rather than at or below it (a maximum).
    public static func text(_ value: Double, limit: Double, passes: Bool, passesAbove: Bool, decimals: Int = 2)
        -> String
    {
        guard value.isFinite else { return String(format: "%.\(decimals)f", value) }
        // The side of the limit the printed figure must read on (the limit itself reads as passing).
        func consistent(_ shown: Double) -> Bool {
            let passesShown = passesAbove ? shown >= limit : shown <= limit
            return passesShown == passes
        }
        for places in decimals...4 {
            let text = String(format: "%.\(places)f", value)
            if consistent(Double(text) ?? value) { return text }
        }
        let scale = 10_000.0
        let failsUp = passes == passesAbove  // passing above, or failing below a maximum: cut upward
        let cut = failsUp ? (value * scale).rounded(.up) / scale : (value * scale).rounded(.down) / scale
        return String(format: "%.4f", cut)
    }
}
