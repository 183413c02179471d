import CLISupport

/// The version `enso --version` prints: the newest release in CHANGELOG.md, which its git tag names (APIDocsTests).
let ensoVersion = "enso 0.2.0"

/// Every subcommand of `enso`, in the order help lists them.
enum EnsoCommands {
    static let all: [Command] = [
        InfoCommand.command,
        BellsCommand.command,
        PlanCommand.command,
        RenderCommand.command,
        LoopsCommand.command,
        ConvertCommand.command,
        ServeCommand.command,
        SessionsCommand.command,
        AssetsCommand.command,
        PlayCommand.command,
        DevicesCommand.command,
        StrikeCommand.command,
    ]
}
