import AudioCore
import AudioFile
import CLISupport
import FileBatch
import Foundation
import SystemIO

/// The options every batch command shares (`bells audition`, `loops verify`): how many files at once, which part
/// of the batch, JSON Lines as files finish, resuming, progress (docs/scale.md).
enum BatchOptions {
    /// `--jobs N`: also `info`'s.
    static let jobs = Option<Int>(
        "jobs", range: 1...BatchRunner.maximumJobs, defaultDescription: "every core",
        help: "Files worked on at once.")
    /// `--progress MODE`: also `info`'s.
    static let progress = Option<String>(
        "progress", valueName: "MODE", choices: TimeProgress.Mode.allCases.map(\.rawValue),
        help: "bar (default: on a terminal, files done, rate, time left), json (lines on stderr), none.")
    static let jsonl = Flag(
        "jsonl", help: "Print one JSON object per file, as each finishes (unranked; docs/scale.md).")
    static let ordered = Flag(
        "ordered", help: "With --jsonl: print the rows in input order (sorted paths) instead of as they finish.")
    static let shard = Option<String>(
        "shard", valueName: "I/N",
        help: "Only the files of shard I of N (1-based: 1/N ... N/N), chosen by a hash of each file's relative path.")
    static let resume = Option<String>(
        "resume", valueName: "RESULTS",
        help: "With --jsonl: skip the files RESULTS (earlier --jsonl output) has rows for; append with >> RESULTS.")

    /// The options of a ranked view of all the rows (`bells audition`'s and `loops verify`'s, declared alike):
    /// with `--jsonl` the rows are read by `bells rank` or `loops report` instead.
    static let rankedViews: [OptionSpec] = [
        BellsOptions.json.spec, BellsOptions.csv.spec, BellsOptions.html.spec, BellsOptions.listen.spec,
        BellsOptions.top.spec,
    ]

    static let specs: [OptionSpec] = [
        jobs.spec, jsonl.spec, ordered.spec, shard.spec, resume.spec, progress.spec,
    ]

    /// `--jobs`, checked (default every core).
    ///
    /// - Throws: `UsageError` (exit 64) naming `--jobs` and its range.
    static func jobs(_ args: ParsedArguments) throws -> Int {
        try args.value(of: Self.jobs) ?? BatchRunner.defaultJobs
    }

    /// `--progress`, checked (default `bar`).
    ///
    /// - Throws: `UsageError` (exit 64) naming `--progress` and its choices.
    static func progress(_ args: ParsedArguments) throws -> TimeProgress.Mode {
        try args.value(of: Self.progress).flatMap(TimeProgress.Mode.init(rawValue:)) ?? .bar
    }

    /// What the batch options asked for, checked.
    struct Plan: Sendable {
        var jobs: Int
        var jsonl: Bool
        var ordered: Bool
        var shard: Shard?
        var resume: ResumeIndex
        var progress: TimeProgress.Mode
        /// What goes into each `--jsonl` row besides the command's own row.
        var command: String
        var settings: [String: String]

        /// The envelope of `file`'s row; `realPath` is ``BatchFile/realPath()``'s.
        func envelope(_ file: BatchFile, identity: ContentIdentity?, realPath: String?) -> ResultEnvelope {
            ResultEnvelope(
                command: command, enso: BatchOptions.version, settings: settings, root: file.root,
                relativePath: file.relativePath, identity: identity, realPath: realPath)
        }

        /// `files` without those of other shards.
        func selecting(_ files: [BatchFile]) -> [BatchFile] {
            guard let shard else { return files }
            return files.filter { shard.contains(relativePath: $0.relativePath) }
        }
    }

    /// The version in every row: `enso --version`'s number (`0.2.0`).
    static var version: String { String(ensoVersion.split(separator: " ").last ?? "") }

