import CLISupport

// make-assets: synthesises Enso's bundled asset pack deterministically (see docs/assets.md).
let tool = CommandLineTool(
    root: Command(
        name: "make-assets",
        abstract: "Synthesise the bundled asset pack (bells and soundscapes) from a seed.",
        subcommands: []),
    version: "make-assets 0.1.0")
tool.main()
