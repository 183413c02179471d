import AudioCore
import AudioEngine

/// Plays strikes of assets at given frames, overlapping where they overlap, through the engine's soft clipper:
/// one strike is a single play, three strikes `spacing` apart are a group, a list of plays one after the other is
/// a whole audition written to a file.
///
/// - Thread safety: built on the control thread, then rendered from the output's render thread only.
/// - Real-time safe: yes (reads the assets' preloaded samples; no allocation in `render`).
final class StrikeListSource: RenderSource {
    /// One strike: `asset` from its first frame, starting at output frame `at`.
    struct Strike {
        var asset: LoadedAsset
        var at: Int
    }

    let channelCount = 2
    private let strikes: [Strike]
    private var position = 0

    init(_ strikes: [Strike]) { self.strikes = strikes }

    /// The frame after which every strike has decayed below -60 dBFS (or ended).
    var length: Int { strikes.map { $0.at + Int($0.asset.decayFrames()) }.max() ?? 0 }

    func render(into buffer: UnsafeMutablePointer<Float>, frames: Int) {
        for i in 0..<(2 * frames) { buffer[i] = 0 }
        for s in strikes {
            let first = max(0, s.at - position)
            let last = min(frames, s.at + s.asset.frameCount - position)
            guard first < last else { continue }
            let right = s.asset.channels > 1 ? 1 : 0
            for i in first..<last {
                let f = position + i - s.at
                buffer[2 * i] += s.asset.sample(channel: 0, frame: f)
                buffer[2 * i + 1] += s.asset.sample(channel: right, frame: f)
            }
        }
        for i in 0..<(2 * frames) { buffer[i] = SoftClipper.process(buffer[i]) }
        position += frames
    }
}
