import AssetPipeline
import AssetReports
import AudioCore
import CLISupport
import FileBatch
import Foundation

/// `bells audition` over a batch (``BatchRunner``): each file auditioned on one of `--jobs` threads, its row written
/// as a `--jsonl` line as it finishes, or kept (a small row, and a report's sketch when one is asked for) to be
/// ranked at the end.
extension BellsCommand {
    /// The row of each file in `files`, with what `keeping` made of its analysis, ranked; each finished file is
    /// reported to `bar`.
    static func auditionRanked(
        _ files: [BatchFile], profile: BellProfile, forPack: Bool, plan: BatchOptions.Plan, bar: ProgressBar,
        keeping: @escaping @Sendable (BellAnalysis) -> BellReport.Sketch?
    ) -> [(result: BellAuditionResult, kept: BellReport.Sketch?)] {
        var all: [(result: BellAuditionResult, kept: BellReport.Sketch?)] = []
        all.reserveCapacity(files.count)
        BatchRunner.run(
            count: files.count, jobs: plan.jobs, ordered: false,
            work: { i in
                let analysis = BellAudition.analyseFile(files[i].path, profile: profile, forPack: forPack)
                return (result: analysis.result, kept: keeping(analysis))
            },
            deliver: { i, entry in
                all.append(entry)
                bar.advance(item: (files[i].path as NSString).lastPathComponent)
            })
        // Ranking sorts the rows; each takes its own kept value back (a path given twice has two rows).
        var byFile: [String: [BellReport.Sketch?]] = [:]
        for (r, k) in all { byFile[r.file, default: []].append(k) }
        return BellAuditionResult.ranked(all.map(\.result)).map { r in (r, byFile[r.file]!.removeFirst()) }
    }

    /// `--jsonl`: each file's row (unranked: `rank` 0) as one line on stdout as soon as it is auditioned; files
    /// `--resume`'s results have rows for are skipped.
    ///
    /// - Returns: 2 when some file could not be auditioned (its error row is written too), else 0: verdicts are
    ///   ranked later, by `enso bells rank`, whose exit code says whether some candidate passes.
    static func auditionRows(
        _ files: [BatchFile], profile: BellProfile, forPack: Bool, plan: BatchOptions.Plan
    ) throws -> ExitCode {
        try plan.writeRows(files, label: "auditioning") { file in
            let result = BellAudition.analyseFile(file.path, profile: profile, forPack: forPack).result
            guard result.verdict == .error else { return (result, nil) }
            let message = result.error?.message ?? "cannot audition"
            // Decoding errors name the file already.
            return (result, message.hasPrefix(file.path + ":") ? message : "\(file.path): \(message)")
        }
    }
}
