import CLISupport

/// `enso`: the one command-line tool. Each subcommand lives in its own file (`<Name>Command.swift`).
let root = Command(
    name: "enso",
    abstract: "Audio asset pipeline and player engine for meditation and focus timers.",
    discussion: """
        Exit codes: 0 success, 1 failure or a failing verdict, 2 some input could not be read,
        64 bad usage, 141 the reader of stdout stopped early (| head: no message, as sox).
        Each command's help lists the codes it uses.
        """,
    subcommands: EnsoCommands.all)

/// The man page's ENVIRONMENT and FILES sections (the search itself: `AssetPack.defaultDirectory`).
let manualSections = [
    ManualPage.Section(
        "Environment",
        """
        ENSO_ASSETS names the asset pack folder when --assets does not. XDG_DATA_HOME and XDG_DATA_DIRS
        are searched for enso/ when neither names one. COLUMNS sets the width help is wrapped to and
        tables are fitted to (also when piped).
        """),
    ManualPage.Section(
        "Files",
        """
        The asset pack (a folder with a manifest.json) is the first of: --assets DIR, $ENSO_ASSETS,
        Assets/ beside the binary, ../share/enso beside the binary, Assets/ in a folder above the binary
        (a build inside the source tree), $XDG_DATA_HOME/enso (~/.local/share/enso), then each
        $XDG_DATA_DIRS entry + /enso (/usr/local/share/enso, /usr/share/enso).

        The documents this page cites (docs/bells.md, docs/loops.md, docs/protocol.md, ...) are installed with
        the README in share/doc/enso/ beside the pack: /usr/local/share/doc/enso/docs/loops.md after a default
        'make install'.
        """),
    ManualPage.Section(
        "Examples",
        """
        Judge a folder of bell candidates, best first, and write a report to open in a browser:
          enso bells audition candidates/ --html bells.html
        Check the loop seams of every file under a folder; exit 1 when one fails (for CI):
          enso loops verify ambients/
        Find loop points in a recording and store the best one in the file:
          enso loops find rain.wav --write
        See a session's timeline, then render it to a file:
          enso plan --sit 20m --strikes 3 --repeat 2
          enso render -o session.flac --sit 20m --strikes 3 --repeat 2
        Play a session on the sound card, or give front ends a JSON-lines backend:
          enso play --sit 10m --ambient rain
          enso serve --socket
        Read from a pipe and write to one ('-'):
          sox in.aiff -t wav - | enso info -
          enso convert bell.wav - --format flac > bell.flac
        """),
]

CommandLineTool(root: root, version: ensoVersion, manualSections: manualSections).main()
