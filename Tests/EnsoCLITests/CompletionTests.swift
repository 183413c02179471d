import AudioTestSupport
import Foundation
import Testing

/// The completion scripts and the manual page `enso` generates from its command specs, loaded into the real
/// shells and read by man(1).
@Suite("completions and manual")
struct CompletionTests {
    static func has(_ tool: String) -> Bool {
        ["/usr/bin/", "/bin/"].contains { FileManager.default.isExecutableFile(atPath: $0 + tool) }
    }

    /// Writes `enso`'s output for `arguments` to a file in `dir`, named `name`.
    static func generate(_ arguments: [String], into dir: String, name: String) throws -> String {
        let r = try ToolRunner.run("enso", arguments)
        #expect(r.exitCode == 0, "\(r.stderr)")
        let path = dir + "/" + name
        try Data(r.stdout.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// What the bash script offers for the words typed so far (the last one being completed).
    static func bashCompletions(
        _ script: String, _ words: [String], environment: [String: String] = [:], in folder: String? = nil
    ) throws -> [String] {
        let quoted = words.map { "'" + $0 + "'" }.joined(separator: " ")
        let r = try ToolRunner.run(
            "/bin/bash",
            [
                "-c",
                "source '\(script)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _enso; printf '%s\\n' \"${COMPREPLY[@]}\"",
            ], environment: environment, currentDirectory: folder)
        #expect(r.exitCode == 0 && r.stderr.isEmpty, "\(r.stderr)")
        return r.stdout.split(separator: "\n").map(String.init)
    }

    @Test func bashCompletesCommandsOptionsAndValues() throws {
        let dir = ToolRunner.temporaryDirectory("completion")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let script = try Self.generate(["--generate-completion-script", "bash"], into: dir, name: "enso.bash")
        let registered = try ToolRunner.run("/bin/bash", ["-c", "source '\(script)' && complete -p enso"])
        #expect(
            registered.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "complete -o filenames -F _enso enso")
        #expect(try Self.bashCompletions(script, ["enso", "lo"]) == ["loops"])
        #expect(try Self.bashCompletions(script, ["enso", "loops", "v"]) == ["verify"])
        #expect(try Self.bashCompletions(script, ["enso", "help", "lo"]) == ["loops"])
        #expect(try Self.bashCompletions(script, ["enso", "render", "--form"]) == ["--format"])
        #expect(try Self.bashCompletions(script, ["enso", "render", "--format", "fl"]) == ["flac", "flac24"])
        #expect(
            try Self.bashCompletions(script, ["enso", "convert", "--resampler", ""]) == ["best", "medium", "fastest"])
        #expect(try Self.bashCompletions(script, ["enso", "--generate-completion-script", "z"]) == ["zsh"])
        // Values declared with their options: the profiles, the kinds of output.
        #expect(
            try Self.bashCompletions(script, ["enso", "bells", "audition", "--profile", ""]) == [
                "bowl", "temple", "chime",
            ])
        #expect(try Self.bashCompletions(script, ["enso", "play", "--output", "n"]) == ["null"])
        #expect(try Self.bashCompletions(script, ["enso", "loops", "verify", "--output", "f"]) == ["file:"])
        // A value that is a number completes to nothing; a file argument to the files there.
        #expect(try Self.bashCompletions(script, ["enso", "render", "--sit", ""]).isEmpty)
        try Data().write(to: URL(fileURLWithPath: dir + "/tone.wav"))
        #expect(try Self.bashCompletions(script, ["enso", "info", dir + "/to"]) == [dir + "/tone.wav"])
    }

    /// The environment a shell completes pack ids in: `enso` (this build's) on `PATH`, as a user has it, and the pack
    /// search pointed at `pack` (the bundled pack, or a folder that is none so that the search fails).
    ///
    /// `XDG_DATA_HOME` is a fresh folder of the test process's, never the pack: the shells write their own data
    /// there (fish made `fish/` inside the repository's `Assets/`).
    static func packEnvironment(_ pack: String) -> [String: String] {
        let bin = URL(fileURLWithPath: ToolRunner.executablePath("enso")).deletingLastPathComponent().path
        return [
            "PATH": bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "ENSO_ASSETS": pack, "XDG_DATA_HOME": ToolRunner.temporaryDirectory("completion-home"),
            "XDG_DATA_DIRS": pack,
        ]
    }

    /// A folder holding one sound file, `tone.wav`, to complete file names in.
    static func folderWithAFile() throws -> String {
        let dir = ToolRunner.temporaryDirectory("completion-files")
        try Data().write(to: URL(fileURLWithPath: dir + "/tone.wav"))
        return dir
    }

    static let bells = ["singing-bowl", "temple-bell", "soft-chime"]
    static let soundscapes = ["rain", "hearth", "forest", "stream"]

    /// `--bell`, `--interval-bell`, `--ambient`: the ids of the pack `enso` finds when TAB is pressed (asked of
    /// `enso assets list --ids`), and files; the pack named by `--assets` on the line; a pack search that fails
    /// leaves the files only, and nothing on the terminal.
    @Test func bashCompletesPackIdsAndFiles() throws {
        let dir = try Self.folderWithAFile()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let script = try Self.generate(["--generate-completion-script", "bash"], into: dir, name: "enso.bash")
        let found = Self.packEnvironment(bundledAssets)
        func complete(_ words: [String], _ environment: [String: String]) throws -> [String] {
            // Sorted: bash lists files in the folder's order.
            try Self.bashCompletions(script, words, environment: environment, in: dir).sorted()
        }
        #expect(
            try complete(["enso", "play", "--bell", ""], found) == (Self.bells + ["enso.bash", "tone.wav"]).sorted())
        #expect(try complete(["enso", "render", "--interval-bell", "s"], found) == ["singing-bowl", "soft-chime"])
        #expect(
            try complete(["enso", "plan", "--ambient", ""], found)
                == (Self.soundscapes + ["enso.bash", "tone.wav"]).sorted())
        #expect(try complete(["enso", "play", "--bell", "=", "t"], found) == ["temple-bell", "tone.wav"])
        // --theme-at TIME=ID: the soundscapes and files after the '=' (bash splits the word there), nothing before.
        #expect(try complete(["enso", "play", "--theme-at", "1m", "=", "r"], found) == ["rain"])
        #expect(
            try complete(["enso", "render", "--theme-at", "1m", "="], found)
                == (Self.soundscapes + ["enso.bash", "tone.wav"]).sorted())
        #expect(try complete(["enso", "play", "--theme-at", "=", "90", "=", "to"], found) == ["tone.wav"])
        #expect(try complete(["enso", "play", "--theme-at", "1"], found).isEmpty)
        let none = Self.packEnvironment(dir + "/no-pack")
        #expect(try complete(["enso", "play", "--bell", "t"], none) == ["tone.wav"])
        #expect(
            try complete(["enso", "play", "--assets", bundledAssets, "--bell", "t"], none) == [
                "temple-bell", "tone.wav",
            ])
        #expect(
            try complete(["enso", "play", "--assets", "=", bundledAssets, "--bell", "si"], none) == ["singing-bowl"])
    }

    /// `assets list --ids`, the completions' helper: the ids of the pack, one a line, by kind; with `--json` a
    /// usage error.
    @Test func assetsListIdsPrintsOneIdALine() throws {
        let bells = try ToolRunner.run(
            "enso", ["assets", "list", "--ids", "--kind", "bell", "--assets", bundledAssets])
        #expect(bells.exitCode == 0 && bells.stderr.isEmpty, "\(bells.stderr)")
        #expect(bells.stdout == Self.bells.map { $0 + "\n" }.joined())
        let all = try ToolRunner.run("enso", ["assets", "list", "--ids", bundledAssets])
        #expect(all.stdout == (Self.bells + Self.soundscapes).map { $0 + "\n" }.joined())
        let both = try ToolRunner.run("enso", ["assets", "list", "--ids", "--json", bundledAssets])
        #expect(both.exitCode == 64, "\(both.stderr)")
        let missing = try ToolRunner.run("enso", ["assets", "list", "--ids", "/nonexistent/pack"])
        #expect(missing.exitCode == 2 && missing.stdout.isEmpty)
    }

    @Test(.enabled(if: has("fish"), "fish is installed by make test-deps"))
    func fishCompletesPackIdsAndFiles() throws {
        let dir = try Self.folderWithAFile()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let script = try Self.generate(["--generate-completion-script", "fish"], into: dir, name: "enso.fish")
        func complete(_ line: String, _ environment: [String: String]) throws -> [String] {
            let r = try ToolRunner.run(
                "/usr/bin/fish", ["--no-config", "-c", "source '\(script)'; complete -C '\(line)'"],
                environment: environment, currentDirectory: dir)
            #expect(r.exitCode == 0 && r.stderr.isEmpty, "\(r.stderr)")
            return r.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }.sorted()
        }
        let found = Self.packEnvironment(bundledAssets)
        #expect(try complete("enso play --bell ", found) == (Self.bells + ["enso.fish", "tone.wav"]).sorted())
        #expect(
            try complete("enso render --ambient ", found) == (Self.soundscapes + ["enso.fish", "tone.wav"]).sorted())
        #expect(try complete("enso play --theme-at 1m=r", found) == ["1m=rain"])
        #expect(try complete("enso play --theme-at 1m=to", found) == ["1m=tone.wav"])
        #expect(try complete("enso play --theme-at 1", found).isEmpty)
        let none = Self.packEnvironment(dir + "/no-pack")
        #expect(try complete("enso play --bell t", none) == ["tone.wav"])
        #expect(try complete("enso play --assets \(bundledAssets) --bell t", none) == ["temple-bell", "tone.wav"])
    }

    @Test(.enabled(if: has("fish"), "fish is installed by make test-deps"))
    func fishCompletesCommandsOptionsAndValues() throws {
        let dir = ToolRunner.temporaryDirectory("completion")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let script = try Self.generate(["--generate-completion-script", "fish"], into: dir, name: "enso.fish")
        func complete(_ line: String) throws -> [String] {
            let r = try ToolRunner.run(
                "/usr/bin/fish", ["--no-config", "-c", "source '\(script)'; complete -C '\(line)'"])
            #expect(r.exitCode == 0 && r.stderr.isEmpty, "\(r.stderr)")
            return r.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        }
        #expect(try complete("enso lo") == ["loops"])
        #expect(try complete("enso loops ").sorted() == ["bake", "find", "report", "similar", "verify"])
        #expect(try complete("enso help loops v") == ["verify"])
        #expect(try complete("enso render --format fl") == ["flac", "flac24"])
        #expect(try complete("enso info --j").sorted() == ["--jobs", "--json"])
    }

    @Test(.enabled(if: has("zsh"), "zsh is installed by make test-deps"))
    func zshLoadsTheScript() throws {
        let dir = ToolRunner.temporaryDirectory("completion")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let script = try Self.generate(["--generate-completion-script", "zsh"], into: dir, name: "_enso")
        let syntax = try ToolRunner.run("/usr/bin/zsh", ["-n", script])
        #expect(syntax.exitCode == 0 && syntax.stderr.isEmpty, "\(syntax.stderr)")
        // Sourced after compinit it registers itself; from fpath compinit finds it by its #compdef line.
        let sourced = try ToolRunner.run(
            "/usr/bin/zsh",
            ["-f", "-c", "autoload -U compinit; compinit -u -D; source '\(script)'; print -r -- $_comps[enso]"])
        #expect(sourced.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "_enso", "\(sourced.stderr)")
        let fpath = try ToolRunner.run(
            "/usr/bin/zsh",
            ["-f", "-c", "fpath=('\(dir)' $fpath); autoload -U compinit; compinit -u -D; print -r -- $_comps[enso]"])
        #expect(fpath.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "_enso", "\(fpath.stderr)")
    }

    @Test(.enabled(if: has("zsh"), "zsh is installed by make test-deps"))
    func zshCompletesInAnInteractiveShell() throws {
        let dir = ToolRunner.temporaryDirectory("completion")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let script = try Self.generate(["--generate-completion-script", "zsh"], into: dir, name: "_enso")
        let typed = ["enso ren", "enso render --format fl", "enso help lo", "enso loops verify --st"]
        let screen = try Self.zshScreen(script, typing: typed, in: dir)
        for completed in [
            "enso render ", "enso render --format flac", "enso help loops ", "enso loops verify --strict ",
        ] {
            #expect(screen.contains(completed), "zsh did not complete to '\(completed)'")
        }
    }

    /// What an interactive zsh shows when each of `typed` is typed in `folder`, completed with TAB and cleared.
    ///
    /// A real interactive zsh on a pseudo-terminal (zsh/zpty): the screen shows what each TAB completed the line
    /// to. The markers are split so their echo does not match. Typing waits for the set-up's marker and the prompt
    /// after it: keys typed while compinit still ran were lost on a loaded machine (line editing was not active yet).
    static func zshScreen(
        _ script: String, typing typed: [String], in folder: String, environment: [String: String] = [:]
    ) throws -> String {
        func quoted(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }
        let driver = """
            zmodload zsh/zpty
            zpty z zsh -f -i
            zpty -w z "PS1='> '; autoload -U compinit; compinit -u -D; source \(quoted(script)); print -r -- Z''READY"
            zpty -r z line '*ZREADY*'
            zpty -r z line '*> '
            for typed in \(typed.map(quoted).joined(separator: " ")); do
              zpty -w -n z "$typed"$'\\t\\C-a\\C-k'
            done
            zpty -w z 'print -r -- Z''DONE'
            out=""
            while zpty -r z line; do out+="$line"; [[ $line == *ZDONE* ]] && break; done
            print -r -- "$out"
            zpty -d z
            """
        let path = folder + "/driver.zsh"
        try Data(driver.utf8).write(to: URL(fileURLWithPath: path))
        let r = try ToolRunner.run(
            "/usr/bin/timeout", ["60", "/usr/bin/zsh", "-f", path], environment: environment, currentDirectory: folder)
        #expect(r.exitCode == 0, "\(r.stderr)")
        return r.stdout.replacingOccurrences(
            of: "\u{1B}\\[[0-9;?]*[a-zA-Z]|\r|\u{8}", with: "", options: .regularExpression)
    }

    @Test(.enabled(if: has("zsh"), "zsh is installed by make test-deps"))
    func zshCompletesPackIdsAndFiles() throws {
        let dir = try Self.folderWithAFile()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let script = try Self.generate(["--generate-completion-script", "zsh"], into: dir, name: "_enso")
        let found = try Self.zshScreen(
            script,
            typing: [
                "enso play --bell temp", "enso render --ambient hea", "enso play --bell to",
                "enso play --theme-at 1m=fo",
            ], in: dir,
            environment: Self.packEnvironment(bundledAssets))
        for completed in [
            "enso play --bell temple-bell ", "enso render --ambient hearth ", "enso play --bell tone.wav ",
            "enso play --theme-at 1m=forest ",
        ] {
            #expect(found.contains(completed), "zsh did not complete to '\(completed)'")
        }
        // No pack found: files only, and nothing from the failed search on the screen.
        let none = try Self.zshScreen(
            script, typing: ["enso play --bell to", "enso play --assets \(bundledAssets) --bell so"], in: dir,
            environment: Self.packEnvironment(dir + "/no-pack"))
        #expect(none.contains("enso play --bell tone.wav "), "\(none)")
        #expect(none.contains("--bell soft-chime "), "\(none)")
        #expect(!none.lowercased().contains("error"), "\(none)")
    }

    @Test(.enabled(if: has("man"), "man-db is installed by make test-deps"))
    func manualPageRendersWithoutWarnings() throws {
        let dir = ToolRunner.temporaryDirectory("manual")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let page = try Self.generate(["--generate-manual"], into: dir, name: "enso.1")
        let r = try ToolRunner.run(
            "/usr/bin/man", ["--warnings", "-l", page],
            environment: ["MANWIDTH": "80", "MANPAGER": "cat", "PAGER": "cat", "LC_ALL": "C"])
        #expect(r.exitCode == 0)
        #expect(r.stderr.isEmpty, "man -l warned: \(r.stderr)")
        // Every command path, with its options, is on the page.
        for text in [
            "enso loops verify", "enso sessions mark-synced", "--theme-crossfade", "Exit codes", "ENVIRONMENT",
            "/usr/share/enso",
        ] {
            #expect(r.stdout.contains(text), "\(text) is not on the page")
        }
        let groff = try ToolRunner.run("/usr/bin/groff", ["-man", "-ww", "-z", page])
        #expect(groff.exitCode == 0 && groff.stderr.isEmpty, "groff warned: \(groff.stderr)")
    }
}
