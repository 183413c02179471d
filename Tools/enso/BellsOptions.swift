import AssetPipeline
import CLISupport
import JSONText

/// The options of `bells audition` and `bells rank`, declared once (docs/cli.md, "Declaring options"): the commands
/// list their `spec`s and read them back through these values.
enum BellsOptions {
    static let json = Flag("json", help: "Print a JSON array with one object per file, in rank order.")
    static let csv = Flag("csv", help: "Print CSV: one row per file, in rank order.")
    /// More rows than a listener compares by ear, or a report shows, in one sitting.
    static let top = Option<Int>("top", range: 1...10_000, help: "Print only the N best-ranked files.")
    static let unique = Flag(
        "unique",
        help: "Print only the best of each group of near-duplicates (docs/similarity.md); with --top, the N best such.")
    static let profile = Option<String>(
        "profile", valueName: "NAME", choices: BellProfile.builtIn.map(\.name),
        help: "Preferences: bowl, temple (default) or chime.")
    static let profileFile = Option<String>(
        "profile-file", valueName: "FILE", help: "A JSON profile overriding a built-in one (docs/bells.md).")
    static let html = Option<String>(
        "html", valueName: "REPORT", help: "Also write a self-contained HTML report to REPORT.")
    static let pack = Option<String>(
        "pack", valueName: "DIR",
        help:
            "Judge as the pack in DIR would take them (default: the pack whose folder holds the current one): a keep is one 'assets add' adds."
    )
    static let noPack = Flag("no-pack", help: "Judge without a pack, even inside a pack's folder.")
    static let listen = Flag(
        "listen",
        help:
            "Then play the keep, fix and listen candidates in rank order and keep or reject them (keys: \(BellsCommand.listenKeys))."
    )
    /// Half a second lets one strike's attack be heard apart from the next; past a minute the group is no longer
    /// heard as one.
    static let spacing = Option<Double>(
        "spacing", valueName: "SECONDS", range: 0.5...60, default: 3,
        help: "With --listen: seconds between the strikes of a group of 3.")
    static let selection = Option<String>(
        "selection", valueName: "FILE",
        help: "With --listen: where to write the decisions (default bells-selection.json).")

    /// A bell quieter than -60 LUFS is not heard over a room's noise; 0 is the loudest a file can hold.
    static let target = Option<Double>(
        "target", valueName: "LUFS", range: -60...0,
        defaultDescription:
            "the pack's (-22, integrated) with --pack DIR or inside a pack's folder, else \(NumberText.plain(BellTrim.defaultTarget))",
        help: "Loudness target, in the --measure.")
    static let measure = Option<String>(
        "measure", valueName: "WHICH", choices: BellTrim.Measure.allCases.map(\.rawValue),
        help:
            "What --target sets: integrated (default: BS.1770-4 of the file, what ffmpeg ebur128 and loudgain read), padded (the same with 0.4 s of silence at both ends: does not move with a one-shot's lead-in) or max-momentary (the loudest 400 ms: how loud the strike is heard; works under 0.4 s)."
    )
    /// Below -20 dBTP a bell is quieter than any target asks; above 0 it clips on playback.
    static let maxTruePeak = Option<Double>(
        "max-true-peak", valueName: "DBTP", range: -20...0, default: BellTrim.defaultMaxTruePeak,
        help: "Highest true peak allowed.")
    static let out = Option<String>(
        "out", valueName: "DIR", help: "The folder to write the mended files into (made if missing).")
}
