import AudioCore
import CLISupport
import ControlProtocol
import Foundation
import PlaybackService

/// `enso sessions list|export|mark-synced|stats`: the session journal.
enum SessionsCommand {
    static let journalFile = Option<String>(
        "journal", valueName: "FILE", help: "The journal (default $XDG_DATA_HOME/enso/sessions.jsonl).")

    static let journalOption = journalFile.spec

    static let listJSON = Flag("json", help: "Print a JSON array of the records (docs/protocol.md).")
    static let exportCSV = Flag("csv", help: "CSV with a header line.")
    static let exportJSON = Flag("json", help: "A JSON array.")
    static let statsJSON = Flag("json", help: "Print the figures as JSON.")

    /// Said by every command that reads the journal.
    static let recovery = "Sessions whose server died (kill -9, power loss) are first recovered as 'interrupted'."

    /// The exit codes of the commands that read the journal (`list`, `export`, `stats`).
    static let readingExitCodes = [
        ExitCodeMeaning(.success, "Success."), ExitCodeMeaning(.failure, "The journal could not be read or written."),
        JournalOptions.missingFolder, .usage,
    ]

    static let command = Command(
        name: "sessions",
        abstract: "List, export, mark synced and summarise the session journal.",
        subcommands: [list, export, markSynced, stats])

    static let list = Command(
        name: "list", abstract: "List the recorded sessions, oldest first.", discussion: recovery,
        options: [journalOption, listJSON.spec],
        exitCodes: readingExitCodes,
        run: { args, _ in
            let records = try load(args)
            if args[listJSON] {
                try JSONOutput.print(records)
                return .success
            }
            if records.isEmpty {
                Terminal.out("No sessions recorded in \(try journal(args).path).")
                return .success
            }
            var table = TextTable(
                headers: ["ID", "START", "SAT", "PLANNED", "CYCLES", "OUTCOME", "BELL", "THEME", "SYNCED"],
                alignments: [.left, .left, .right, .right, .right, .left, .left, .left, .left])
            for r in records {
                table.append([
                    r.id, r.start, DurationParser.format(r.satSeconds),
                    r.plannedSeconds.map { DurationParser.format($0) } ?? "open", String(r.cyclesCompleted),
                    r.outcome.rawValue, r.bell, r.theme ?? "none", r.syncedToHealth ? "yes" : "no",
                ])
            }
            Terminal.out(table.render())
            return .success
        })

    static let export = Command(
        name: "export", abstract: "Export every session, oldest first, as CSV or JSON to stdout.", discussion: recovery,
        options: [journalOption, exportCSV.spec, exportJSON.spec],
        exitCodes: readingExitCodes,
        run: { args, _ in
            guard args[exportCSV] != args[exportJSON] else {
                throw UsageError("give exactly one of --csv and --json")
            }
            let records = try load(args)
            if args[exportJSON] {
                try JSONOutput.print(records)
            } else {
                var table = CSVTable(headers: JournalExport.csvColumns)
                for r in records { table.append(JournalExport.cells(r)) }
                Terminal.out(table.render())
            }
            return .success
        })

    static let markSynced = Command(
        name: "mark-synced", abstract: "Mark sessions as written to a health store.",
        discussion: """
            The journal is rewritten atomically. Ids not in the journal are reported and give exit code 1
            (the others are still marked).
            """,
        arguments: [ArgumentSpec("id", help: "Session ids (from 'enso sessions list').", variadic: true)],
        options: [journalOption],
        exitCodes: [
            ExitCodeMeaning(.success, "Every id was marked."),
            ExitCodeMeaning(.failure, "An id was not found or the journal could not be written."),
            JournalOptions.missingFolder, .usage,
        ],
        run: { args, _ in
            guard !args.positionals.isEmpty else { throw UsageError("give at least one session id") }
            let j = try journal(args)
            try recover(j)
            let result: (found: [String], missing: [String])
            do { result = try j.markSynced(args.positionals) } catch let e as EnsoError {
                throw CommandFailure(e.message, code: e.name, file: j.path)
            }
            for id in result.found { Terminal.out("marked \(id)") }
            for id in result.missing { Terminal.err("Error: no session \(id) in \(j.path)") }
            return result.missing.isEmpty ? .success : .failure
        })

