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
    ///
    /// Sat time is summed at the journal's precision (``ControlProtocol/SessionRecord/units(_:)``: whole
    /// milliseconds), so a total reads as the records do: 10.121 s and 11.454 s make 21.575 s, not the
    /// 21.575000000000003 that adding the seconds gives.
    public init(records: [SessionRecord], timeZone: TimeZone = .current) {
        var calendar = Calendar(identifier: .iso8601)
        calendar.timeZone = timeZone
        sessions = records.count
        totalSatSeconds = SessionRecord.seconds(units: records.reduce(0) { $0 + SessionRecord.units($1.satSeconds) })
        longest = records.max { $0.satSeconds < $1.satSeconds }
        unsynced = records.filter { !$0.syncedToHealth }.count
        // Per label: sessions and sat time in the journal's units.
        var days: [String: (sessions: Int, units: Double)] = [:]
        var weeks: [String: (sessions: Int, units: Double)] = [:]
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        for r in records {
            guard let date = ProtocolTime.parse(r.start) else { continue }
            let d = calendar.dateComponents([.year, .month, .day, .yearForWeekOfYear, .weekOfYear], from: date)
            let day = "\(d.year!)-\(two(d.month!))-\(two(d.day!))"
            let week = "\(d.yearForWeekOfYear!)-W\(two(d.weekOfYear!))"
            let units = SessionRecord.units(r.satSeconds)
            days[day, default: (0, 0)].sessions += 1
            days[day]!.units += units
            weeks[week, default: (0, 0)].sessions += 1
            weeks[week]!.units += units
        }
        func periods(_ sums: [String: (sessions: Int, units: Double)]) -> [Period] {
            sums.map {
                Period(
                    label: $0.key, sessions: $0.value.sessions, satSeconds: SessionRecord.seconds(units: $0.value.units)
                )
            }
            .sorted { $0.label < $1.label }
        }
        self.days = periods(days)
        self.weeks = periods(weeks)
    }
}
