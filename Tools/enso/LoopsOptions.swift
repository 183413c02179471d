import CLISupport

/// The options of `loops verify` and `loops report`, declared once (docs/cli.md, "Declaring options"): the commands
/// list their `spec`s and read them back through these values.
enum LoopsOptions {
    static let json = Flag("json", help: "Print a JSON array with one object per file.")
    static let csv = Flag("csv", help: "Print CSV: one row per file, one column per metric.")
    static let unique = Flag(
        "unique", help: "Print only the best of each group of near-duplicate textures (docs/similarity.md).")
    static let strict = Flag("strict", help: "Count a warning as a failure.")
    static let loop = Option<String>(
        "loop", valueName: "START:END",
        help:
            "Judge this loop instead of the file's own (frames, or seconds with s or ms: 0.5s:2.25s, 500ms:2s); "
            + "nothing is written.")
    static let html = Option<String>(
        "html", valueName: "REPORT", help: "Also write a self-contained HTML report to REPORT.")
    static let listen = Flag(
        "listen", help: "Then play each file's seam (its last seconds into its first) on the output.")
    /// Half a second is the shortest stretch in which a click or a jump in the texture is heard; past half a minute
    /// the ear has forgotten what came before the seam.
    static let listenSeconds = Option<Double>(
        "listen-seconds", valueName: "SECONDS", range: 0.5...30, default: 3,
        help: "With --listen: seconds each side of the seam.")
    /// A thousand plays is more than anyone listens to one seam; the bound keeps a typo from meaning "for ever".
    static let repeats = Option<Int>(
        "repeat", range: 1...1_000, default: 3, help: "With --listen: how many times each seam plays.")

    /// The exit codes `loops verify` and `loops report` share; `jsonl`: the command writes rows with `--jsonl`.
    static func exitCodes(unreadable: String, jsonl: Bool) -> [ExitCodeMeaning] {
        [
            ExitCodeMeaning(.success, "Every file passes" + (jsonl ? "; with --jsonl, every row written." : ".")),
            ExitCodeMeaning(
                .failure,
                "Some file fails (or warns, with --strict)"
                    + (jsonl ? "; with --jsonl, the rows could not be written (a full disk)." : ".")),
            ExitCodeMeaning(.inputError, unreadable),
            .usage,
        ]
    }

    // `loops find` and `loops bake`.
    static let minLength = Option<Double>.duration(
        "min-length",
        help: "Shortest loop (default 1 s, or half of what the sustain leaves or of --max-length if shorter).")
    static let maxLength = Option<Double>.duration("max-length", help: "Longest loop (default: the whole file).")
    static let crossfade = Option<Double>.duration(
        "crossfade", help: "Material needed after the loop end for a later bake (default 0).")
    static let keepStart = Flag("keep-start", help: "Start the loop where the sustain starts (the default).")
    static let freeStart = Flag("free-start", help: "Let the loop start anywhere in the sustain.")
    static let candidates = Option<Int>(
        "top", valueName: "K", range: 1...50, default: 5, help: "How many candidates to list.")
    static let write = Flag(
        "write",
        help:
            "Store the best loop: in the smpl chunk of a 16/24-bit PCM or float WAV (rewritten, samples bit-exact), "
            + "else in FILE.loop.json (other formats, and 8/32-bit PCM or 64-bit float WAVs, which a rewrite would change)."
    )
}
