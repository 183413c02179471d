/// Parses durations as people type them: `20m`, `90s`, `1h30m`, `1.5s`, `250ms`, or plain seconds (`45`).
public enum DurationParser {
    /// The duration in seconds, or `nil` when `text` is not a duration.
    public static func seconds(_ text: String) -> Double? {
        let s = text.trimmingCharacters(in: " ")
        if s.isEmpty { return nil }
        if let plain = Double(s) { return plain.isFinite ? plain : nil }
        var total = 0.0
        var number = ""
        var unit = ""
        var sawUnit = false
        func flush() -> Bool {
            guard let v = Double(number), v.isFinite else { return false }
            switch unit {
            case "h": total += v * 3600
            case "m", "min": total += v * 60
            case "s": total += v
            case "ms": total += v / 1000
            default: return false
            }
            number = ""
            unit = ""
            sawUnit = true
            return true
        }
        for ch in s {
            if ch.isNumber || ch == "." {
                if !unit.isEmpty { guard flush() else { return nil } }
                number.append(ch)
            } else if ch.isLetter {
                guard !number.isEmpty else { return nil }
                unit.append(ch)
            } else {
                return nil
            }
        }
        guard !number.isEmpty || !unit.isEmpty else { return sawUnit ? total : nil }
        guard flush() else { return nil }
        return total
    }

    /// Formats seconds as `1h02m03s`, `2m05s` or `4.5s`.
    public static func format(_ seconds: Double) -> String {
        if seconds < 60 {
            let r = (seconds * 10).rounded() / 10
            return r == r.rounded() ? "\(Int(r))s" : "\(r)s"
        }
        let total = Int(seconds.rounded())
        let h = total / 3600
        let m = (total % 3600) / 60
        let s = total % 60
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return h > 0 ? "\(h)h\(two(m))m\(two(s))s" : "\(m)m\(two(s))s"
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: Character) -> String {
        var s = Substring(self)
        while s.first == set { s = s.dropFirst() }
        while s.last == set { s = s.dropLast() }
        return String(s)
    }
}
