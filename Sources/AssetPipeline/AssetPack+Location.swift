import AudioCore
import Foundation

extension AssetPack {
    /// The environment variable that points Enso at a user's own pack.
    public static let environmentVariable = "ENSO_ASSETS"

    /// The pack folder to use.
    ///
    /// A pack named by the user wins: `override` (the caller's `--assets DIR`), else `$ENSO_ASSETS`. Otherwise
    /// the first of ``searchPath(environment:executableDirectory:)`` that holds a `manifest.json`:
    ///
    /// 1. next to the binary: `<bin>/Assets` (the `make dist` folder), then `<bin>/../share/enso` (an installed
    ///    prefix, wherever it was copied), then `Assets/` in a folder further up (a build inside the checkout,
    ///    `.build/release/enso`, uses its own tree's pack even when another is installed);
    /// 2. `$XDG_DATA_HOME/enso` (default `~/.local/share/enso`);
    /// 3. each of `$XDG_DATA_DIRS` + `/enso` (default `/usr/local/share/enso`, `/usr/share/enso`).
    ///
    /// - Parameters:
    ///   - override: the `--assets` value, if the user gave one; used as given (not checked here).
    ///   - environment: the process environment (a parameter so tests can pass their own).
    ///   - executableDirectory: the running binary's folder (a parameter so tests can pass their own).
    /// - Returns: an absolute folder path. `load(directory:)` reports a missing manifest there.
    /// - Throws: `EnsoError` of kind `.unavailable` when nothing was given and no pack was found; the
    ///   message lists every folder it looked in.
    public static func defaultDirectory(
        override: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
        executableDirectory: String? = runningExecutableDirectory()
    ) throws(EnsoError) -> String {
        if let override, !override.isEmpty { return absolute(override) }
        if let env = environment[environmentVariable], !env.isEmpty { return absolute(env) }
        let candidates = searchPath(environment: environment, executableDirectory: executableDirectory)
        for candidate in candidates where FileManager.default.fileExists(atPath: candidate + "/" + manifestName) {
            return candidate
        }
        throw EnsoError(
            .unavailable,
            "no asset pack: pass --assets DIR or set \(environmentVariable); no \(manifestName) in "
                + candidates.joined(separator: ", "))
    }

    /// The folders searched for a pack when none is named, best first (see
    /// ``defaultDirectory(override:environment:executableDirectory:)``); absolute, without duplicates.
    public static func searchPath(
        environment: [String: String] = ProcessInfo.processInfo.environment,
        executableDirectory: String? = runningExecutableDirectory()
    ) -> [String] {
        var folders: [String] = []
        let bin = executableDirectory.map { URL(fileURLWithPath: $0).standardizedFileURL }
        if let bin {
            folders.append(bin.appendingPathComponent("Assets").path)
            folders.append(bin.deletingLastPathComponent().appendingPathComponent("share/enso").path)
            var dir = bin.deletingLastPathComponent()
            while dir.path != "/" {
                folders.append(dir.appendingPathComponent("Assets").path)
                dir = dir.deletingLastPathComponent()
            }
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            folders.append(dataHome + "/enso")
        } else if let home {
            folders.append(home + "/.local/share/enso")
        }
        // The XDG Base Directory spec ignores relative entries and an empty variable means the default.
        let dataDirs = (environment["XDG_DATA_DIRS"] ?? "").split(separator: ":").map(String.init)
            .filter { $0.hasPrefix("/") }
        for dir in dataDirs.isEmpty ? ["/usr/local/share", "/usr/share"] : dataDirs {
            folders.append(dir + "/enso")
        }
        var seen: Set<String> = []
        return folders.map { URL(fileURLWithPath: $0).standardizedFileURL.path }.filter { seen.insert($0).inserted }
    }

    /// The folder of the running executable (from `/proc/self/exe`, symbolic links resolved), if known.
    public static func runningExecutableDirectory() -> String? {
        guard let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
        return URL(fileURLWithPath: exe).deletingLastPathComponent().path
    }

    private static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            .standardizedFileURL.path
    }
}
