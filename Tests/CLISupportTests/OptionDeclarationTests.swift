import Testing

@testable import CLISupport

/// Options declared once: the help shows the declared range and default, the parser refuses a value outside the
/// range with the house wording, and the command reads the value through the declaration.
@Suite struct OptionDeclarationTests {
    static let top = Option<Int>("top", range: 1...10_000, help: "Print only the N best-ranked files.")
    static let spacing = Option<Double>(
        "spacing", valueName: "SECONDS", range: 0.5...60, default: 3, help: "Seconds between strikes.")
    static let jobs = Option<Int>("jobs", range: 1...64, defaultDescription: "every core", help: "Files at once.")
    static let profile = Option<String>(
        "profile", valueName: "NAME", choices: ["bowl", "temple"], help: "Preferences.")
    static let json = Flag("json", help: "Print JSON.")

    static let command = Command(
        name: "run", abstract: "Runs.", options: [top.spec, spacing.spec, jobs.spec, profile.spec, json.spec],
        exitCodes: [ExitCodeMeaning(.success, "Some file passes."), .usage], run: { _, _ in .success })

    @Test func helpShowsTheDeclaredRangeAndDefault() {
        #expect(Self.top.spec.helpText == "Print only the N best-ranked files (1...10000).")
        #expect(Self.spacing.spec.helpText == "Seconds between strikes (0.5...60, default 3).")
        #expect(Self.jobs.spec.helpText == "Files at once (1...64, default: every core).")
        #expect(Self.profile.spec.helpText == "Preferences.")
        let help = HelpFormatter.help(for: [Self.command], width: 200)
        #expect(help.contains("--spacing <seconds>     Seconds between strikes (0.5...60, default 3)."))
        let page = ManualPage.page(for: Command(name: "t", abstract: "T.", subcommands: [Self.command]), version: "1")
        #expect(page.contains("Seconds between strikes (0.5...60, default 3)."))
    }

    @Test func exitCodesAreShownInHelpAndTheManualPage() {
        let help = HelpFormatter.help(for: [Self.command], width: 200)
        let pad = String(repeating: " ", count: HelpFormatter.column - 3)
        #expect(help.contains("EXIT CODES:\n  0\(pad)Some file passes.\n  64\(pad.dropLast())Bad usage"))
        let page = ManualPage.page(for: Command(name: "t", abstract: "T.", subcommands: [Self.command]), version: "1")
        #expect(page.contains(".B Exit codes:\n.TP\n.B 0\nSome file passes."))
    }

    @Test func theParserRefusesValuesOutsideTheRange() throws {
        for (given, message) in [
            ("--top=0", "--top 0 is outside 1...10000"), ("--top=10001", "--top 10001 is outside 1...10000"),
            ("--top=x", "--top: 'x' is not a whole number"), ("--spacing=0.49", "--spacing 0.49 is outside 0.5...60"),
            ("--spacing=61", "--spacing 61 is outside 0.5...60"),
            ("--spacing=9e15", "--spacing 9e+15 is outside 0.5...60"),
            ("--spacing=1e308", "--spacing 1e+308 is outside 0.5...60"),
            ("--profile=chime", "--profile: 'chime' is not one of bowl, temple"),
        ] {
            #expect(throws: UsageError.self) { try ArgumentParser.parse([given], for: Self.command) }
            do { _ = try ArgumentParser.parse([given], for: Self.command) } catch let e as UsageError {
                #expect(e.message == message)
            }
        }
        for given in ["--top=1", "--top=10000", "--spacing=0.5", "--spacing=60", "--profile=bowl"] {
            _ = try ArgumentParser.parse([given], for: Self.command)
        }
    }

    @Test func aCommandReadsItsOptionsThroughTheDeclarations() throws {
        let args = try ArgumentParser.parse(["--top", "7", "--json", "--profile", "bowl"], for: Self.command)
        #expect(try args.value(of: Self.top) == 7)
        #expect(try args.valueOrDefault(of: Self.spacing) == 3)
        #expect(try args.value(of: Self.spacing) == nil)
        #expect(try args.value(of: Self.profile) == "bowl")
        #expect(args[Self.json])
        #expect(args.has(Self.top) && !args.has(Self.jobs))
        let given = try ArgumentParser.parse(["--spacing=0.5"], for: Self.command)
        #expect(try given.valueOrDefault(of: Self.spacing) == 0.5)
    }
}
