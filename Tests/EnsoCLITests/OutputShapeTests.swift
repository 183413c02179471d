import AudioFile
import AudioTestSupport
import Foundation
import Testing

/// Every `--json` and `--csv` output of `enso` against the one shape of docs/cli.md: valid JSON, an array for a
/// command that reports on a list and an object for one result, indented with `"key": value`, camelCase keys, no
/// `\/`, the one error object (`{"code", "message", "file"}`) as a per-file row's `error` and as the whole output
/// of a failed command with its documented exit code; camelCase CSV headers, one cell per column.
@Suite("output shape (docs/cli.md)")
struct OutputShapeTests {
    /// Small generated inputs, made once for every case.
    static let inputs: Inputs = {
        do { return try Inputs() } catch { fatalError("cannot make the shape test's inputs: \(error)") }
    }()

    struct Inputs: Sendable {
        let dir = ToolRunner.temporaryDirectory("output-shape")
        var bell: String { dir + "/bell.wav" }
        var loop: String { dir + "/loop.wav" }
        var journal: String { dir + "/sessions.jsonl" }

        /// The `--jsonl` rows of `command` over `file`, written to a results file of its own beside it (for `bells
        /// rank` and `loops report`); its path. Each call writes its own file: the cases run in parallel, and two
        /// writing one path let a reader find it truncated (an empty report).
        func results(_ command: [String], _ file: String) -> String {
            let path = dir + "/\(command.joined(separator: "-"))-\(UUID().uuidString).jsonl"
            let rows = (try? ToolRunner.run("enso", command + ["--jsonl", file]).stdout) ?? ""
            try? rows.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        /// A pack of the bundled singing bowl.
        let pack: String
        /// A folder without a manifest: `assets check|list` cannot read it.
        var notAPack: String { dir + "/not-a-pack" }

        init() throws {
            try AudioFileEncoder.write(
                BellSignals.bell(seconds: 3), to: dir + "/bell.wav", options: EncodeOptions(format: .wav24))
            let noise = SignalGenerator.periodicNoise(period: 12_000, frames: 72_000, amplitude: 0.3, seed: 7)
            try AudioFileEncoder.write(
                SignalGenerator.buffer(noise, sampleRate: 48_000), to: dir + "/loop.wav",
                options: EncodeOptions(format: .wav16))
            let record =
                #"{"bell":"singing-bowl","cyclesCompleted":1,"end":"2026-11-28T07:21:00.000Z","id":"s-1","#
                + #""outcome":"completed","plannedSeconds":1260,"satSeconds":1260,"start":"2026-11-28T07:00:00.000Z","#
                + #""syncedToHealth":false,"theme":"rain/light"}"#
            try (record + "\n").write(toFile: dir + "/sessions.jsonl", atomically: false, encoding: .utf8)
            try FileManager.default.createDirectory(atPath: dir + "/not-a-pack", withIntermediateDirectories: true)
            pack = try AssetsCommandTests.pack(["singing-bowl"])
        }
    }

    /// What a case's stdout must be.
    enum Shape: Sendable, CustomStringConvertible {
        /// An array of objects, one per input file: each has `input` (the key naming the file) and `error`.
        case perFile(input: String)
        /// An array (devices, assets, sessions).
        case list
        /// One object.
        case object
        /// `{"error": {...}}`.
        case error(code: String?)
        /// CSV with a header line.
        case csv

        var description: String {
            switch self {
            case .perFile(let key): "array of per-file rows (\(key), error)"
            case .list: "array"
            case .object: "object"
            case .error(let code): "error object (\(code ?? "any code"))"
            case .csv: "CSV"
            }
        }
    }

    /// One run: the command words, the rest of its arguments, the shape and the exit codes it may end with.
    struct Case: Sendable, CustomTestStringConvertible {
        var command: [String]
        var arguments: @Sendable (Inputs) -> [String]
        var shape: Shape
        var exitCodes: Set<Int32>

        init(
            _ command: String, _ shape: Shape, exit: Set<Int32> = [0],
            _ arguments: @escaping @Sendable (Inputs) -> [String]
        ) {
            self.command = command.split(separator: " ").map(String.init)
            self.arguments = arguments
            self.shape = shape
            self.exitCodes = exit
        }

        var testDescription: String { "\(command.joined(separator: " ")): \(shape)" }
    }