    /// Checks the batch options of `command` run with `settings` on `positionals`; reads `--resume`'s file.
    /// `reader` is the command that reads the rows (`enso bells rank`), named when `--jsonl` meets one of `views`,
    /// the command's options that show all the rows at the end.
    ///
    /// - Throws: `UsageError` (exit 64) naming the option: `--jobs` out of range, `--shard` not `I/N` with
    ///   1 ≤ I ≤ N, `--resume` or `--ordered` without `--jsonl`, `--resume` of rows made by another version or with
    ///   other settings, `-` (standard input: no path to shard or resume by) with `--jsonl`, `--shard` or
    ///   `--resume`; `CommandFailure` (exit 1) when `--resume`'s file cannot be read; `CommandFailure` (exit 2,
    ///   `no-audio-files`) naming a folder in `positionals` that holds no audio file (``refuseFoldersWithoutAudio(_:)``).
    static func parse(
        _ args: ParsedArguments, command: String, settings: [String: String], positionals: [String], reader: String,
        views: [OptionSpec] = rankedViews
    ) throws -> Plan {
        let jobs = try Self.jobs(args)
        let progress = try Self.progress(args)
        var shard: Shard?
        if let raw = try args.value(of: Self.shard) {
            guard let parsed = Shard(parsing: raw) else {
                throw UsageError(
                    "--shard: '\(raw)' is not I/N with 1 ≤ I ≤ N ≤ \(Shard.maximumCount) (shards are counted from 1: 1/4 ... 4/4)"
                )
            }
            shard = parsed
        }
        let jsonl = args[Self.jsonl]
        for view in views where jsonl && args.has(view) {
            throw UsageError("--jsonl and --\(view.name) cannot be combined (the rows are read by '\(reader)')")
        }
        if !jsonl {
            if args.has(Self.resume) { throw UsageError("--resume appends rows: it needs --jsonl") }
        }
        if (jsonl || shard != nil) && positionals.contains(where: { StandardStream.isStandard($0) }) {
            throw UsageError("'-' (standard input) has no path to shard or resume by: save it to a file first")
        }
        var resume = ResumeIndex()
        if let path = try args.value(of: Self.resume) {
            var folder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &folder) else {
                throw UsageError("--resume: \(path) does not exist (create it with the first run's '>> \(path)')")
            }
            guard !folder.boolValue else {
                throw UsageError("--resume: \(path) is a folder, not the results of an earlier --jsonl run")
            }
            do {
                resume = try ResumeIndex(
                    reading: path, command: command, enso: version, settings: settings,
                    decoder: { JSONOutput.decoder() }, warn: { Terminal.err("Warning: \($0)") })
            } catch let refusal as ResumeIndex.Refusal {
                throw UsageError("--resume: \(refusal.message)")
            } catch let error as EnsoError {
                throw CommandFailure(error.message, code: error.name, file: path)
            }
        }
        try refuseFoldersWithoutAudio(positionals)
        return Plan(
            jobs: jobs, jsonl: jsonl, ordered: args[Self.ordered], shard: shard, resume: resume, progress: progress,
            command: command, settings: settings)
    }

    /// The error code of a folder given that holds no audio file (docs/cli.md, "The error object").
    static let noAudioFilesCode = "no-audio-files"

    /// Refuses a folder among `paths` in which the walk finds no audio file (``BatchFile/foldersWithoutAudio(_:)``):
    /// an input problem, said before any file is read, not a row of a bad audio file. A mistyped or empty folder in a
    /// batch is what a CI job or a shard must not pass over.
    ///
    /// - Throws: `CommandFailure` (exit 2, code `no-audio-files`, or `permission-denied` and the like for a folder
    ///   that cannot be read) naming the first such folder and what it holds.
    static func refuseFoldersWithoutAudio(_ paths: [String]) throws {
        guard let empty = BatchFile.foldersWithoutAudio(paths).first else { return }
        if let code = empty.readError {
            let error = EnsoError(errno: code, "\(empty.folder): the folder cannot be read", path: empty.folder)
            throw CommandFailure(error.message, exitCode: .inputError, code: error.name, file: empty.folder)
        }
        let endings = AudioFileExtensions.table.map { "." + $0.ending }
        let kinds = endings.dropLast().joined(separator: ", ") + " or " + endings.last!
        let what =
            empty.otherFiles == 0
            ? "it holds no files"
            : "none of its \(empty.otherFiles == 1 ? "1 file" : "\(empty.otherFiles) files") ends in \(kinds)"
        throw CommandFailure(
            "\(empty.folder): the folder holds no audio files (\(what); folders are searched recursively)",
            exitCode: .inputError, code: noAudioFilesCode, file: empty.folder)
    }
}

/// Writes `--jsonl` rows to stdout, one `write(2)` a line (on a file opened with `O_APPEND`, as `>>` opens it, a
/// line is never split by another writer's, and a killed run leaves at most its last line torn).
enum RowOutput {
    /// Writes `bytes` (one line, its `\n` included) to stdout.
    ///
    /// - Throws: `CommandFailure` (exit 1) when stdout cannot take it (a full disk), naming the reason;
    ///   ``ExitCode/readerStopped`` when the reader of a pipe went away.
    static func write(_ bytes: [UInt8]) throws {
        let (written, code) = writeAll(STDOUT_FILENO, bytes)
        guard code != 0 || written < bytes.count else { return }
        if code == EPIPE { throw ExitCode.readerStopped }
        throw CommandFailure("cannot write the results to standard output: \(systemReason(code))")
    }
}
