import AudioCore
import Foundation
import SystemIO

extension AssetPack {
    /// The environment variable that points Enso at a user's own pack.
    public static let environmentVariable = "ENSO_ASSETS"

    /// The pack folder to use.
    ///
    /// A pack named by the user wins: `override` (the caller's `--assets DIR`), else `$ENSO_ASSETS`. Otherwise
    /// the first of ``searchPath(environment:executableDirectory:)`` that holds a `manifest.json` and is trusted:
    ///
    /// 1. next to the binary: `<bin>/Assets` (the `make dist` folder), then `<bin>/../share/enso` (an installed
    ///    prefix, wherever it was copied), then `Assets/` in a folder further up (a build inside the checkout,
    ///    `.build/release/enso`, uses its own tree's pack even when another is installed);
    /// 2. `$XDG_DATA_HOME/enso` (default `~/.local/share/enso`);
    /// 3. each of `$XDG_DATA_DIRS` + `/enso` (default `/usr/local/share/enso`, `/usr/share/enso`).
    ///
    /// A found pack is used only when it and every folder above it pass the one folder walk (``TrustedPath``:
    /// owned by this user or root, writable by nobody else unless sticky): a binary in `/tmp/tools/bin` must not
    /// play a pack another user put at `/tmp/Assets`. Skipped packs are listed in the search (``search(override:environment:executableDirectory:)``, `enso assets list -v`)
    /// and in the error when nothing is found.
    ///
    /// - Parameters:
    ///   - override: the `--assets` value, if the user gave one; used as given (not checked here).
    ///   - environment: the process environment (a parameter so tests can pass their own).
    ///   - executableDirectory: the running binary's folder (a parameter so tests can pass their own).
    /// - Returns: an absolute folder path. `load(directory:)` reports a missing manifest there.
    /// - Throws: `EnsoError` of kind `.unavailable` when nothing was given and no pack was found; the
    ///   message lists every folder it looked in, and each pack it skipped with the reason.
    public static func defaultDirectory(
        override: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
        executableDirectory: String? = runningExecutableDirectory()
    ) throws(EnsoError) -> String {
        let search = search(override: override, environment: environment, executableDirectory: executableDirectory)
        if let directory = search.directory { return directory }
        let skipped = search.skipped.map { "; skipped \($0.folder): \($0.reason)" }.joined()
        throw EnsoError(
            .unavailable,
            "no asset pack: pass --assets DIR or set \(environmentVariable); no trusted \(manifestName) in "
                + search.looked.joined(separator: ", ") + skipped)
    }

    /// Where a pack search looked, what it skipped and what it chose.
    public struct Search: Sendable, Equatable {
        /// How the pack was chosen.
        public enum Origin: String, Sendable {
            /// `--assets DIR` (the caller's `override`).
            case option = "--assets"
            /// `$ENSO_ASSETS`.
            case environment = "$ENSO_ASSETS"
            /// The search path.
            case search = "the search"
        }

        /// A pack found by the search and not used.
        public struct Skipped: Sendable, Equatable {
            public var folder: String
            /// Why, in words: the folder walk's finding (`/tmp/Assets belongs to another user (uid 1000)`).
            public var reason: String
        }

        /// The pack folder to use, or `nil` when none was named or found.
        public var directory: String?
        public var origin: Origin
        /// The folders looked in, best first (empty when the pack was named).
        public var looked: [String] = []
        /// The packs found but not trusted, in search order.
        public var skipped: [Skipped] = []
    }

    /// The pack search of ``defaultDirectory(override:environment:executableDirectory:)``, with every folder it
    /// looked in and every pack it skipped, and why.
    public static func search(
        override: String? = nil, environment: [String: String] = ProcessInfo.processInfo.environment,
        executableDirectory: String? = runningExecutableDirectory()
    ) -> Search {
        if let override, !override.isEmpty { return Search(directory: absolute(override), origin: .option) }
        if let env = environment[environmentVariable], !env.isEmpty {
            return Search(directory: absolute(env), origin: .environment)
        }
        var search = Search(
            directory: nil, origin: .search,
            looked: searchPath(environment: environment, executableDirectory: executableDirectory))
        for candidate in search.looked where FileManager.default.fileExists(atPath: candidate + "/" + manifestName) {
            if let problem = TrustedPath.problem(with: candidate) {
                search.skipped.append(Search.Skipped(folder: candidate, reason: problem.description))
                continue
            }
            search.directory = candidate
            break
        }
        return search
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
