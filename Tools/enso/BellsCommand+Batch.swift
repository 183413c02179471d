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
        let bar = ProgressBar(total: files.count, label: "auditioning", mode: plan.progress)
        defer { bar.finish() }
        if plan.resume.endsInsideLine { try RowOutput.write([UInt8(ascii: "\n")]) }
        var unreadable = false
        try BatchRunner.run(
            count: files.count, jobs: plan.jobs, ordered: plan.ordered,
            work: { i in
                let file = files[i]
                let identity = try? ContentIdentity.of(path: file.path)
                if let identity, plan.resume.contains(file, identity: identity) { return BatchRow.skipped }
                let result = BellAudition.analyseFile(file.path, profile: profile, forPack: forPack).result
                let line = ResultLine(envelope: plan.envelope(file, identity: identity), row: result)
                let error = result.verdict == .error ? (result.error?.message ?? "cannot audition") : nil
                // A row always encodes (non-finite numbers are strings): a failure is a programmer error.
                return BatchRow.line(try! line.bytes(using: JSONOutput.encoder()), error: error)
            },
            deliver: { i, row in
                if case .line(let bytes, let error) = row {
                    if let error {
                        unreadable = true
                        let file = files[i].path
                        // Decoding errors name the file already.
                        Terminal.err("Error: \(error.hasPrefix(file + ":") ? error : "\(file): \(error)")")
                    }
                    try RowOutput.write(bytes)
                }
                bar.advance(item: (files[i].path as NSString).lastPathComponent)
            })
        return unreadable ? .inputError : .success
    }
}

/// What a `--jsonl` worker hands the writer: a row's line (and its error, for stderr), or a file `--resume` skips.
enum BatchRow: Sendable {
    case line([UInt8], error: String?)
    case skipped
}
