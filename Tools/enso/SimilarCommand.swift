import AssetPipeline
import AudioDSP
import CLISupport
import FileBatch
import Foundation

/// `enso bells similar` and `enso loops similar`: candidates ranked by likeness to a reference, "I like this one;
/// which others are close" (docs/similarity.md).
enum SimilarCommand {
    /// `enso bells similar REF PATH...`.
    static let bells = command(kind: .struck, noun: "bell", search: "as 'bells audition' does")
    /// `enso loops similar REF PATH...`.
    static let loops = command(kind: .texture, noun: "loop or texture", search: "as 'loops verify' does")

    static func command(kind: LikenessSignature.Kind, noun: String, search: String) -> Command {
        Command(
            name: "similar",
            abstract: "Rank candidates by likeness to a reference \(noun) (directories are searched recursively).",
            discussion: """
                Each candidate's distance to REF is in just-noticeable differences at matched loudness: under 1, a
                near-duplicate (a listener would not tell them apart). Near-duplicates come first, then the rest, nearest
                first; each row names the cues that differ most. Directories are searched \(search); REF itself is
                not ranked. The cues and their thresholds: docs/similarity.md.
                """,
            arguments: [
                ArgumentSpec("reference", help: "The \(noun) to match."),
                ArgumentSpec("path", help: "Candidate files or directories.", variadic: true),
            ],
            options: [json.spec, top.spec],
            exitCodes: [
                ExitCodeMeaning(.success, "Ranked."),
                ExitCodeMeaning(
                    .inputError, "REF or some candidate could not be read or measured (the rest are still ranked)."),
                .usage,
            ],
            run: { args, _ in try run(args, kind: kind) })
    }

    static let json = Flag("json", help: "Print a JSON array with one object per candidate, nearest first.")
    /// The ranking's own limit, as `bells audition --top`'s.
    static let top = BellsOptions.top.help("Print only the N nearest candidates.")

    static func run(_ args: ParsedArguments, kind: LikenessSignature.Kind) throws -> ExitCode {
        AllocatorTuning.forBatchWork()
        guard args.positionals.count >= 2 else { throw UsageError("give a reference and at least one candidate") }
        let top = try args.value(of: Self.top)
        let reference = args.positionals[0]
        let inputs = Array(args.positionals.dropFirst())
        // The one folder walk: a missing path or a folder without audio stays in its place, and its decode gives its
        // error row.
        let refPath = URL(fileURLWithPath: reference).standardizedFileURL.path
        let files = BatchFile.expand(inputs).map(\.path).filter {
            URL(fileURLWithPath: $0).standardizedFileURL.path != refPath
        }
        let signature: LikenessSignature
        do { signature = try LikenessFile.signature(path: reference, kind: kind) } catch {
            throw CommandFailure(error, file: reference, exitCode: .inputError)
        }
        let bar = ProgressBar(total: files.count, label: "comparing")
        let rows = LikenessSearch.rank(reference: signature, candidates: files, kind: kind) { path in
            bar.advance(item: (path as NSString).lastPathComponent)
        }
        bar.finish()
        for r in rows { if let e = r.error { Terminal.err("Error: \(e.message)") } }
        let shown = Array(rows.prefix(top ?? rows.count))
        if args[json] {
            try JSONOutput.print(shown)
        } else {
            Terminal.out(table(shown, total: rows))
        }
        return rows.contains { $0.error != nil } ? .inputError : .success
    }

    /// The aligned table: rank, file, distance, near-duplicate, and the cues that differ most.
    static func table(_ shown: [LikenessSearch.Row], total: [LikenessSearch.Row]) -> String {
        var t = TextTable(
            headers: ["#", "FILE", "DISTANCE", "NEAR-DUPLICATE", "DIFFERS MOST"],
            alignments: [.right, .left, .right, .left, .left])
        for r in shown {
            let cues = r.components.map { c in
                "\(c.name) \(String(format: "%.1f", c.difference)) \(c.unit) (\(String(format: "%.1f", c.jnds)) JND)"
            }
            t.append([
                String(r.rank), r.file, r.distance.map { String(format: "%.2f", $0) } ?? "-",
                r.nearDuplicate.map { $0 ? "yes" : "no" } ?? "-",
                r.error?.message ?? cues.joined(separator: ", "),
            ])
        }
        let near = total.filter { $0.nearDuplicate == true }.count
        let errors = total.filter { $0.error != nil }.count
        return t.render()
            + "\n\(total.count) candidate\(total.count == 1 ? "" : "s"): \(near) near-duplicate\(near == 1 ? "" : "s")"
            + (errors > 0 ? ", \(errors) unreadable" : "")
    }
}
