/// A plan value that was rejected before it reached ``SessionPlan``: which field, and why.
///
/// Front ends (the CLI, the JSON protocol) call ``SessionPlan/validated(_:)`` with raw values; the first
/// out-of-range value throws one of these. `message` is a full sentence naming the field and its range, ready
/// to show to a person, for example `"strikes 4 is outside 1...3"`.
///
/// - Thread safety: value type, any thread.
public struct PlanValidationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The field that was rejected.
    public var field: SessionPlan.Field
    /// A sentence naming the field, the value and the accepted range.
    public var message: String

    public init(field: SessionPlan.Field, message: String) {
        self.field = field
        self.message = message
    }

    public var description: String { message }
}
