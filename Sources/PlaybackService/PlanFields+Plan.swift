import AudioCore
import AudioEngine
import ControlProtocol
import JSONText

extension PlanFields {
    /// The plan these fields ask for, read through the table of plan fields (``SessionPlan/fields``) and checked
    /// with the engine's own validation: the CLI's ranges, with the protocol's names in the messages.
    ///
    /// - Throws: `invalid-field` naming the field: a wrong type, `sitting` missing, a value out of range.
    func plan() throws(ProtocolError) -> SessionPlan {
        let request = Request(command: "start", fields: values)
        guard request.value("sitting") != nil else { throw .invalidField("sitting", "is required (seconds per cycle)") }
        var raw = SessionPlan.RawValues()
        for spec in SessionPlan.fields {
            if let value = try Self.value(of: spec, in: request) { spec.set(value, in: &raw) }
        }
        do { return try SessionPlan.validated(raw) } catch { throw SessionController.invalid(error) }
    }

    /// The field's value as the request gave it, after the protocol's syntax for its kind; `nil` when absent.
    private static func value(of spec: SessionPlan.FieldSpec, in request: Request) throws(ProtocolError)
        -> SessionPlan.Value?
    {
        let key = spec.key
        let any = -Double.greatestFiniteMagnitude...Double.greatestFiniteMagnitude
        switch spec.kind {
        case .seconds, .duration, .gain: return try request.number(key, in: any).map { .number($0) }
        case .count: return try request.integer(key, in: Int(-1e9)...Int(1e9)).map { .count($0) }
        case .asset: return try request.string(key).map { .text($0) }
        case .durations:
            guard let v = request.value(key) else { return nil }
            guard let items = v.arrayValue else {
                throw .invalidField(key, "must be an array of numbers (seconds), not \(v.typeName)")
            }
            // The element at fault, by its index (as `bells[i]` is named).
            if let i = items.firstIndex(where: { $0.numberValue == nil }) {
                throw .invalidField("\(key)[\(i)]", "must be a number (seconds), not \(items[i].typeName)")
            }
            return .numbers(items.compactMap(\.numberValue))
        case .repeatMode:
            guard let v = request.value(key) else { return nil }
            if let n = v.numberValue, n == n.rounded(), abs(n) < 1e9 { return .repeatMode(.times(Int(n))) }
            // A number that is no count here: too large (1e20), in the words of a count out of its range, or not
            // whole (2.5).
            if let n = v.numberValue {
                let message =
                    n == n.rounded()
                    ? "\(key) \(NumberText.plain(n)) is outside \(SessionPlan.timesRange)"
                    : "\(key) \(NumberText.plain(n)) is not a whole count of cycles (\(SessionPlan.timesRange))"
                throw ProtocolError(.invalidField, message, field: key)
            }
            guard let text = v.stringValue else {
                throw .invalidField(key, "must be once, forever, a count or until=HH:MM[:SS], not \(v.typeName)")
            }
            do { return .repeatMode(try SessionPlan.Repeat.parse(text)) } catch {
                throw ProtocolError(.invalidField, error.message(.protocol), field: key)
            }
        }
    }

    /// The plan as started, every field resolved (the table's protocol keys and values): what `session.started` and
    /// `status` carry.
    init(resolved plan: SessionPlan, stopBell: Bool?) {
        var values: [String: JSONValue] = [:]
        for spec in SessionPlan.fields {
            switch spec.value(in: plan) {
            case .number(let v): values[spec.key] = .number(v)
            case .count(let n): values[spec.key] = .number(Double(n))
            case .text(let t): values[spec.key] = .string(t)
            case .numbers(let a): values[spec.key] = .array(a.map { .number($0) })
            case .repeatMode(let r): values[spec.key] = .string(r.description)
            case .none: break
            }
        }
        self.init(values: values, stopBell: stopBell ?? true)
    }
}
