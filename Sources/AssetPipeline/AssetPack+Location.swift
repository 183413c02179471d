import Foundation

extension AssetPack {
    /// The environment variable that points Enso at a user's own pack.
    public static let environmentVariable = "ENSO_ASSETS"

    /// The pack folder to use: `override` (the caller's `--assets DIR`), else `$ENSO_ASSETS`, else the
    /// bundled `Assets/` folder of this repository.
    ///
    /// The bundled folder is found by walking up from the running executable's folder looking for
    /// `Assets/manifest.json` (a build inside the checkout: `.build/release/enso`), then from the current
    /// directory, then from this source file's location (a build with an outside `--scratch-path`).
    ///
    /// - Parameters:
    ///   - override: the `--assets` value, if the user gave one; used as given (not checked here).
    ///   - environment: the process environment (a parameter so tests can pass their own).
    /// - Returns: an absolute folder path. `load(directory:)` reports a missing manifest there.
    /// - Throws: `AssetPipelineError` of kind `.unavailable` when nothing was given and no bundled pack
    ///   was found; the message lists where it looked.
    public static func defaultDirectory(
        override: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(AssetPipelineError) -> String {
        if let override, !override.isEmpty { return absolute(override) }
        if let env = environment[environmentVariable], !env.isEmpty { return absolute(env) }
        var looked: [String] = []
        for start in searchStarts() {
            var dir = URL(fileURLWithPath: start).standardizedFileURL
            while true {
                let candidate = dir.appendingPathComponent("Assets")
                if FileManager.default.fileExists(atPath: candidate.appendingPathComponent(manifestName).path) {
                    return candidate.path
                }
                let parent = dir.deletingLastPathComponent()
                if parent.path == dir.path { break }
                dir = parent
            }
            looked.append(start)
        }
        throw AssetPipelineError(
            .unavailable,
            "no asset pack: pass --assets DIR or set \(environmentVariable); no Assets/\(manifestName) above "
                + looked.joined(separator: ", "))
    }

    /// Where to start looking for the bundled pack, best first.
    private static func searchStarts() -> [String] {
        var starts: [String] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            starts.append(URL(fileURLWithPath: exe).deletingLastPathComponent().path)
        }
        starts.append(FileManager.default.currentDirectoryPath)
        // .../Sources/AssetPipeline/AssetPack+Location.swift -> the repository root is two folders up.
        starts.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path)
        return starts
    }

    private static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            .standardizedFileURL.path
    }
}
