import AssetPipeline
import AudioCore
import Foundation

@testable import AudioDSP

/// What the seam-metric suites share: a buffer judged as one whole loop, and a report on one line for the
/// messages of failed expectations.
enum SeamCheck {
    /// The seam metrics of `b` looped whole (its last frame wraps to its first).
    static func analyze(_ b: AudioBuffer) -> SeamRules.Report { SeamRules.judge(b, loop: 0..<b.frameCount) }

    /// `verdict: name=value [status], ...` for every metric (`n/a` where it could not be measured).
    static func describe(_ r: SeamRules.Report) -> String {
        let parts = r.metrics.map { m in
            "\(m.name.rawValue)=\(m.value.map { String(format: "%.3g", $0) } ?? "n/a") [\(m.status.rawValue)]"
        }
        return "\(r.verdict): " + parts.joined(separator: ", ")
    }
}