    static let stats = Command(
        name: "stats", abstract: "Total sat time per day and week, sessions, longest sitting.",
        discussion: "Plain figures in the local time zone; no scores. " + recovery,
        options: [journalOption, statsJSON.spec],
        exitCodes: readingExitCodes,
        run: { args, _ in
            let s = JournalStatistics(records: try load(args))
            if args[statsJSON] {
                try JSONOutput.print(StatsJSON(s))
                return .success
            }
            if s.sessions == 0 {
                Terminal.out("No sessions recorded in \(try journal(args).path).")
                return .success
            }
            var lines = [
                "sessions  \(s.sessions)",
                "total     \(DurationParser.format(s.totalSatSeconds))",
                "longest   " + (s.longest.map { "\(DurationParser.format($0.satSeconds)) (\($0.start))" } ?? "none"),
                "unsynced  \(s.unsynced)",
            ]
            for (title, periods) in [("per day", s.days), ("per week", s.weeks)] where !periods.isEmpty {
                lines.append(title)
                for p in periods {
                    lines.append(
                        "  \(p.label)  \(DurationParser.format(p.satSeconds))  \(p.sessions) session\(p.sessions == 1 ? "" : "s")"
                    )
                }
            }
            Terminal.out(lines.joined(separator: "\n"))
            return .success
        })

    /// The `stats --json` object: `{sessions, totalSatSeconds, longestSatSeconds, longestId, unsynced, days, weeks}`,
    /// each period `{label, sessions, satSeconds}`; the longest sitting's figures are `null` without sessions.
    struct StatsJSON: Encodable {
        var sessions: Int
        var totalSatSeconds: Double
        @Nullable var longestSatSeconds: Double?
        @Nullable var longestId: String?
        var unsynced: Int
        var days: [JournalStatistics.Period]
        var weeks: [JournalStatistics.Period]

        init(_ s: JournalStatistics) {
            (sessions, totalSatSeconds, unsynced) = (s.sessions, s.totalSatSeconds, s.unsynced)
            longestSatSeconds = s.longest?.satSeconds
            longestId = s.longest?.id
            (days, weeks) = (s.days, s.weeks)
        }
    }

    /// The journal `--journal` names, else the default (``JournalOptions/named(_:)``).
    ///
    /// - Throws: `CommandFailure` (exit 2, `not-found`) when `--journal` names a file in a folder that does not
    ///   exist: a mistyped path, not an empty journal (a journal not written yet, in a folder that exists, is one).
    static func journal(_ args: ParsedArguments) throws -> SessionJournal { try JournalOptions.named(args) }

    /// Recovers crashed sessions, then reads the journal, printing warnings about skipped lines.
    ///
    /// - Throws: `CommandFailure` as ``journal(_:)``; when the journal cannot be read.
    static func load(_ args: ParsedArguments) throws -> [SessionRecord] {
        let j = try journal(args)
        try recover(j)
        do {
            let contents = try j.read()
            for w in contents.warnings { Terminal.err("Warning: \(w)") }
            return byStart(contents.records)
        } catch { throw CommandFailure(error.message, code: error.name, file: j.path) }
    }

    /// `records` oldest first by their start, not in the order they were appended: two servers (or a `play` beside
    /// a `serve`) sharing one journal append each sitting when it ends, so a long sitting follows a short one begun
    /// after it. Equal starts keep the journal's order; a start that does not parse sorts by its text.
    static func byStart(_ records: [SessionRecord]) -> [SessionRecord] {
        records.enumerated().sorted {
            let (a, b) = (ProtocolTime.parse($0.element.start), ProtocolTime.parse($1.element.start))
            if let a, let b, a != b { return a < b }
            if a == nil || b == nil, $0.element.start != $1.element.start { return $0.element.start < $1.element.start }
            return $0.offset < $1.offset
        }.map(\.element)
    }

    static func recover(_ j: SessionJournal) throws {
        do {
            let (recovered, warnings) = try j.recoverInterruptedReporting()
            for w in warnings { Terminal.err("Warning: \(w)") }
            for r in recovered {
                Terminal.err(
                    "recovered \(r.outcome.rawValue) session \(r.id) (\(DurationParser.format(r.satSeconds)) sat)")
            }
        } catch { throw CommandFailure(error.message, code: error.name, file: j.path) }
    }
}
