import CLISupport
import FileBatch
import Foundation

/// One file's outcome in a `--jsonl` batch: its line, or nothing when `--resume`'s results already hold it.
enum BatchRow: Sendable {
    /// The row's line (its `\n` included), and the message for stderr when the row is an error.
    case line([UInt8], error: String?)
    case skipped
}

extension BatchOptions.Plan {
    /// `--jsonl`: `measure` runs on each file on `--jobs` threads (skipping a file whose identity `--resume`'s
    /// results already hold), and each row is written as one line on stdout as soon as its file is done, with one
    /// `write(2)`; an error row's message goes to stderr as `Error: MESSAGE`. What `bells audition` and `loops verify`
    /// do alike.
    ///
    /// - Parameters:
    ///   - label: the progress bar's word (`auditioning`).
    ///   - measure: a file's row and, when the row is an error, its message (naming the file).
    /// - Returns: 2 when some file's row is an error (its row is written too), else 0.
    func writeRows<Row: Encodable & Sendable>(
        _ files: [BatchFile], label: String, measure: @escaping @Sendable (BatchFile) -> (row: Row, error: String?)
    ) throws -> ExitCode {
        let bar = ProgressBar(total: files.count, label: label, mode: progress)
        defer { bar.finish() }
        if resume.endsInsideLine { try RowOutput.write([UInt8(ascii: "\n")]) }
        var unreadable = false
        let plan = self
        try BatchRunner.run(
            count: files.count, jobs: jobs, ordered: ordered,
            work: { i in
                let file = files[i]
                let identity = try? ContentIdentity.of(path: file.path)
                // One name for the file however its path is spelled: what a resume and a reader match rows by.
                let realPath = file.realPath()
                if let identity, plan.resume.contains(file, realPath: realPath, identity: identity) {
                    return BatchRow.skipped
                }
                let (row, error) = measure(file)
                let line = ResultLine(
                    envelope: plan.envelope(file, identity: identity, realPath: realPath), row: row)
                // A row always encodes (non-finite numbers are strings): a failure is a programmer error.
                return BatchRow.line(try! line.bytes(using: JSONOutput.encoder()), error: error)
            },
            deliver: { i, row in
                if case .line(let bytes, let error) = row {
                    if let error {
                        unreadable = true
                        Terminal.err("Error: \(error)")
                    }
                    try RowOutput.write(bytes)
                }
                bar.advance(item: (files[i].path as NSString).lastPathComponent)
            })
        return unreadable ? .inputError : .success
    }
}