    static let cases: [Case] = [
        Case("info", .perFile(input: "file")) { [$0.bell, $0.loop, "--json"] },
        Case("info", .perFile(input: "file"), exit: [2]) { [$0.bell, $0.dir + "/missing.wav", "--json"] },
        Case("info", .error(code: "usage"), exit: [64]) { [$0.bell, "--json", "--bogus"] },
        // A bell is a keep or fix (0) or not (1): the shape is the same.
        Case("bells audition", .perFile(input: "file"), exit: [0, 1]) { [$0.bell, "--json"] },
        Case("bells audition", .perFile(input: "file"), exit: [2]) { [$0.bell, $0.dir + "/missing.wav", "--json"] },
        Case("bells audition", .csv, exit: [0, 1, 2]) { [$0.bell, $0.dir + "/missing.wav", "--csv"] },
        // A bell with nothing to fix (0), or a reject (1): the shape is the same.
        Case("bells fix", .perFile(input: "file"), exit: [0, 1]) {
            [$0.bell, "--out", $0.dir + "/fixed", "--no-pack", "--json"]
        },
        Case("bells fix", .perFile(input: "file"), exit: [2]) {
            [$0.bell, $0.dir + "/missing.wav", "--out", $0.dir + "/fixed", "--no-pack", "--json"]
        },
        Case("bells fix", .error(code: "usage"), exit: [64]) { [$0.bell, "--json"] },
        Case("bells rank", .perFile(input: "file"), exit: [0, 1]) {
            [$0.results(["bells", "audition"], $0.bell), "--json"]
        },
        Case("bells rank", .csv, exit: [0, 1]) { [$0.results(["bells", "audition"], $0.bell), "--csv"] },
        Case("bells rank", .error(code: nil), exit: [2]) { [$0.dir + "/missing.jsonl", "--json"] },
        Case("bells similar", .perFile(input: "file")) { [$0.bell, $0.loop, "--json"] },
        Case("bells similar", .perFile(input: "file"), exit: [2]) { [$0.bell, $0.dir + "/missing.wav", "--json"] },
        Case("bells similar", .error(code: "usage"), exit: [64]) { [$0.bell, "--json"] },
        Case("bells trim", .object) { [$0.bell, $0.dir + "/trimmed.wav", "--json"] },
        Case("bells trim", .error(code: "not-found"), exit: [2]) {
            [$0.dir + "/missing.wav", $0.dir + "/t.wav", "--json"]
        },
        Case("bells normalize", .object) { [$0.bell, $0.dir + "/normalized.flac", "--target", "-30", "--json"] },
        Case("bells normalize", .error(code: "usage"), exit: [64]) {
            [$0.bell, $0.dir + "/n.flac", "--target", "5", "--json"]
        },
        Case("plan", .object) { ["--bell", $0.bell, "--sit", "20s", "--json"] },
        Case("plan", .error(code: "usage"), exit: [64]) { ["--bell", $0.bell, "--sit", "soon", "--json"] },
        // A bell that cannot be read: its kind and file, not `failure` and null.
        Case("plan", .error(code: "not-found"), exit: [1]) { ["--bell", $0.dir + "/missing.wav", "--json"] },
        Case("loops verify", .perFile(input: "file"), exit: [0, 1]) { [$0.loop, "--json"] },
        Case("loops verify", .perFile(input: "file"), exit: [2]) { [$0.loop, $0.dir + "/missing.wav", "--json"] },
        Case("loops verify", .csv, exit: [2]) { [$0.loop, $0.dir + "/missing.wav", "--csv"] },
        Case("loops report", .perFile(input: "file"), exit: [0, 1]) {
            [$0.results(["loops", "verify"], $0.loop), "--json"]
        },
        Case("loops report", .csv, exit: [0, 1]) { [$0.results(["loops", "verify"], $0.loop), "--csv"] },
        Case("loops report", .error(code: nil), exit: [2]) { [$0.dir + "/missing.jsonl", "--json"] },
        Case("loops similar", .perFile(input: "file")) { [$0.loop, $0.bell, "--json"] },
        Case("loops similar", .perFile(input: "file"), exit: [2]) { [$0.loop, $0.dir + "/missing.wav", "--json"] },
        Case("loops find", .object) { [$0.loop, "--json", "--top", "2"] },
        Case("loops find", .error(code: "not-found"), exit: [2]) { [$0.dir + "/missing.wav", "--json"] },
        Case("loops bake", .object) { [$0.loop, $0.dir + "/baked.wav", "--json"] },
        Case("loops bake", .error(code: "not-found"), exit: [2]) {
            [$0.dir + "/missing.wav", $0.dir + "/b.wav", "--json"]
        },
        Case("assets check", .object) { [$0.pack, "--json"] },
        Case("assets check", .error(code: nil), exit: [2]) { [$0.notAPack, "--json"] },
        Case("assets list", .list) { [$0.pack, "--json"] },
        Case("assets list", .error(code: nil), exit: [2]) { [$0.notAPack, "--json"] },
        Case("assets add", .perFile(input: "source"), exit: [0, 1, 2]) {
            ["--assets", $0.dir + "/new-pack", $0.bell, $0.dir + "/missing.wav", "--json"]
        },
        Case("assets add", .error(code: "usage"), exit: [64]) { ["--assets", $0.dir + "/new-pack", "--json"] },
        Case("sessions list", .list) { ["--journal", $0.journal, "--json"] },
        Case("sessions list", .error(code: nil), exit: [1]) { ["--journal", $0.dir, "--json"] },
        Case("sessions export", .list) { ["--journal", $0.journal, "--json"] },
        Case("sessions export", .csv) { ["--journal", $0.journal, "--csv"] },
        Case("sessions export", .error(code: "usage"), exit: [64]) { ["--journal", $0.journal, "--json", "--csv"] },
        Case("sessions stats", .object) { ["--journal", $0.journal, "--json"] },
        Case("sessions stats", .error(code: nil), exit: [1]) { ["--journal", $0.dir, "--json"] },
        // Without ALSA configuration the listing fails (exit 1): then the error object is the output.
        Case("devices", .list, exit: [0, 1]) { _ in ["--json"] },
        Case("devices", .error(code: "usage"), exit: [64]) { _ in ["--json", "extra"] },
    ]

