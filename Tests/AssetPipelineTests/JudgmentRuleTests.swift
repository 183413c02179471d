import AudioDSP
import Foundation
import Testing

@testable import AssetPipeline

/// Every judgment rule of every registry, by itself, on hand-built measures (the reference bell with one quantity
/// moved, no audio): just under, at and just over each of its thresholds the rule fires exactly on the side the
/// threshold says. The cases are the registries themselves, so a rule added without thresholds or probes fails here,
/// and a defect kind added without its rule does not build (``BellDefectRules/rule(_:)`` switches over every kind).
@Suite struct JudgmentRuleTests {
    @Test func theReferenceBellIsCleanAndBellLike() {
        let (defects, notes) = BellDefect.detect(BellDefectRule.Measures(.reference))
        #expect(defects.isEmpty && notes.isEmpty)
        let decision = BellClassRules.decision(.reference)
        #expect(decision.bellClass == .bellLike && decision.rule.name == BellClassRules.all.last?.name)
    }

    @Test func everyDefectKindHasOneRuleInItsOrder() {
        #expect(BellDefectRules.all.map(\.kind) == BellDefect.Kind.allCases)
        for rule in BellDefectRules.all {
            #expect((rule.severity == .fixable) == (rule.fix != nil), "\(rule.kind): a fixable defect names its fix")
            #expect(!rule.principle.isEmpty && !rule.when.isEmpty, "\(rule.kind)")
        }
    }

