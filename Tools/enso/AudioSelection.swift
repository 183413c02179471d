import Foundation

/// What a batch command (`loops verify`, `bells audition`) was asked to look at, after folders were searched.
enum AudioSelection {
    /// `found` (the files the folders in `inputs` gave), plus each folder in `inputs` that gave none, in its place,
    /// so it gets its own error row ("is a directory, not an audio file") and the command exits 2, naming it,
    /// instead of silently selecting nothing (a folder named `x.wav` holding no audio exited 0 before).
    static func keepingEmptyFolders(_ inputs: [String], _ found: [String]) -> [String] {
        var out: [String] = []
        var rest = found[...]
        for input in inputs {
            var isDir: ObjCBool = false
            let folder = FileManager.default.fileExists(atPath: input, isDirectory: &isDir) && isDir.boolValue
            let base = input.hasSuffix("/") ? input : input + "/"
            // `found` keeps the inputs' order: take this input's files from its front.
            var mine: [String] = []
            while let next = rest.first, next == input || (folder && next.hasPrefix(base)) {
                mine.append(next)
                rest = rest.dropFirst()
            }
            out += folder && mine.isEmpty ? [input] : mine
        }
        return out + rest
    }
}
