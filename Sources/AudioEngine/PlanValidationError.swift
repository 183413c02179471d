/// A plan value that was rejected before it reached ``SessionPlan``: which field, and why.
///
/// Front ends (the CLI, the JSON protocol) call ``SessionPlan/validated(_:)`` with raw values; the first
/// out-of-range value throws one of these. ``message(_:)`` names the field as that front end spells it
/// (`--volume 1.5 is outside 0...1` on the command line, `volume 1.5 is outside 0...1` in the protocol).
///
/// - Thread safety: value type, any thread.
public struct PlanValidationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The field that was rejected.
    public var field: SessionPlan.Field
    /// What is wrong, after the field's name: `4 is outside 1...3`.
    public var problem: String
    /// A second field the problem names after it (`--interval-at cannot be given with --interval`).
    public var other: SessionPlan.Field?

    public init(field: SessionPlan.Field, problem: String, other: SessionPlan.Field? = nil) {
        self.field = field
        self.problem = problem
        self.other = other
    }

    /// The sentence for `frontEnd`: the field's name there, then the problem.
    public func message(_ frontEnd: SessionPlan.FrontEnd) -> String {
        let name = SessionPlan.spec(field).name(frontEnd)
        return "\(name) \(problem)" + (other.map { " " + SessionPlan.spec($0).name(frontEnd) } ?? "")
    }

    /// The protocol's sentence (its names are the plan's own).
    public var message: String { message(.protocol) }

    public var description: String { message }
}
