import Foundation

/// The one CSV writer of the CLI (docs/cli.md): RFC 4180, a header line, camelCase column names.
///
/// A column is named as the JSON key that carries the same value (`integratedPadded`, `dcOffset`,
/// `satSeconds`), so CSV and JSON share one vocabulary. Cells holding a comma, a quote, a carriage return or a
/// newline are quoted, quotes doubled; an absent value is an empty cell. Lines end in `\n`.
///
/// - Thread safety: a value type; any thread.
public struct CSVTable: Sendable {
    public private(set) var headers: [String]
    public private(set) var rows: [[String]] = []

    /// A table with these column names.
    ///
    /// - Precondition: every header is camelCase (``isCamelCase(_:)``): a header in another case is a
    ///   programmer error.
    public init(headers: [String]) {
        for h in headers { precondition(Self.isCamelCase(h), "CSV header '\(h)' is not camelCase") }
        self.headers = headers
    }

    /// Appends one row.
    ///
    /// - Precondition: `row` has one cell per column.
    public mutating func append(_ row: [String]) {
        precondition(row.count == headers.count, "row has \(row.count) cells, the CSV has \(headers.count) columns")
        rows.append(row)
    }

    /// The CSV text, header first, without a final newline (``Terminal/out(_:)`` adds it).
    public func render() -> String {
        ([headers] + rows).map { $0.map(Self.field).joined(separator: ",") }.joined(separator: "\n")
    }

    /// Whether `name` is camelCase: an ASCII lowercase letter, then ASCII letters and digits only.
    public static func isCamelCase(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
        }
    }

    /// One cell, quoted when it must be.
    static func field(_ s: String) -> String {
        guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else {
            return s
        }
        return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
