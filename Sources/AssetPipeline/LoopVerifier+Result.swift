import AudioCore
import AudioDSP
import AudioFile

extension LoopVerifier {
    /// The verdict on one file: its seam's (``SeamRules/Report/verdict``; a loop nothing could be measured on
    /// passes), `fail` for a damaged stream, or `error` when the file could not be judged. Encodes as its raw value.
    public enum Verdict: String, Sendable, Codable, CaseIterable {
        case pass, warn, fail, error

        /// Whether a file of this verdict fails the gate (`strict`: a warning fails too). Errors are counted
        /// separately.
        public func fails(strict: Bool) -> Bool { self == .fail || (strict && self == .warn) }

        /// The verdict of a seam.
        init(_ seam: SeamRules.Status) {
            switch seam {
            case .notApplicable, .pass: self = .pass
            case .warn: self = .warn
            case .fail: self = .fail
            }
        }
    }

    /// The verdict of one file, or why it could not be judged.
    public struct Result: Sendable {
        /// The file as given.
        public var file: String
        /// `pass`, `warn`, `fail` or `error` (unreadable file, loop that does not fit).
        public var verdict: Verdict
        /// The loop region judged; `nil` for an error.
        public var loop: LoopRegion?
        /// Where the loop region came from.
        public var source: LoopSource?
        /// The reasons in words, worst first (the error message for an error).
        public var reasons: [String]
        /// The seven metrics, worst first (empty for an error).
        public var metrics: [SeamRules.Metric]
        /// The error kind (`EnsoError` / `EnsoError` kind) for an error.
        public var errorKind: String?
        /// The file's sample rate (0 for an error).
        public var sampleRate: Int
        /// The audio around the seam, when asked for (HTML reports).
        public var excerpt: SeamExcerpt?
        /// The decoder stopped before the stream's stated end: judged as far as it decoded, and failed.
        public var truncated = false
        /// The texture's likeness signature (``LikenessSignature``, from the decoded file, rounded), nil for an error:
        /// what its near-duplicate group is found from (``LoopVerifier/grouped(_:)``).
        public var likeness: LikenessSignature?
        /// Its near-duplicate group in the batch (numbered from 1 in ``LoopVerifier/grouped(_:)``'s order); 0 before.
        public var group = 0
        /// Its place in its group: 1 for the best (the one `--unique` keeps).
        public var groupRank = 0

        init(
            file: String, report: SeamRules.Report, loop: LoopRegion, source: LoopSource, sampleRate: Int,
            excerpt: SeamExcerpt?
        ) {
            self.file = file
            self.verdict = Verdict(report.verdict)
            self.loop = loop
            self.source = source
            self.reasons = report.reasons
            self.metrics = report.metrics
            self.sampleRate = sampleRate
            self.excerpt = excerpt
        }

        init(file: String, failure message: String, kind: String) {
            self.file = file
            self.verdict = .error
            self.reasons = [message]
            self.metrics = []
            self.errorKind = kind
            self.sampleRate = 0
        }

        /// Marks the result as a damaged stream: verdict `fail`, the reason first.
        mutating func failDamaged(_ reason: String) {
            truncated = true
            verdict = .fail
            reasons.insert(reason, at: 0)
        }

        /// Whether this file fails the gate (`strict`: a warning fails too). Errors are counted separately.
        public func fails(strict: Bool) -> Bool { verdict.fails(strict: strict) }

        /// The JSON object of `--json`: `{"file", "verdict", "loop": {"start", "end"}, "loopSource", "reasons",
        /// "metrics": [{"name", "value", "threshold", "failThreshold", "unit", "ok", "status", "note"}], "error",
        /// "truncated"}`.
        public var json: JSONRow {
            JSONRow(
                file: file, verdict: verdict, loop: loop,
                loopSource: source?.rawValue, reasons: reasons,
                metrics: metrics.map {
                    JSONMetric(
                        name: $0.name.rawValue,
                        value: $0.value.flatMap { $0.isFinite ? ($0 * 10_000).rounded() / 10_000 : nil },
                        threshold: $0.threshold,
                        failThreshold: $0.failThreshold,
                        unit: $0.unit, ok: $0.ok, status: $0.status.rawValue, note: $0.note)
                },
                error: errorKind.map { RowError(code: $0, message: reasons.first ?? "", file: file) },
                truncated: truncated, group: group, groupRank: groupRank)
        }
    }

    /// One `--json` array element; `loop`, `loopSource` and `error` are `null` when absent, so every row has every
    /// key.
    public struct JSONRow: Codable, Sendable, Equatable {
        public var file: String
        public var verdict: Verdict
        @Nullable public var loop: LoopRegion?
        @Nullable public var loopSource: String?
        public var reasons: [String]
        public var metrics: [JSONMetric]
        @Nullable public var error: RowError?
        /// The stream ended before its stated end (a damaged file): judged as far as it decoded.
        public var truncated: Bool
        /// Its near-duplicate group and its place in it (1 = the best: pass before warn before fail, then the order
        /// given), docs/similarity.md.
        public var group: Int
        public var groupRank: Int

        public init(
            file: String, verdict: Verdict, loop: LoopRegion?, loopSource: String?, reasons: [String],
            metrics: [JSONMetric], error: RowError?, truncated: Bool = false, group: Int = 0, groupRank: Int = 0
        ) {
            (self.file, self.verdict, self.loop, self.loopSource) = (file, verdict, loop, loopSource)
            (self.reasons, self.metrics, self.error, self.truncated) = (reasons, metrics, error, truncated)
            (self.group, self.groupRank) = (group, groupRank)
        }

        enum CodingKeys: String, CodingKey {
            case file, verdict, loop, loopSource, reasons, metrics, error, truncated, group, groupRank
        }

        /// Decodes a row; `truncated`, `group` and `groupRank` may be absent (rows written before they existed).
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            file = try c.decode(String.self, forKey: .file)
            verdict = try c.decode(Verdict.self, forKey: .verdict)
            loop = try c.decodeIfPresent(LoopRegion.self, forKey: .loop)
            loopSource = try c.decodeIfPresent(String.self, forKey: .loopSource)
            reasons = try c.decode([String].self, forKey: .reasons)
            metrics = try c.decode([JSONMetric].self, forKey: .metrics)
            error = try c.decodeIfPresent(RowError.self, forKey: .error)
            truncated = try c.decodeIfPresent(Bool.self, forKey: .truncated) ?? false
            group = try c.decodeIfPresent(Int.self, forKey: .group) ?? 0
            groupRank = try c.decodeIfPresent(Int.self, forKey: .groupRank) ?? 0
        }
    }

    /// One metric in `--json`; `value` and `ok` are `null` when the metric could not be measured.
    public struct JSONMetric: Codable, Sendable, Equatable {
        public var name: String
        /// Rounded to 4 decimals.
        @Nullable public var value: Double?
        public var threshold: Double
        public var failThreshold: Double
        public var unit: String
        @Nullable public var ok: Bool?
        public var status: String
        public var note: String
    }
}
