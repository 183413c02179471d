import AudioTestSupport
import Foundation
import Testing

@testable import AssetPipeline

/// The metrics as `enso bells audition --json` writes them: one flat object, the decay's keys beside the others.
@Suite struct BellAuditionMetricsTests {
    @Test func theDecayIsEncodedFlatAndReadBack() throws {
        let r = BellAudition.audition(BellSignals.bell(seconds: 3, channels: 1), file: "x.wav", profile: .temple)
        let m = try #require(r.metrics)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(m)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["decay"] == nil && object["sound"] == nil, "\(object.keys.sorted())")
        for key in ["peakTime", "d20", "cutLevel", "ringingAtEnd", "duration", "attack", "partials", "loudness"] {
            #expect(object[key] != nil, "\(key) is not a top-level key")
        }
        let back = try JSONDecoder().decode(BellAuditionMetrics.self, from: data)
        #expect(back.sound == m.sound && back.d40 == m.d40 && back.cutLevel == m.cutLevel)
        #expect(try encoder.encode(back) == data)
    }
}
