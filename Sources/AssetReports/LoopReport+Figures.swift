import AssetPipeline
import AudioCore
import Foundation

extension SeamExcerpt {
    /// ±5 ms around the seam on one time axis: the loop's end (before 0) and its start (after 0) in two colours,
    /// each continued dashed by what the file holds past that loop point. Where the two solid traces meet at 0 is
    /// what the ear gets: a step or a phase jump is plain here, invisible at ±1 s. Shows the channel that breaks
    /// most (``worstChannel``), auto-scaled to the traces' peak.
    func closeUpSVG() -> String {
        let ch = worstChannel
        let x = Array(audio.channel(ch))
        let n = min(Int(Self.closeUpSeconds * Double(sampleRate)) + 1, seam)
        let ms = 1000 / Double(sampleRate)
        let end = (0..<n).map { i in (Double(i - n + 1) * ms, Double(x[seam - n + i])) }
        let start = (0..<n).map { i in (Double(i) * ms, Double(x[seam + i])) }
        let after = afterEnd[ch].enumerated().map { (Double($0.offset + 1) * ms, Double($0.element)) }
        let before = beforeStart[ch].enumerated().map {
            (Double($0.offset - beforeStart[ch].count) * ms, Double($0.element))
        }
        let peak = max(1e-6, ([end, start, after, before].flatMap { $0.map { abs($0.1) } }.max() ?? 0) * 1.1)
        var plot = ReportPlot(
            x: .init(-Self.closeUpSeconds * 1000...Self.closeUpSeconds * 1000, label: "ms from the seam"),
            y: .init(-peak...peak, label: "amplitude"), height: 220)
        if !after.isEmpty { plot.lines.append(.init(points: [end.last!] + after, style: "s0", dashed: true)) }
        if !before.isEmpty { plot.lines.append(.init(points: before + [start.first!], style: "s1", dashed: true)) }
        // The solid "as heard" path: end then start, joined at the seam.
        plot.lines.append(.init(points: end + [start.first!], style: "s0", label: "loop end"))
        plot.lines.append(.init(points: start, style: "s1", label: "loop start"))
        plot.markers = [.init(x: 0)]
        let which = audio.channels > 1 ? ", channel \(ch + 1)" : ""
        plot.description = "the last and first 5 ms of the loop, joined at the seam\(which)"
        return plot.svg(title: "±5 ms: end → start\(which)")
    }

    /// ±1 s around the seam (min/max per column), the amplitude axis scaled to the window's peak so a quiet loop
    /// fills the plot.
    func waveformSVG() -> String {
        let side = min(sampleRate, seam)
        let (band, peak) = ReportFigures.envelope(
            samples, frames: (seam - side)..<(seam + side), sampleRate: sampleRate,
            startSeconds: -Double(seam) / Double(sampleRate))
        let top = max(Double(peak) * 1.1, 1e-6)
        let seconds = Double(side) / Double(sampleRate)
        var plot = ReportPlot(
            x: .init(-seconds...seconds, label: "s from the seam"), y: .init(-top...top, label: "amplitude"))
        plot.bands = [band]
        plot.markers = [.init(x: 0, label: "seam")]
        let db = peak > 0 ? 20 * log10(Double(peak)) : -.infinity
        plot.description = "waveform of the second before and after the seam"
        return plot.svg(
            title: "±\(ReportPage.number(seconds, digits: 1)) s, auto-scaled (peak \(ReportPage.number(db)) dBFS)")
    }

    /// The spectrogram of ±1 s around the seam (``ReportFigures/spectrogram(_:sampleRate:startSeconds:fftSize:columns:rows:lowHz:range:markers:title:)``,
    /// 1024-point frames), seam marked.
    func spectrogramSVG() -> String {
        let side = min(sampleRate, seam)
        return ReportFigures.spectrogram(
            Array(samples[(seam - side)..<(seam + side)]), sampleRate: sampleRate,
            startSeconds: -Double(side) / Double(sampleRate), markers: [.init(x: 0, label: "seam")],
            title: "spectrogram, 70 dB range")
    }
}

extension LoopReport {
    /// A dark-to-bright colour map (black, blue, magenta, orange, yellow-white) of 256 entries.
    static let palette: [(UInt8, UInt8, UInt8)] = (0..<256).map { i in
        let t = Double(i) / 255
        let stops: [(Double, Double, Double)] = [
            (0, 0, 0), (0.1, 0.1, 0.5), (0.6, 0.1, 0.6), (1, 0.55, 0.1), (1, 1, 0.85),
        ]
        let x = t * Double(stops.count - 1)
        let k = min(Int(x), stops.count - 2)
        let f = x - Double(k)
        func mix(_ a: Double, _ b: Double) -> UInt8 { UInt8(max(0, min(255, (a + (b - a) * f) * 255))) }
        return (mix(stops[k].0, stops[k + 1].0), mix(stops[k].1, stops[k + 1].1), mix(stops[k].2, stops[k + 1].2))
    }
}

extension SeamExcerpt {
    /// The seam as the player plays it: the whole excerpt with short fades at its two ends (never at the seam).
    var listening: AudioBuffer { ReportAudio.faded(audio) }
}
