import AudioDSP
import Foundation

extension LoopReport.Excerpt {
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
        let before = beforeStart[ch].enumerated().map { (Double($0.offset - beforeStart[ch].count) * ms, Double($0.element)) }
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
    func waveformSVG(columns: Int = 520) -> String {
        let mono = samples
        let side = min(sampleRate, seam)
        let lo = seam - side
        let count = 2 * side
        var xs: [Double] = []
        var mins: [Double] = []
        var maxs: [Double] = []
        var peak: Float = 0
        for c in 0..<columns {
            let a = lo + c * count / columns
            let b = max(a + 1, lo + (c + 1) * count / columns)
            var mn: Float = 0
            var mx: Float = 0
            for i in a..<min(b, mono.count) {
                mn = min(mn, mono[i])
                mx = max(mx, mono[i])
            }
            peak = max(peak, max(-mn, mx))
            xs.append(Double(a - seam) / Double(sampleRate))
            mins.append(Double(mn))
            maxs.append(Double(mx))
        }
        let top = max(Double(peak) * 1.1, 1e-6)
        let seconds = Double(side) / Double(sampleRate)
        var plot = ReportPlot(x: .init(-seconds...seconds, label: "s from the seam"), y: .init(-top...top, label: "amplitude"))
        plot.bands = [.init(x: xs, low: mins, high: maxs, style: "s0")]
        plot.markers = [.init(x: 0, label: "seam")]
        let db = peak > 0 ? 20 * log10(Double(peak)) : -.infinity
        plot.description = "waveform of the second before and after the seam"
        return plot.svg(title: "±\(ReportPage.number(seconds, digits: 1)) s, auto-scaled (peak \(ReportPage.number(db)) dBFS)")
    }

    /// The spectrogram of ±1 s around the seam: time across, frequency up on a log axis from 40 Hz to Nyquist,
    /// 70 dB of range below the loudest cell; seam marked.
    func spectrogramSVG(columns: Int = 360, rows: Int = 120) -> String {
        let size = 1024
        let mono = samples
        let side = min(sampleRate, seam)
        let window = Array(mono[(seam - side)..<(seam + side)])
        guard window.count >= size else { return "" }
        let fft = RealFFT.pooled(size: size)
        defer { RealFFT.recycle(fft) }
        let hann = HannWindow.shared(size)
        let bins = size / 2 + 1
        let nyquist = Double(sampleRate) / 2
        let lowHz = 40.0
        var db = [Float](repeating: -200, count: columns * rows)
        var frame = [Float](repeating: 0, count: size)
        var power = [Float](repeating: 0, count: bins)
        var loudest: Float = -200
        for col in 0..<columns {
            let start = (window.count - size) * col / max(columns - 1, 1)
            for i in 0..<size { frame[i] = window[start + i] * hann[i] }
            frame.withUnsafeBufferPointer { f in
                power.withUnsafeMutableBufferPointer { p in fft.powerSpectrum(f.baseAddress!, into: p.baseAddress!) }
            }
            for row in 0..<rows {
                // Row 0 is the top (highest frequency); bands are log-spaced from 40 Hz to Nyquist.
                let f0 = lowHz * pow(nyquist / lowHz, Double(rows - 1 - row) / Double(rows))
                let f1 = lowHz * pow(nyquist / lowHz, Double(rows - row) / Double(rows))
                let b0 = min(bins - 1, Int(f0 / nyquist * Double(bins - 1)))
                let b1 = min(bins, max(b0 + 1, Int(f1 / nyquist * Double(bins - 1))))
                var s: Float = 0
                for k in b0..<b1 { s = max(s, power[k]) }
                let v = 10 * log10(max(s, 1e-20))
                db[row * columns + col] = v
                loudest = max(loudest, v)
            }
        }
        let pixels = db.map { v -> UInt8 in UInt8(max(0, min(255, (v - (loudest - 70)) / 70 * 255))) }
        let png = Data(LoopReport.PNG.encode(width: columns, height: rows, pixels: pixels, palette: LoopReport.palette))
        // Column c is centred on frame start + size/2 of the window.
        let seconds = Double(side) / Double(sampleRate)
        let half = Double(size / 2) / Double(sampleRate)
        var plot = ReportPlot(
            x: .init((-seconds + half)...(seconds - half), label: "s from the seam", ticks: ReportPlot.ticks(-seconds...seconds)),
            y: .init(lowHz...nyquist, label: "Hz", log: true))
        plot.imagePNG = png.base64EncodedString()
        plot.markers = [.init(x: 0, label: "seam")]
        plot.description = "spectrogram of the second before and after the seam, log frequency"
        return plot.svg(title: "spectrogram, 70 dB range")
    }
}

extension LoopReport {
    /// A dark-to-bright colour map (black, blue, magenta, orange, yellow-white) of 256 entries.
    static let palette: [(UInt8, UInt8, UInt8)] = (0..<256).map { i in
        let t = Double(i) / 255
        let stops: [(Double, Double, Double)] = [(0, 0, 0), (0.1, 0.1, 0.5), (0.6, 0.1, 0.6), (1, 0.55, 0.1), (1, 1, 0.85)]
        let x = t * Double(stops.count - 1)
        let k = min(Int(x), stops.count - 2)
        let f = x - Double(k)
        func mix(_ a: Double, _ b: Double) -> UInt8 { UInt8(max(0, min(255, (a + (b - a) * f) * 255))) }
        return (mix(stops[k].0, stops[k + 1].0), mix(stops[k].1, stops[k + 1].1), mix(stops[k].2, stops[k + 1].2))
    }
}
