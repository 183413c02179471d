import AudioCore
import CLISupport
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
        let journal = SessionJournal(
            path: try args.value(of: SessionsCommand.journalFile) ?? SessionJournal.defaultPath())
        recover(journal)
        return journal
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
