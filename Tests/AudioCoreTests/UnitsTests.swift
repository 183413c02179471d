import AudioCore
import Testing

@Suite("Units")
struct UnitsTests {
    @Test func sampleRateRange() {
        #expect(SampleRate(0) == nil)
        #expect(SampleRate(768_001) == nil)
        #expect(SampleRate(1)?.hertz == 1)
        #expect(SampleRate(768_000)?.hertz == 768_000)
        #expect(SampleRate.hz44100 < SampleRate.hz48000)
        #expect(SampleRate.hz48000.description == "48000 Hz")
    }

    @Test("seconds round to the nearest frame, frames convert back exactly")
    func conversions() {
        #expect(SampleRate.hz48000.frames(seconds: 1.5) == 72_000)
        #expect(SampleRate.hz44100.frames(seconds: 0.00001) == 0)
        #expect(SampleRate.hz44100.frames(seconds: 0.000012) == 1)
        #expect(SampleRate.hz48000.seconds(frames: 24_000) == 0.5)
        // Int64 frames: 10 days at 768 kHz is far inside the range.
        #expect(SampleRate(checked: 768_000).frames(seconds: 864_000) == 663_552_000_000)
    }

    @Test func channelCountRange() {
        #expect(ChannelCount(0) == nil)
        #expect(ChannelCount(65) == nil)
        #expect(ChannelCount(64)?.count == 64)
        #expect(ChannelCount.mono.description == "mono")
        #expect(ChannelCount.stereo.description == "stereo")
        #expect(ChannelCount(checked: 6).description == "6 channels")
    }

    @Test("an invalid checked rate traps")
    func checkedTraps() async {
        await #expect(processExitsWith: .failure) { _ = SampleRate(checked: 0) }
        await #expect(processExitsWith: .failure) { _ = ChannelCount(checked: 65) }
    }
}
