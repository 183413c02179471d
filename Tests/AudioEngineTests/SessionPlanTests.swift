import AudioEngine
import Testing

@Suite struct SessionPlanTests {
    @Test func settersClampIntoRange() {
        var plan = SessionPlan()
        plan.strikes = 0
        #expect(plan.strikes == 1)
        plan.strikes = 47
        #expect(plan.strikes == 3)
        plan.sitting = -5
        #expect(plan.sitting == 1)
        plan.sitting = 100_000
        #expect(plan.sitting == 86_400)
        plan.strikeSpacing = .nan
        #expect(plan.strikeSpacing == 0.5)
        plan.breath = 61
        #expect(plan.breath == 60)
        plan.masterVolume = 2
        #expect(plan.masterVolume == 1)
        plan.repeatMode = .times(0)
        #expect(plan.repeatMode == .times(1))
        plan.repeatMode = .times(5000)
        #expect(plan.repeatMode == .times(1000))
    }

    @Test func defaultsFollowTheIssue() {
        let plan = SessionPlan()
        #expect(plan.strikeSpacing == 3)
        #expect(plan.breath == 2)
        #expect(plan.fadeIn == 5)
        #expect(plan.fadeOut == 5)
        #expect(plan.repeatMode == .once)
    }

    @Test(arguments: [
        (SessionPlan.RawValues(sitting: 0), SessionPlan.Field.sitting, "sitting 0 s is outside 1 s ... 24 h (86400 s)"),
        (SessionPlan.RawValues(sitting: -3), .sitting, "sitting -3 s is outside 1 s ... 24 h (86400 s)"),
        (SessionPlan.RawValues(strikes: 0), .strikes, "strikes 0 is outside 1...3"),
        (SessionPlan.RawValues(strikes: 4), .strikes, "strikes 4 is outside 1...3"),
        (SessionPlan.RawValues(strikeSpacing: 0.2), .strikeSpacing, "strikeSpacing 0.2 s is outside 0.5...15 s"),
        (SessionPlan.RawValues(breath: -1), .breath, "breath -1 s is outside 0...60 s"),
        (SessionPlan.RawValues(ambientVolume: 1.5), .ambientVolume, "ambientVolume 1.5 is outside 0...1"),
        (SessionPlan.RawValues(fadeOut: .infinity), .fadeOut, "fadeOut inf s is outside 0...600 s"),
        (SessionPlan.RawValues(times: 0), .repeatCount, "repeat count 0 is outside 1...1000"),
        (SessionPlan.RawValues(bell: ""), .bell, "bell id is empty"),
    ])
    func validationRejectsWithFieldAndRange(raw: SessionPlan.RawValues, field: SessionPlan.Field, message: String) {
        #expect(throws: PlanValidationError(field: field, message: message)) { try SessionPlan.validated(raw) }
    }

    @Test func validationKeepsGoodValuesExactly() throws {
        let plan = try SessionPlan.validated(
            .init(sitting: 90, bell: "temple-bell", strikes: 2, strikeSpacing: 4, breath: 0, ambient: "none",
                  masterVolume: 0.5, times: 7))
        #expect(plan.sitting == 90)
        #expect(plan.bell == "temple-bell")
        #expect(plan.strikes == 2)
        #expect(plan.strikeSpacing == 4)
        #expect(plan.breath == 0)
        #expect(plan.ambient == nil)
        #expect(plan.masterVolume == 0.5)
        #expect(plan.repeatMode == .times(7))
    }

    @Test func clockTimeParsing() {
        #expect(ClockTime(parsing: "06:30")?.secondOfDay == 6 * 3600 + 30 * 60)
        #expect(ClockTime(parsing: "23:59:59")?.secondOfDay == 86_399)
        #expect(ClockTime(parsing: "24:00") == nil)
        #expect(ClockTime(parsing: "7") == nil)
        #expect(ClockTime(parsing: "07:60") == nil)
        #expect(ClockTime(parsing: "07:05")?.description == "07:05")
    }
}
