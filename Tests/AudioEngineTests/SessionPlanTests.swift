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

    @Test func theNamedInitializerClampsAsTheSettersDoAndKeepsTheDefaultsForTheRest() {
        let plan = SessionPlan(sitting: 100_000, strikes: 0, fadeIn: 0, repeatMode: .times(5000), intervalStrikes: 9)
        var bySetters = SessionPlan()
        bySetters.sitting = 100_000
        bySetters.strikes = 0
        bySetters.fadeIn = 0
        bySetters.repeatMode = .times(5000)
        bySetters.intervalStrikes = 9
        #expect(plan == bySetters)
        #expect(plan.sitting == 86_400 && plan.strikes == 1 && plan.repeatMode == .times(1000))
        #expect(plan.fadeOut == 5 && plan.bell == SessionPlan.defaultBell && plan.ambient == nil)
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
        (SessionPlan.RawValues(times: 0), .repeatCount, "repeat 0 is outside 1...1000"),
        (
            SessionPlan.RawValues(bell: ""), .bell,
            "bell is empty: an empty id names no asset; give an asset id or a sound file"
        ),
        (SessionPlan.RawValues(sitting: 9e15), .sitting, "sitting 9e+15 s is outside 1 s ... 24 h (86400 s)"),
        (SessionPlan.RawValues(sitting: 1e308), .sitting, "sitting 1e+308 s is outside 1 s ... 24 h (86400 s)"),
        (SessionPlan.RawValues(masterVolume: 1.5), .masterVolume, "volume 1.5 is outside 0...1"),
    ])
    func validationRejectsWithFieldAndRange(raw: SessionPlan.RawValues, field: SessionPlan.Field, message: String) {
        #expect(
            performing: { try SessionPlan.validated(raw) },
            throws: { error in
                (error as? PlanValidationError).map { $0.field == field && $0.message == message } ?? false
            })
    }

    @Test func validationKeepsGoodValuesExactly() throws {
        let plan = try SessionPlan.validated(
            .init(
                sitting: 90, bell: "temple-bell", strikes: 2, strikeSpacing: 4, breath: 0, ambient: "none",
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

/// The table of plan fields: every field has one row, each front end's names are distinct, messages use them, and
/// the one repeat grammar reads what both front ends write.
@Suite struct PlanFieldTableTests {
    @Test func everyFieldHasOneRowWithDistinctNames() {
        #expect(SessionPlan.fields.count == SessionPlan.Field.allCases.count)
        #expect(Set(SessionPlan.fields.map(\.field)) == Set(SessionPlan.Field.allCases))
        #expect(Set(SessionPlan.fields.map(\.option)).count == SessionPlan.fields.count)
        #expect(Set(SessionPlan.fields.map(\.key)).count == SessionPlan.fields.count)
    }

    @Test func messagesNameTheFieldAsEachFrontEndDoes() throws {
        var raw = SessionPlan.RawValues()
        SessionPlan.spec(.masterVolume).set(.number(1.5), in: &raw)
        do {
            _ = try SessionPlan.validated(raw)
            Issue.record("a gain of 1.5 must be refused")
        } catch {
            #expect(error.message(.cli) == "--volume 1.5 is outside 0...1")
            #expect(error.message(.protocol) == "volume 1.5 is outside 0...1")
        }
        raw = SessionPlan.RawValues(strikeSpacing: 20)
        #expect(throws: PlanValidationError.self) { try SessionPlan.validated(raw) }
    }

    @Test func storedValuesReadBackThroughTheTable() throws {
        var raw = SessionPlan.RawValues()
        SessionPlan.spec(.strikeSpacing).set(.number(4), in: &raw)
        SessionPlan.spec(.repeatCount).set(.repeatMode(try SessionPlan.Repeat.parse("until=7:30")), in: &raw)
        SessionPlan.spec(.intervalAt).set(.numbers([600, 300]), in: &raw)
        let plan = try SessionPlan.validated(raw)
        #expect(SessionPlan.spec(.strikeSpacing).value(in: plan) == .number(4))
        #expect(SessionPlan.spec(.repeatCount).value(in: plan) == .repeatMode(.until(ClockTime(hour: 7, minute: 30)!)))
        #expect(SessionPlan.spec(.intervalAt).value(in: plan) == .numbers([300, 600]))
        #expect(SessionPlan.spec(.intervalStrikes).value(in: plan) == .count(1))
        #expect(SessionPlan.spec(.intervalStrikes).value(in: SessionPlan()) == .none, "no interval: not echoed")
        #expect(SessionPlan.spec(.strikes).defaultValue == .count(3))
    }

    @Test(arguments: [
        ("once", SessionPlan.Repeat.once), ("forever", .untilStopped), ("12", .times(12)),
        ("until=7:30", .until(ClockTime(hour: 7, minute: 30)!)),
        ("until=07:30:05", .until(ClockTime(hour: 7, minute: 30, second: 5)!)),
    ])
    func oneRepeatGrammar(text: String, mode: SessionPlan.Repeat) throws {
        #expect(try SessionPlan.Repeat.parse(text) == mode)
    }

    @Test func badRepeatSpellingsSayWhy() {
        for text in ["until=25:00", "until=7:3x", "sometimes", "until="] {
            #expect(throws: PlanValidationError.self, "\(text)") { try SessionPlan.Repeat.parse(text) }
        }
    }
}
