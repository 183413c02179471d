import AudioTestSupport
import Testing

@Suite struct HelpTests {
    @Test func helpHasTheHouseSections() throws {
        let r = try ToolRunner.run("enso", ["--help"])
        #expect(r.exitCode == 0)
        for section in ["OVERVIEW:", "USAGE:", "OPTIONS:", "SUBCOMMANDS:"] { #expect(r.stdout.contains(section)) }
        let sub = try ToolRunner.run("enso", ["help", "info"])
        #expect(sub.exitCode == 0)
        #expect(sub.stdout.contains("USAGE: enso info"))
        #expect(try ToolRunner.run("enso", ["info", "--help"]).stdout == sub.stdout)
    }

    @Test func versionAndUsageErrors() throws {
        let v = try ToolRunner.run("enso", ["--version"])
        #expect(v.exitCode == 0 && v.stdout.hasPrefix("enso "))
        let bad = try ToolRunner.run("enso", ["info", "--bogus", "x.wav"])
        #expect(bad.exitCode == 64)
        #expect(bad.stderr.contains("Error: unknown option '--bogus'"))
        #expect(bad.stderr.contains("Usage: enso info"))
        #expect(bad.stderr.contains("See 'enso info --help' for more information."))
        let unknown = try ToolRunner.run("enso", ["frobnicate"])
        #expect(unknown.exitCode == 64)
    }
}
