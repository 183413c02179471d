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

/// The man page's ENVIRONMENT and FILES sections (the search itself: `AssetPack.defaultDirectory`).
let manualSections = [
    ManualPage.Section(
        "Environment",
        """
        ENSO_ASSETS names the asset pack folder when --assets does not. XDG_DATA_HOME and XDG_DATA_DIRS
        are searched for enso/ when neither names one. COLUMNS sets the width help is wrapped to.
        """),
    ManualPage.Section(
        "Files",
        """
        The asset pack (a folder with a manifest.json) is the first of: --assets DIR, $ENSO_ASSETS,
        Assets/ beside the binary, ../share/enso beside the binary, Assets/ in a folder above the binary
        (a build inside the source tree), $XDG_DATA_HOME/enso (~/.local/share/enso), then each
        $XDG_DATA_DIRS entry + /enso (/usr/local/share/enso, /usr/share/enso).
        """),
]

CommandLineTool(root: root, version: ensoVersion, manualSections: manualSections).main()
