import AudioEngine
import Testing

/// The one reading of a sound's name (``AssetName``): an empty name is refused for a bell and for a theme alike,
/// `none` is a theme's silence, and the plan's fields read through it.
@Suite struct AssetNameTests {
    @Test func anEmptyNameIsRefusedAndNoneIsSilenceForATheme() throws {
        #expect(try AssetName.theme("none") == nil)
        #expect(try AssetName.theme("rain") == "rain")
        #expect(try AssetName.bell("none") == "none")
        #expect(throws: AssetName.Refusal(silenceAllowed: true)) { try AssetName.theme("") }
        #expect(throws: AssetName.Refusal(silenceAllowed: false)) { try AssetName.bell("") }
        // Exactly `none`: another spelling is a name (an id or a file), as docs/engine.md writes `--ambient none`.
        #expect(try AssetName.theme("NONE") == "NONE")
    }

    /// An empty `ambient` was taken as no ambient while an empty `bell` was refused: both are refused now, naming
    /// the field, and the message says how to ask for silence where a theme is named.
    @Test(arguments: [
        (
            SessionPlan.RawValues(ambient: ""), SessionPlan.Field.ambient,
            "ambient is empty: an empty id names no asset; give an asset id, a sound file or none for silence"
        ),
        (
            SessionPlan.RawValues(bell: ""), .bell,
            "bell is empty: an empty id names no asset; give an asset id or a sound file"
        ),
    ])
    func thePlanRefusesAnEmptyName(raw: SessionPlan.RawValues, field: SessionPlan.Field, message: String) {
        #expect(
            performing: { try SessionPlan.validated(raw) },
            throws: { ($0 as? PlanValidationError).map { $0.field == field && $0.message == message } ?? false })
        // The command line names its option: `--ambient is empty: …`.
        let option = "--" + SessionPlan.spec(field).option
        #expect(
            performing: { try SessionPlan.validated(raw) },
            throws: { ($0 as? PlanValidationError)?.message(.cli).hasPrefix(option + " is empty: ") ?? false })
    }

    @Test func anIntervalBellNamedEmptyIsRefused() {
        var raw = SessionPlan.RawValues(sitting: 60)
        raw.interval = 10
        raw.intervalBell = ""
        #expect(
            performing: { try SessionPlan.validated(raw) },
            throws: { ($0 as? PlanValidationError)?.field == .intervalBell })
    }

    @Test func noneAndAnAbsentAmbientAreNoAmbient() throws {
        #expect(try SessionPlan.validated(.init(ambient: "none")).ambient == nil)
        #expect(try SessionPlan.validated(.init()).ambient == nil)
        #expect(try SessionPlan.validated(.init(ambient: "rain")).ambient == "rain")
    }
}
