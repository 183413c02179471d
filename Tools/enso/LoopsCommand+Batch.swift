import AssetPipeline
import AudioCore
import CLISupport
import FileBatch
import Foundation

/// `loops verify` over a batch (``BatchRunner``): each file verified on one of `--jobs` threads, its row written as
/// a `--jsonl` line as it finishes, or kept to be listed in input order at the end.
extension LoopsCommand {
    /// The verdict on one file of the batch: a path that does not exist gets the `not-found` row
    /// ``LoopVerifier/expand(_:)`` gives it.
    static func verify(_ file: BatchFile, keepExcerpt: Bool, loopOption: LoopVerifier.LoopOption?)
        -> LoopVerifier.Result
    {
        if !FileManager.default.fileExists(atPath: file.path),
            let missing = LoopVerifier.expand([file.path]).errors.first
        {
            return missing
        }
        return LoopVerifier.verify(path: file.path, keepExcerpt: keepExcerpt, loopOption: loopOption)
    }

    /// The verdict on each of `files`, in their order; each finished file is reported to `bar`. Only the rows are
    /// held (and, for a report, each seam's excerpt).
    static func verifyInOrder(
        _ files: [BatchFile], keepExcerpts: Bool, loopOption: LoopVerifier.LoopOption?, plan: BatchOptions.Plan,
        bar: ProgressBar
    ) -> [LoopVerifier.Result] {
        var results: [LoopVerifier.Result] = []
        results.reserveCapacity(files.count)
        BatchRunner.run(
            count: files.count, jobs: plan.jobs, ordered: true,
            work: { i in verify(files[i], keepExcerpt: keepExcerpts, loopOption: loopOption) },
            deliver: { i, result in
                results.append(result)
                bar.advance(item: (files[i].path as NSString).lastPathComponent)
            })
        return results
    }

    /// `--jsonl`: each file's `--json` row as one line on stdout as soon as it is verified; files `--resume`'s
    /// results have rows for are skipped.
    ///
    /// - Returns: 2 when some file could not be read (its error row is written too), else 0.
    static func verifyRows(
        _ files: [BatchFile], loopOption: LoopVerifier.LoopOption?, plan: BatchOptions.Plan
    ) throws -> ExitCode {
        try plan.writeRows(files, label: "verifying") { file in
            let result = verify(file, keepExcerpt: false, loopOption: loopOption)
            return (LoopRow(result), result.verdict == .error ? (result.reasons.first ?? result.file) : nil)
        }
    }
}