    @Test(arguments: BellDefectRules.all.map(\.kind))
    func defectRuleOnBothSidesOfEachThreshold(_ kind: BellDefect.Kind) {
        let rule = BellDefectRules.rule(kind)
        #expect(!rule.thresholds.isEmpty, "\(kind) has no threshold to test it on")
        for t in rule.thresholds {
            for x in t.probedValues {
                let finding = rule.judge(t.probe(x))
                let defect = finding?.defect
                #expect(
                    (defect?.kind == kind) == t.fires(x),
                    "\(kind): \(t.quantity) = \(x) \(t.unit) (limit \(t.limit)) gave \(String(describing: finding))")
                if let defect {
                    let fix = defect.fix == rule.fix || defect.fix.map(rule.fixes.contains) == true
                    #expect(defect.severity == rule.severity && fix && !defect.evidence.isEmpty, "\(defect)")
                }
            }
        }
        #expect(rule.judge(BellDefectRule.Measures(.reference)) == nil, "\(kind) fires on the clean reference bell")
    }

    @Test func classRulesHaveThresholdsButTheLast() {
        for rule in BellClassRules.all.dropLast() {
            #expect(!rule.thresholds.isEmpty, "class rule \(rule.name) has no threshold to test it on")
        }
        #expect(BellClassRules.all.last?.thresholds.isEmpty == true)
        #expect(Set(BellClassRules.all.map(\.name)).count == BellClassRules.all.count)
    }

    @Test(arguments: BellClassRules.all.map(\.name))
    func classRuleOnBothSidesOfEachThreshold(_ name: String) throws {
        let rule = try #require(BellClassRules.all.first { $0.name == name })
        for t in rule.thresholds {
            for x in t.probedValues {
                let decision = BellClassRules.decision(t.probe(x))
                #expect(
                    (decision.rule.name == name) == t.fires(x),
                    "\(name): \(t.quantity) = \(x) \(t.unit) (limit \(t.limit)) decided by \(decision.rule.name)")
            }
        }
    }

    @Test(arguments: SeamMetrics.Name.allCases)
    func seamRuleOnBothSidesOfEachLimit(_ name: SeamMetrics.Name) {
        let rule = SeamRules.rule(name)
        #expect(SeamRules.all.map(\.name) == SeamMetrics.Name.allCases)
        #expect(rule.thresholds.count == 2 && !rule.principle.isEmpty, "\(name) has no limits to test it on")
        let (warn, fail) = (rule.thresholds[0], rule.thresholds[1])
        for x in warn.probedValues {
            let m = rule.judge(warn.probe(x))
            #expect((m.status != .pass) == warn.fires(x), "\(name) = \(x): \(m)")
            #expect(m.name == name && m.value == x && !m.note.isEmpty, "\(m)")
        }
        for x in fail.probedValues {
            let m = rule.judge(fail.probe(x))
            #expect((m.status == .fail) == fail.fires(x), "\(name) = \(x): \(m)")
        }
    }

    @Test func theReferenceAssetsPassEveryPackRule() {
        for p in [PackRules.referenceBell, PackRules.referenceSoundscape] {
            let findings = PackRules.findings(p)
            #expect(!findings.isEmpty && findings.allSatisfy { $0.status == .pass }, "\(findings)")
        }
    }

    @Test(arguments: PackRules.all.map(\.check))
    func packRuleOnBothSidesOfEachThreshold(_ check: String) throws {
        let rule = try #require(PackRules.all.first { $0.check == check })
        #expect(!rule.thresholds.isEmpty, "\(check) has no threshold to test it on")
        for t in rule.thresholds {
            for x in t.probedValues {
                let findings = rule.judge(t.probe(x))
                let failed = findings.contains { $0.check == check && $0.status > .pass }
                #expect(failed == t.fires(x), "\(check): \(t.quantity) = \(x) \(t.unit) gave \(findings)")
            }
        }
    }

    @Test func dcOffsetHasOneThresholdInEveryCommand() {
        let dc = SignalDefectScan.audibleDCOffset
        #expect(dc == 0.01)
        #expect(BellDefectRules.rule(.dcOffset).thresholds.map(\.limit) == [dc])
        #expect(SeamRules.rule(.dcOffset).limits.pass == dc * 100)
        #expect(PackRules.bellSamples.thresholds.map(\.limit).contains(dc))
    }

    // MARK: - Evidence in words, on hand-built measures

    @Test func channelEvidenceSaysHowMuchTheMonoMixLoses() throws {
        let rule = BellDefectRules.rule(.channel)
        func evidence(_ c: Double) -> String? {
            var m = BellAuditionMetrics.reference
            (m.sound.channelCorrelation, m.sound.channelBalance) = (c, 0)
            return rule.judge(BellDefectRule.Measures(m))?.defect?.evidence
        }
        #expect(
            evidence(-1)?.hasPrefix("channels are inverted copies (correlation -1.00): the mono mix cancels out")
                == true)
        #expect(evidence(-0.6)?.contains("largely out of phase") == true)
        #expect(evidence(-0.6)?.contains("dB quieter than the channels") == true)
    }

    @Test func aCutUnderTheAudibleLevelIsANoteNotADefect() {
        var m = BellAuditionMetrics.reference
        m.decay.ringingAtEnd = true
        (m.decay.cutLevel, m.decay.endLevel, m.decay.endSlope) = (-45, -45, -12)
        let (defects, notes) = BellDefect.detect(BellDefectRule.Measures(m))
        #expect(defects.isEmpty)
        #expect(
            notes == [
                "tail: stops while still sounding 45 dB below its peak (decaying 12 dB/s); quiet enough (under −40 dB) not to be heard as a cut in a quiet room, listen at a high level"
            ])
    }

    /// A value just over its limit is printed with the decimals that show it over: −0.96 dBTP read "−1.0 dBTP (limit
    /// −1 dBTP)", as if at the limit.
    @Test func aTruePeakJustOverItsLimitReadsOverIt() {
        func evidence(_ tp: Double) -> String? {
            var m = BellAuditionMetrics.reference
            m.sound.loudness.truePeak = tp
            return BellDefectRules.rule(.truePeak).judge(BellDefectRule.Measures(m))?.defect?.evidence
        }
        #expect(evidence(-0.96) == "true peak -0.96 dBTP (limit -1 dBTP)")
        #expect(evidence(-0.996) == "true peak -0.996 dBTP (limit -1 dBTP)")
        #expect(evidence(-0.5) == "true peak -0.5 dBTP (limit -1 dBTP)")
        #expect(evidence(2.04) == "true peak 2.0 dBTP (limit -1 dBTP)")
        // A peak a few hundredths under full scale reads at it, without a sign (Debian's hell_growl.ogg read "-0.0").
        #expect(evidence(-0.04) == "true peak 0.0 dBTP (limit -1 dBTP)")
        #expect(evidence(-1) == nil)
    }
}
