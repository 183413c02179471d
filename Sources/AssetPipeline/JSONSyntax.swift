import Foundation

/// Where JSON text that does not parse goes wrong, for messages about a file people edit by hand (a pack's
/// `manifest.json`, a loop sidecar, a bell profile): `JSONDecoder` says only "The given data was not valid JSON.".
enum JSONSyntax {
    /// "not valid JSON at line L, column C (what the parser says)" for `data` that does not parse, `nil` when it
    /// parses or the parser names no place. The place is the parser's ("around character N", a byte offset into the
    /// UTF-8 text), counted into lines and columns (a column in bytes: a character for ASCII text).
    static func problem(in data: Data) -> String? {
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return nil
        } catch {
            let said = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? ""
            guard let range = said.range(of: #"around character [0-9]+"#, options: .regularExpression),
                let offset = Int(said[range].split(separator: " ").last ?? "")
            else { return nil }
            var line = 1
            var column = 1
            for byte in data.prefix(offset) {
                if byte == UInt8(ascii: "\n") {
                    line += 1
                    column = 1
                } else {
                    column += 1
                }
            }
            let what = said[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
            return "not valid JSON at line \(line), column \(column)" + (what.isEmpty ? "" : " (\(what.lowercased()))")
        }
    }

    /// `error`'s words about the field (``Swift/DecodingError/fieldMessage``), or, for text that is not JSON at all,
    /// where it goes wrong (``problem(in:)``).
    static func message(_ error: DecodingError, in data: Data) -> String {
        if case .dataCorrupted(let context) = error, context.codingPath.isEmpty, let problem = problem(in: data) {
            return problem
        }
        return error.fieldMessage
    }
}
