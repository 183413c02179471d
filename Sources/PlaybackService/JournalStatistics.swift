import ControlProtocol
import Foundation

/// Plain figures over journal records: sessions, total sat time per day and per week, the longest sitting.
///
/// No scores, no streaks: a front end builds those if it wants to. Days and weeks are calendar days and
/// ISO weeks (Monday first) in `timeZone`.
///
/// - Thread safety: value type, any thread.
public struct JournalStatistics: Sendable, Equatable {
    /// Sat time of one day or week; encodes as `enso sessions stats --json` lists it.
    public struct Period: Sendable, Equatable, Encodable {
        /// `2026-11-29` for a day, `2026-W48` for a week.
        public var label: String
        public var sessions: Int
        public var satSeconds: Double
    }

    public var sessions: Int
    public var totalSatSeconds: Double
    /// The record with the most sat time, if any.
    public var longest: SessionRecord?
    /// Days with sat time, oldest first.
    public var days: [Period]
    /// ISO weeks with sat time, oldest first.
    public var weeks: [Period]
    public var unsynced: Int

    /// Computes the figures of `records` in `timeZone`.
    public init(records: [SessionRecord], timeZone: TimeZone = .current) {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = timeZone
        sessions = records.count
        totalSatSeconds = records.reduce(0) { $0 + $1.satSeconds }
        longest = records.max { $0.satSeconds < $1.satSeconds }
        unsynced = records.filter { !$0.syncedToHealth }.count
        var days: [String: Period] = [:]
        var weeks: [String: Period] = [:]
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        for r in records {
            guard let date = ProtocolTime.parse(r.start) else { continue }
            let d = calendar.dateComponents([.year, .month, .day, .yearForWeekOfYear, .weekOfYear], from: date)
            let day = "\(d.year!)-\(two(d.month!))-\(two(d.day!))"
            let week = "\(d.yearForWeekOfYear!)-W\(two(d.weekOfYear!))"
            days[day, default: Period(label: day, sessions: 0, satSeconds: 0)].sessions += 1
            days[day]!.satSeconds += r.satSeconds
            weeks[week, default: Period(label: week, sessions: 0, satSeconds: 0)].sessions += 1
            weeks[week]!.satSeconds += r.satSeconds
        }
        self.days = days.values.sorted { $0.label < $1.label }
        self.weeks = weeks.values.sorted { $0.label < $1.label }
    }
}
