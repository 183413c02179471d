import AudioCore
import AudioEngine

/// Plays an asset once from its first frame, then silence.
///
/// - Thread safety: rendered from the output's render thread only.
/// - Real-time safe: yes (reads the asset's preloaded samples).
final class OneShotSource: RenderSource {
    let channelCount = 2
    private let asset: LoadedAsset
    private let gain: Float
    private var position = 0

    init(_ asset: LoadedAsset, gain: Float) {
        self.asset = asset
        self.gain = gain
    }

    func render(into buffer: UnsafeMutablePointer<Float>, frames: Int) {
        let right = asset.channels > 1 ? 1 : 0
        for i in 0..<frames {
            let f = position + i
            if f < asset.frameCount {
                buffer[2 * i] = gain * asset.sample(channel: 0, frame: f)
                buffer[2 * i + 1] = gain * asset.sample(channel: right, frame: f)
            } else {
                buffer[2 * i] = 0
                buffer[2 * i + 1] = 0
            }
        }
        position += frames
    }
}