    @Test(arguments: cases)
    func outputHasTheOneShape(_ c: Case) throws {
        let inputs = Self.inputs
        let r = try ToolRunner.run("enso", c.command + c.arguments(inputs), environment: ["ENSO_ASSETS": inputs.pack])
        #expect(c.exitCodes.contains(r.exitCode), "exit \(r.exitCode): \(r.stderr)")
        if case .csv = c.shape {
            try Self.checkCSV(r.stdout)
            return
        }
        // devices without ALSA: the command's documented failure, printed as the error object.
        let shape: Shape = c.command == ["devices"] && r.exitCode == 1 ? .error(code: nil) : c.shape
        try Self.checkJSON(r.stdout, shape: shape)
        if case .error = shape {
            #expect(r.stderr.hasPrefix("Error: "), "the error is also told on stderr: \(r.stderr)")
        }
    }

    /// The commands that take `--json` or `--csv` are the ones listed above: a new one must join the test.
    @Test func everyCommandWithMachineOutputIsCovered() throws {
        var found: Set<String> = []
        func walk(_ path: [String]) throws {
            let help = try ToolRunner.run("enso", ["help"] + path).stdout
            let subcommands = Self.section("SUBCOMMANDS:", of: help).compactMap { line -> String? in
                guard line.hasPrefix("  "), !line.hasPrefix("   "), let word = line.split(separator: " ").first else {
                    return nil
                }
                return String(word)
            }
            for sub in subcommands { try walk(path + [sub]) }
            for line in Self.section("OPTIONS:", of: help) {
                for flag in ["--json", "--csv"] where line.hasPrefix("  \(flag) ") || line == "  \(flag)" {
                    found.insert((path + [flag]).joined(separator: " "))
                }
            }
        }
        try walk([])
        let covered = Set(
            Self.cases.map { c -> String in
                let flag = if case .csv = c.shape { "--csv" } else { "--json" }
                return (c.command + [flag]).joined(separator: " ")
            })
        #expect(
            found == covered,
            "in help, not tested: \(found.subtracting(covered)); tested, not in help: \(covered.subtracting(found))")
    }

    /// The lines of a help section, up to the next blank line.
    static func section(_ title: String, of help: String) -> [String] {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        guard let start = lines.firstIndex(of: title) else { return [] }
        return Array(lines[(start + 1)...].prefix { !$0.isEmpty })
    }

    // MARK: - The shape

