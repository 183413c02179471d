import AudioCore
import Testing

@testable import AudioFile

@Suite("ChannelMapper")
struct ChannelMapperTests {
    let stereo = AudioBuffer(channelData: [[1, 0.5, -1], [0, 0.5, 1]], sampleRate: .hz48000)

    @Test func monoToStereoDuplicates() {
        let mono = AudioBuffer(channelData: [[0.25, -0.5]], sampleRate: .hz48000)
        let out = ChannelMapper.map(mono, to: .stereo)
        #expect(out.channels == 2)
        #expect(Array(out.channel(0)) == [0.25, -0.5])
        #expect(Array(out.channel(1)) == [0.25, -0.5])
    }

    @Test func stereoToMonoAverages() {
        let out = ChannelMapper.map(stereo, to: .mono)
        #expect(out.samples == [0.5, 0.5, 0])
        #expect(out.sampleRate == .hz48000)
    }

    @Test func sameCountIsUnchanged() {
        #expect(ChannelMapper.map(stereo, to: .stereo) == stereo)
    }

    @Test("other counts keep the first channels and add silence")
    func otherCounts() {
        let quad = ChannelMapper.map(stereo, to: ChannelCount(checked: 4))
        #expect(quad.channels == 4)
        #expect(Array(quad.channel(1)) == [0, 0.5, 1])
        #expect(Array(quad.channel(3)) == [0, 0, 0])
        let back = ChannelMapper.map(quad, to: .stereo)
        #expect(back == stereo)
        let monoToQuad = ChannelMapper.map(
            AudioBuffer(channelData: [[0.5]], sampleRate: .hz48000), to: ChannelCount(checked: 4))
        #expect(monoToQuad.samples == [0.5, 0.5, 0.5, 0.5])
    }

    /// A buffer whose channel `k` holds a unit impulse on frame `k`: frame `k` of a fold shows channel `k`'s gains.
    static func impulses(_ n: Int) -> AudioBuffer {
        AudioBuffer(channelData: (0..<n).map { k in (0..<n).map { $0 == k ? 1 : 0 } }, sampleRate: .hz48000)
    }

    @Test("5.1 folds to stereo by ITU-R BS.775: L + 0.707 C + 0.707 Ls, R + 0.707 C + 0.707 Rs, no LFE")
    func fiveOneFoldsByBS775() {
        let c: Float = 0.707_106_77
        let out = ChannelMapper.map(Self.impulses(6), to: .stereo)
        #expect(out.channels == 2)
        #expect(Array(out.channel(0)) == [1, 0, c, 0, c, 0])
        #expect(Array(out.channel(1)) == [0, 1, c, 0, 0, c])
        // To mono: the mean of that pair.
        let mono = ChannelMapper.map(Self.impulses(6), to: .mono)
        #expect(Array(mono.channel(0)) == [0.5, 0.5, c, 0, c / 2, c / 2])
    }

    @Test("quad folds its surrounds into their sides at -3 dB")
    func quadFolds() {
        let c: Float = 0.707_106_77
        let out = ChannelMapper.map(Self.impulses(4), to: .stereo)
        #expect(Array(out.channel(0)) == [1, 0, c, 0])
        #expect(Array(out.channel(1)) == [0, 1, 0, c])
    }

    @Test("a count with no standard layout pans its channels left to right at equal power")
    func otherLayoutsPanAtEqualPower() {
        let out = ChannelMapper.map(Self.impulses(7), to: .stereo)
        for k in 0..<7 {
            let l = out[0, k]
            let r = out[1, k]
            // Equal power: l² + r² = 1 for every channel (float rounding of cos and sin: 1e-6).
            #expect(abs(l * l + r * r - 1) < 1e-6, "channel \(k)")
            if k > 0 { #expect(r > out[1, k - 1], "channel \(k) sits right of channel \(k - 1)") }
        }
        #expect(out[0, 0] == 1 && out[1, 0] == 0)
        #expect(abs(out[0, 6]) < 1e-7 && out[1, 6] == 1)
    }
}
