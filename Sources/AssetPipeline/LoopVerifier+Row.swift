import AudioDSP
import Foundation

extension LoopVerifier.Result {
    /// The result a `loops verify --jsonl` row stands for, as `enso loops report --html` draws it: every judged
    /// field of the row (each metric's direction from its name, ``SeamRules/rule(_:)``; its status as the
    /// row says), its sample rate and signature; no seam excerpt (a row carries none). A metric of a name this
    /// version does not know is left out.
    public init(row: LoopVerifier.JSONRow, sampleRate: Int, likeness: LikenessSignature?) {
        self.init(file: row.file, failure: "", kind: "")
        verdict = row.verdict
        loop = row.loop
        source = row.loopSource.flatMap(LoopVerifier.LoopSource.init(rawValue:))
        reasons = row.reasons
        errorKind = row.error?.code
        self.sampleRate = sampleRate
        truncated = row.truncated
        self.likeness = likeness
        (group, groupRank) = (row.group, row.groupRank)
        metrics = row.metrics.compactMap { m in
            guard let name = SeamMetrics.Name(rawValue: m.name) else { return nil }
            var metric = SeamRules.Metric(
                name: name, value: m.value, threshold: m.threshold, failThreshold: m.failThreshold,
                direction: SeamRules.rule(name).direction, unit: m.unit, note: m.note)
            if let status = SeamRules.Status(rawValue: m.status) { metric.status = status }
            return metric
        }
    }
}
