import Foundation

/// Wall-clock times as the protocol writes them: ISO 8601 in UTC with milliseconds (`2026-11-29T18:31:25.123Z`).
///
/// - Thread safety: stateless; any thread.
public enum ProtocolTime {
    /// Formats `date` (rounded down to the millisecond).
    public static func format(_ date: Date) -> String {
        let totalMs = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        var seconds = time_t(totalMs >= 0 ? totalMs / 1000 : (totalMs - 999) / 1000)
        let ms = Int(totalMs - Int64(seconds) * 1000)
        var t = tm()
        gmtime_r(&seconds, &t)
        func pad(_ v: Int32, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return "\(pad(t.tm_year + 1900, 4))-\(pad(t.tm_mon + 1, 2))-\(pad(t.tm_mday, 2))T"
            + "\(pad(t.tm_hour, 2)):\(pad(t.tm_min, 2)):\(pad(t.tm_sec, 2)).\(pad(Int32(ms), 3))Z"
    }

    /// Parses the format ``format(_:)`` writes (also without milliseconds); `nil` otherwise.
    public static func parse(_ text: String) -> Date? {
        let u = Array(text.utf8)
        guard u.count == 20 || u.count == 24, u.last == UInt8(ascii: "Z") else { return nil }
        func num(_ from: Int, _ count: Int) -> Int? {
            var v = 0
            for i in from..<(from + count) {
                guard u[i] >= 48 && u[i] <= 57 else { return nil }
                v = v * 10 + Int(u[i] - 48)
            }
            return v
        }
        let seps: [(Int, UInt8)] = [(4, 45), (7, 45), (10, 84), (13, 58), (16, 58)]
        guard seps.allSatisfy({ u[$0.0] == $0.1 }) else { return nil }
        guard let y = num(0, 4), let mo = num(5, 2), let d = num(8, 2), let h = num(11, 2), let mi = num(14, 2),
            let s = num(17, 2), (1...12).contains(mo), (1...31).contains(d), h < 24, mi < 60, s < 61
        else { return nil }
        var ms = 0
        if u.count == 24 {
            guard u[19] == 46, let v = num(20, 3) else { return nil }
            ms = v
        }
        var t = tm()
        t.tm_year = Int32(y - 1900)
        t.tm_mon = Int32(mo - 1)
        t.tm_mday = Int32(d)
        t.tm_hour = Int32(h)
        t.tm_min = Int32(mi)
        t.tm_sec = Int32(s)
        let epoch = timegm(&t)
        return Date(timeIntervalSince1970: Double(epoch) + Double(ms) / 1000)
    }
}
