import CLISupport

/// `enso`: the one command-line tool. Each subcommand lives in its own file (`<Name>Command.swift`).
let root = Command(
    name: "enso",
    abstract: "Audio asset pipeline and player engine for meditation and focus timers.",
    discussion: """
        Exit codes: 0 success, 1 failure or a failing verdict, 2 some input could not be read,
        64 bad usage. Each command's help lists the codes it uses.
        """,
    subcommands: EnsoCommands.all)

CommandLineTool(root: root, version: ensoVersion).main()
