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
}
