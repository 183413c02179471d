import Foundation

/// How the commands that remove DC (`bells trim|normalize`, `loops bake`) say what they removed.
enum DCOffsetText {
    /// "a DC offset at −74 dBFS": the largest channel's offset (a mean of full scale 1), or `nil` when every channel's
    /// mean was exactly 0. In dBFS so a curator sees at once whether it was one worth removing.
    static func removed(_ offsets: [Double]) -> String? {
        let largest = offsets.map(abs).max() ?? 0
        return largest > 0 ? String(format: "a DC offset at %.0f dBFS", 20 * log10(largest)) : nil
    }
}
