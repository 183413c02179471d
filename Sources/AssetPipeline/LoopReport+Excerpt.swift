import AudioCore
import AudioDSP
import Foundation

extension LoopReport {
    /// The audio around one seam, as heard when the loop wraps: the loop's last second, then its first
    /// (less for loops shorter than 2 s), mixed to mono.
    public struct Excerpt: Sendable {
        /// Mono samples: tail, then head.
        public var samples: [Float]
        /// The index in ``samples`` of the loop's first frame (the seam).
        public var seam: Int
        public var sampleRate: Int

        public init(buffer: AudioBuffer, loop: Range<Int>) {
            let side = min(buffer.sampleRate.hertz, loop.count / 2)
            let mono = buffer.slice(frames: (loop.upperBound - side)..<loop.upperBound).monoMix()
                + buffer.slice(frames: loop.lowerBound..<(loop.lowerBound + side)).monoMix()
            samples = mono
            seam = side
            sampleRate = buffer.sampleRate.hertz
        }

        /// An SVG waveform (min/max per pixel column) with the seam marked, `width × height` pixels.
        func waveformSVG(width: Int = 800, height: Int = 120) -> String {
            let mid = Double(height) / 2
            var path = ""
            let n = samples.count
            for x in 0..<width {
                let a = x * n / width
                let b = max(a + 1, (x + 1) * n / width)
                var lo: Float = 0
                var hi: Float = 0
                for i in a..<min(b, n) {
                    lo = min(lo, samples[i])
                    hi = max(hi, samples[i])
                }
                let y1 = mid - Double(max(-1, min(1, hi))) * (mid - 2)
                let y2 = mid - Double(max(-1, min(1, lo))) * (mid - 2)
                path += String(format: "M%d %.1fV%.1f", x, y1, max(y2, y1 + 0.5))
            }
            let seamX = Double(seam) / Double(max(n, 1)) * Double(width)
            let side = String(format: "%.2f s", Double(seam) / Double(sampleRate))
            return """
                <svg xmlns="http://www.w3.org/2000/svg" width="\(width)" height="\(height + 14)" viewBox="0 0 \(width) \(height + 14)">\
                <rect width="\(width)" height="\(height)" fill="#10141a"/>\
                <line x1="0" y1="\(mid)" x2="\(width)" y2="\(mid)" stroke="#2a3340"/>\
                <path d="\(path)" stroke="#7fb7e6" stroke-width="1" fill="none"/>\
                <line x1="\(String(format: "%.1f", seamX))" y1="0" x2="\(String(format: "%.1f", seamX))" y2="\(height)" stroke="#e0564a" stroke-width="1.5"/>\
                <text x="2" y="\(height + 12)" font-size="11" fill="#666">−\(side) (loop end)</text>\
                <text x="\(String(format: "%.1f", seamX - 14))" y="\(height + 12)" font-size="11" fill="#e0564a">seam</text>\
                <text x="\(width - 110)" y="\(height + 12)" font-size="11" fill="#666">+\(side) (loop start)</text>\
                </svg>
                """
        }

        /// A spectrogram PNG (time across, frequency up on a log scale from 40 Hz, 70 dB of range), base64.
        func spectrogramPNG(columns: Int = 400, rows: Int = 128) -> String {
            let size = 1024
            guard samples.count >= size else { return "" }
            let fft = RealFFT.pooled(size: size)
            defer { RealFFT.recycle(fft) }
            let window = HannWindow.shared(size)
            let bins = size / 2 + 1
            let nyquist = Double(sampleRate) / 2
            let lowHz = 40.0
            var db = [Float](repeating: -200, count: columns * rows)
            var frame = [Float](repeating: 0, count: size)
            var power = [Float](repeating: 0, count: bins)
            var loudest: Float = -200
            for col in 0..<columns {
                let start = (samples.count - size) * col / max(columns - 1, 1)
                for i in 0..<size { frame[i] = samples[start + i] * window[i] }
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
            var withSeam = pixels
            let seamCol = Int(Double(seam - size / 2) / Double(max(samples.count - size, 1)) * Double(columns - 1))
            if (0..<columns).contains(seamCol) { for r in stride(from: 0, to: rows, by: 4) { withSeam[r * columns + seamCol] = 255 } }
            let png = PNG.encode(width: columns, height: rows, pixels: withSeam, palette: LoopReport.palette)
            return Data(png).base64EncodedString()
        }
    }

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
