import Foundation

extension BellDefect {
    /// `word` as one word of a POSIX shell command line: as it is when it holds only safe characters, else in single
    /// quotes (a quote inside written `'\''`).
    public static func shellWord(_ word: String) -> String {
        let safe = CharacterSet(charactersIn: "+-./:=@_,%").union(.alphanumerics)
        if !word.isEmpty, word.unicodeScalars.allSatisfy({ safe.contains($0) && $0.isASCII }) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// The defect's ``fix`` for `file` itself: the command's `IN OUT` placeholder replaced by the file and where
    /// `enso bells fix FILE --out fixed` would write it (`fixed/NAME`), so a row's command can be run as it is.
    public func fixCommand(for file: String) -> String? {
        guard let fix else { return nil }
        let out = "fixed/" + (file as NSString).lastPathComponent
        return fix.replacingOccurrences(of: "IN OUT", with: Self.shellWord(file) + " " + Self.shellWord(out))
    }
}
