import AudioCore
import ControlProtocol
import Foundation
import JSONText

/// Journal records as CSV or JSON for other tools.
///
/// - Thread safety: stateless; any thread.
public enum JournalExport {
    /// The CSV columns, in order (the record's field names). `themes` is the list joined with `;`, each span
    /// `FRAME:THEME` (`0:rain;2880000:none;5760000:stream`: silence is `none`, the word `set` and `themeAt` take for
    /// it), as docs/cli.md joins a list.
    public static let csvColumns = [
        "id", "start", "end", "plannedSeconds", "satSeconds", "cyclesCompleted", "outcome", "bell", "theme",
        "themes", "syncedToHealth",
    ]

    /// RFC 4180 CSV with a header line; empty cells for absent values.
    public static func csv(_ records: [SessionRecord]) -> String {
        var out = csvColumns.joined(separator: ",") + "\n"
        for r in records {
            out += cells(r).map(quote).joined(separator: ",") + "\n"
        }
        return out
    }

    /// One record's CSV cells, in ``csvColumns`` order, unquoted; empty for absent values.
    public static func cells(_ r: SessionRecord) -> [String] {
        [
            r.id, r.start, r.end, r.plannedSeconds.map(number) ?? "", number(r.satSeconds),
            String(r.cyclesCompleted), r.outcome.rawValue, r.bell, r.theme ?? "", themes(r),
            r.syncedToHealth ? "true" : "false",
        ]
    }

    /// The `themes` cell: empty for a sitting without any theme (as the `theme` cell), else every span as
    /// `FRAME:THEME`, silence as `none` (an empty name, `2880000:`, read as a cell cut short), joined with `;`.
    static func themes(_ r: SessionRecord) -> String {
        guard r.themes.contains(where: { $0.theme != nil }) else { return "" }
        return r.themes.map { "\($0.frame):\($0.theme ?? "none")" }.joined(separator: ";")
    }

    /// A number as the journal writes it: to the millisecond (``ControlProtocol/SessionRecord/units(_:)``), as
    /// messages write numbers (``AudioCore/NumberText/plain(_:)``: no trailing `.0`).
    public static func number(_ v: Double) -> String {
        NumberText.plain(SessionRecord.seconds(units: SessionRecord.units(v)))
    }

    private static func quote(_ cell: String) -> String {
        guard cell.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return cell }
        return "\"" + cell.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
