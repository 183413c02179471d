import AudioCore
import CLISupport
import Foundation
import PlaybackService

/// Where `enso play` and `enso serve` record sittings: `--journal FILE` (default `$XDG_DATA_HOME/enso/sessions.jsonl`),
/// or, for `play`, nowhere with `--no-journal`.
enum JournalOptions {
    /// `play`'s options: the journal, or none.
    static let specs: [OptionSpec] = [
        SessionsCommand.journalOption, noJournal.spec,
    ]
    static let noJournal = Flag("no-journal", help: "Do not record the sitting in the journal.")

    /// The journal the options name (`nil` with `--no-journal`); sittings left by a process that died are first
    /// recovered into it as `interrupted`, as `enso serve` does at its start.
    ///
    /// - Throws: `UsageError` (exit 64) for `--journal` with `--no-journal`.
    static func journal(_ args: ParsedArguments) throws -> SessionJournal? {
        if args[noJournal] {
            guard !args.has(SessionsCommand.journalFile) else {
                throw UsageError("give one of --journal and --no-journal")
            }
            return nil
        }
        let journal = try named(args)
        recover(journal)
        return journal
    }

    /// The exit code of every command that takes `--journal`, for a journal in a folder that does not exist.
    static let missingFolder = ExitCodeMeaning(
        .inputError, "--journal names a file in a folder that does not exist.")

    /// The journal `--journal` names, else the default (`$XDG_DATA_HOME/enso/sessions.jsonl`): for every command that
    /// takes `--journal` (`serve`, `play`, `sessions list|export|stats|mark-synced`).
    ///
    /// A named journal whose folder does not exist is refused before anything is read or written: a mistyped path is
    /// not an empty journal, nor a new one to create folders for (`serve --journal /nonexistent/dir/s.jsonl` made the
    /// folders and journaled there). Only the default location's folders are made, by the journal on its first write
    /// (also when `--journal` names that location). A journal not written yet, in a folder that exists, is empty.
    ///
    /// - Throws: `CommandFailure` (exit 2, `not-found`) naming the file and the folder.
    static func named(_ args: ParsedArguments) throws -> SessionJournal {
        let defaultPath = SessionJournal.defaultPath()
        guard let path = try args.value(of: SessionsCommand.journalFile) else {
            return SessionJournal(path: defaultPath)
        }
        let folder = (path as NSString).deletingLastPathComponent
        // Only a folder that is not there: one that is a file is a journal that cannot be written or read, which the
        // journal itself reports (exit 1, naming the path).
        if !folder.isEmpty && (path as NSString).standardizingPath != (defaultPath as NSString).standardizingPath
            && !FileManager.default.fileExists(atPath: folder)
        {
            throw CommandFailure(
                "\(path): the journal's folder '\(folder)' does not exist (a mistyped path is not a new journal: "
                    + "create the folder first)",
                exitCode: .inputError, code: "not-found", file: path)
        }
        return SessionJournal(path: path)
    }

    /// Appends the sittings of processes that died as `interrupted`, saying so on stderr; trouble is a warning.
    static func recover(_ journal: SessionJournal) {
        switch Result(catching: { () throws(EnsoError) in try journal.recoverInterruptedReporting() }) {
        case .success(let (records, warnings)):
            for w in warnings { Terminal.err("Warning: \(w)") }
            for r in records {
                Terminal.err(
                    "recovered \(r.outcome.rawValue) session \(r.id) (\(DurationParser.format(r.satSeconds)) sat)")
            }
        case .failure(let e):
            Terminal.err("Warning: \(e.message)")
        }
    }
}
