import Foundation

/// What to do with a candidate:
///
/// - `keep`: bell-like, no defect;
/// - `fix`: bell-like with fixable defects only (each names the command that mends it);
/// - `listen`: ambiguous: decide by ear;
/// - `reject`: notification-like, or a defect that spoils the recording;
/// - `error`: the file could not be decoded (or has more than 2 channels, or no sound at all).
///
/// Rank order is keep, fix, listen, reject, error.
public enum BellAuditionVerdict: String, Sendable, Codable, CaseIterable {
    case keep, fix, listen, reject, error

    /// The position in the ranking.
    public var rank: Int { Self.allCases.firstIndex(of: self)! }

    /// Whether a candidate with this verdict is worth keeping: `keep` or `fix` (a bell-like sound without a
    /// spoiling defect).
    public var passes: Bool { self == .keep || self == .fix }

    /// The verdict of a candidate of class `bellClass` with `defects`.
    public static func of(_ bellClass: BellClass, defects: [BellDefect]) -> Self {
        if defects.contains(where: { $0.severity == .reject }) { return .reject }
        switch bellClass {
        case .notificationLike: return .reject
        case .ambiguous: return .listen
        case .bellLike: return defects.isEmpty ? .keep : .fix
        }
    }
}
