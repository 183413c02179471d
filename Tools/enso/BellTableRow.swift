import AssetPipeline
import Foundation

/// A `bells audition` row as the table, the stderr error lines and the exit code read it: a few hundred bytes,
/// where the whole row (``BellAuditionResult``, with every defect's evidence, the score's terms and every
/// measurement) is tens of kilobytes in memory. `bells audition` makes it from its results; `bells rank` decodes
/// only these keys of each results line (and reads the whole line again only for `--json` and `--csv`).
struct BellTableRow: Sendable {
    var file: String
    var verdict: BellAuditionVerdict
    var bellClass: BellClass?
    var score: Double?
    var defects: [BellDefect.Kind]
    /// The first reason: what decided the verdict (the table's WHY).
    var why: String?
    /// `metrics.loudness.integrated`, LUFS.
    var integrated: Double?
    /// `metrics.decay40` (``BellAuditionMetrics/decay40``), seconds.
    var decay40: Double?
    /// `metrics.attack`, seconds.
    var attack: Double?
    /// `error.message` of an `error` row.
    var errorMessage: String?
    var rank = 0
    var group = 0
    var groupRank = 0

    init(_ r: BellAuditionResult) {
        file = r.file
        verdict = r.verdict
        bellClass = r.bellClass
        score = r.score
        defects = r.defects
        why = r.reasons.first
        integrated = r.metrics?.loudness.integrated
        decay40 = r.metrics?.decay40
        attack = r.metrics?.attack
        errorMessage = r.error?.message
        (rank, group, groupRank) = (r.rank, r.group, r.groupRank)
    }

    /// The line on stderr for an `error` row: its message, naming the file.
    var errorLine: String {
        let message = errorMessage ?? "cannot audition"
        // Decoding errors name the file already.
        return "Error: \(message.hasPrefix(file + ":") ? message : "\(file): \(message)")"
    }
}

extension BellTableRow: Decodable {
    /// The keys read: the table's, and `likeness` for ``BellRankRow`` (one container for both: JSONDecoder indexes
    /// a line's keys once per container).
    enum CodingKeys: String, CodingKey {
        case file, bellClass = "class", verdict, score, defects, reasons, metrics, error, rank, group, groupRank
        case likeness
    }

    enum MetricsKeys: String, CodingKey { case loudness, d40, d40Extrapolated, attack }
    enum LoudnessKeys: String, CodingKey { case integrated }
    enum ErrorKeys: String, CodingKey { case message }

    /// Reads only the keys the table reads from a row as `bells audition --json` writes it (docs/bells.md), and
    /// the rank and group keys every row has (a row of an older Enso without them is not a row); the rest of the
    /// line is skipped, not built.
    init(from decoder: any Decoder) throws {
        try self.init(decoder.container(keyedBy: CodingKeys.self))
    }

    /// Reads the table's keys from the row's container `c`; without `cells` (`bells rank --json` or `--csv`, which
    /// print whole rows read again), only the sort keys, the error's message and the rank and group keys.
    init(_ c: KeyedDecodingContainer<CodingKeys>, cells: Bool = true) throws {
        file = try c.decode(String.self, forKey: .file)
        verdict = try c.decode(BellAuditionVerdict.self, forKey: .verdict)
        score = try c.decodeIfPresent(Double.self, forKey: .score)
        if !cells {
            (bellClass, defects, why, integrated, decay40, attack) = (nil, [], nil, nil, nil, nil)
        } else if try c.decodeNil(forKey: .metrics) {
            bellClass = try c.decodeIfPresent(BellClass.self, forKey: .bellClass)
            defects = try c.decode([BellDefect.Kind].self, forKey: .defects)
            why = try c.decode([String].self, forKey: .reasons).first
            (integrated, decay40, attack) = (nil, nil, nil)
        } else {
            bellClass = try c.decodeIfPresent(BellClass.self, forKey: .bellClass)
            defects = try c.decode([BellDefect.Kind].self, forKey: .defects)
            why = try c.decode([String].self, forKey: .reasons).first
            let m = try c.nestedContainer(keyedBy: MetricsKeys.self, forKey: .metrics)
            integrated = try m.nestedContainer(keyedBy: LoudnessKeys.self, forKey: .loudness)
                .decodeIfPresent(Double.self, forKey: .integrated)
            // As ``BellAuditionMetrics/decay40``: as measured, else extrapolated.
            decay40 =
                try m.decodeIfPresent(Double.self, forKey: .d40)
                ?? m.decodeIfPresent(Double.self, forKey: .d40Extrapolated)
            attack = try m.decode(Double.self, forKey: .attack)
        }
        errorMessage =
            try c.decodeNil(forKey: .error)
            ? nil : c.nestedContainer(keyedBy: ErrorKeys.self, forKey: .error).decode(String.self, forKey: .message)
        rank = try c.decode(Int.self, forKey: .rank)
        group = try c.decode(Int.self, forKey: .group)
        groupRank = try c.decode(Int.self, forKey: .groupRank)
    }
}
