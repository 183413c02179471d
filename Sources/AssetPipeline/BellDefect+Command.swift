import Foundation

extension BellDefect {
    /// `word` as one word of a POSIX shell command line: as it is when it holds only safe characters, else in single
    /// quotes (a quote inside written `'\''`).
    public static func shellWord(_ word: String) -> String {
        let safe = CharacterSet(charactersIn: "+-./:=@_,%").union(.alphanumerics)
        if !word.isEmpty, word.unicodeScalars.allSatisfy({ safe.contains($0) && $0.isASCII }) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// The folder a row's ``fixCommand(for:normalizeTarget:)`` writes into: where `enso bells fix FILE --out fixed`
    /// would write the file.
    public static let fixedFolder = "fixed"

    /// The defect's ``fix`` for `file` itself, a command line that runs as it is when pasted in any folder: the
    /// command's `IN OUT` placeholder replaced by the file and `fixed/NAME` (``fixedFolder``), after a
    /// `mkdir -p fixed` (the single-file commands, as `sox` and `cp` do, refuse to write into a folder that does not
    /// exist: a mistyped folder is not made), and a normalize given `--target normalizeTarget` when there is one
    /// (``BellTrim/commandTarget(_:target:)``: the level it can reach, as `enso bells fix` gives it).
    ///
    ///     mkdir -p fixed && enso bells normalize --target -24.2 bells/ride.flac fixed/ride.flac
    public func fixCommand(for file: String, normalizeTarget: Double? = nil) -> String? {
        guard var fix else { return nil }
        let out = Self.fixedFolder + "/" + (file as NSString).lastPathComponent
        if let normalizeTarget {
            fix = fix.replacingOccurrences(
                of: "bells normalize IN OUT",
                with: "bells normalize --target \(String(format: "%g", normalizeTarget)) IN OUT")
        }
        fix = fix.replacingOccurrences(of: "IN OUT", with: Self.shellWord(file) + " " + Self.shellWord(out))
        return "mkdir -p \(Self.shellWord(Self.fixedFolder)) && " + fix
    }

    /// The enso subcommand a fixable defect's ``fix`` runs (`trim`, `normalize`, `convert`), read from the command
    /// line whether or not it names its file yet; nil for a reject.
    public var fixVerb: String? {
        guard let fix else { return nil }
        let words = fix.split(separator: " ").map(String.init)
        guard let enso = words.firstIndex(of: "enso"), enso + 1 < words.count else { return nil }
        if words[enso + 1] == "bells", enso + 2 < words.count { return words[enso + 2] }
        return words[enso + 1]
    }
}