    static func checkJSON(_ stdout: String, shape: Shape) throws {
        #expect(!stdout.contains(#"\/"#), "an escaped slash: \(stdout.prefix(400))")
        // Indented as the writer indents: a line per member, `"key": value`; an empty array or object on one line.
        #expect(stdout.hasPrefix("[\n  ") || stdout.hasPrefix("{\n  ") || stdout == "[]\n", "\(stdout.prefix(200))")
        #expect(!stdout.contains("\" : ") && !stdout.contains("[\n\n"), "\(stdout.prefix(400))")
        let value = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
        checkKeys(value, at: "$")
        switch shape {
        case .perFile(let input):
            let rows = try #require(value as? [[String: Any]], "not an array of objects: \(stdout.prefix(200))")
            #expect(!rows.isEmpty)
            for row in rows {
                #expect(row[input] is String, "a row without its \(input): \(row)")
                #expect(row.keys.contains("error"), "a row without error: \(row)")
            }
        case .list:
            #expect(value is [Any], "not an array: \(stdout.prefix(200))")
        case .object:
            let object = try #require(value as? [String: Any], "not an object: \(stdout.prefix(200))")
            #expect(object["error"] == nil, "a failure: \(stdout.prefix(400))")
        case .error(let code):
            let object = try #require(value as? [String: Any], "not an object: \(stdout.prefix(200))")
            #expect(Array(object.keys) == ["error"], "\(object.keys)")
            let error = try #require(object["error"] as? [String: Any])
            if let code { #expect(error["code"] as? String == code, "\(error)") }
        case .csv:
            Issue.record("CSV is checked by checkCSV")
        }
    }

    /// Every key camelCase; every `error` member null or the one error object.
    static func checkKeys(_ value: Any, at path: String) {
        if let array = value as? [Any] {
            for (i, element) in array.enumerated() { checkKeys(element, at: "\(path)[\(i)]") }
        } else if let object = value as? [String: Any] {
            for (key, member) in object {
                #expect(isCamelCase(key), "\(path).\(key) is not camelCase")
                if key == "error" { checkErrorObject(member, at: "\(path).error") }
                checkKeys(member, at: "\(path).\(key)")
            }
        }
    }

    /// `null`, or exactly `{"code": kebab-case, "message": text, "file": text or null}`.
    static func checkErrorObject(_ value: Any, at path: String) {
        if value is NSNull { return }
        guard let error = value as? [String: Any] else {
            Issue.record("\(path) is neither null nor an object: \(value)")
            return
        }
        #expect(Set(error.keys) == ["code", "message", "file"], "\(path): \(error.keys.sorted())")
        let code = error["code"] as? String ?? ""
        #expect(!code.isEmpty && code.allSatisfy { $0.isLowercase || $0 == "-" }, "\(path).code: '\(code)'")
        #expect((error["message"] as? String)?.isEmpty == false, "\(path).message")
        #expect(error["file"] is String || error["file"] is NSNull, "\(path).file")
    }

    static func isCamelCase(_ key: String) -> Bool {
        guard let first = key.first, first.isASCII, first.isLowercase else { return false }
        return key.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }

    /// A header of camelCase names, then rows of as many cells (RFC 4180 quoting).
    static func checkCSV(_ stdout: String) throws {
        let records = parseCSV(stdout)
        let header = try #require(records.first)
        for name in header { #expect(isCamelCase(name), "CSV header '\(name)' is not camelCase") }
        #expect(records.count > 1, "no rows: \(stdout)")
        for row in records.dropFirst() {
            #expect(row.count == header.count, "\(row.count) cells for \(header.count) columns: \(row)")
            #expect(!row.contains("-"), "an absent value is an empty cell, not '-': \(row)")
        }
    }

    /// RFC 4180 records: quoted cells may hold commas, doubled quotes and newlines.
    static func parseCSV(_ text: String) -> [[String]] {
        var records: [[String]] = []
        var record: [String] = []
        var cell = ""
        var quoted = false
        var chars = Array(text)[...]
        while let c = chars.popFirst() {
            if quoted {
                if c == "\"" {
                    if chars.first == "\"" {
                        cell.append("\"")
                        chars.removeFirst()
                    } else {
                        quoted = false
                    }
                } else {
                    cell.append(c)
                }
            } else if c == "\"" {
                quoted = true
            } else if c == "," {
                record.append(cell)
                cell = ""
            } else if c == "\n" {
                record.append(cell)
                records.append(record)
                (record, cell) = ([], "")
            } else {
                cell.append(c)
            }
        }
        if !cell.isEmpty || !record.isEmpty { records.append(record + [cell]) }
        return records
    }
}
