import CLISupport

// make-assets: synthesises Enso's bundled asset pack deterministically (see docs/assets.md).
let tool = CommandLineTool(
    root: Command(
        name: "make-assets",
        abstract: "Synthesise the bundled asset pack (bells and soundscapes) from a seed.",
        discussion: "The models and their sources are described in docs/assets.md.",
        subcommands: [BuildCommand.command, SynthCommand.command, VerifyStrikesCommand.command]),
    version: "make-assets 0.1.0")
tool.main()
