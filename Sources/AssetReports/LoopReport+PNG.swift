extension LoopReport {
    /// A minimal PNG encoder for 8-bit palette images (CRC-32 by hand, the image data deflated by zlib), so
    /// reports need no image library. Used for every spectrogram of the reports.
    enum PNG {
        /// Encodes `pixels` (row after row, `width × height` palette indices) with `palette` (RGB triples).
        static func encode(width: Int, height: Int, pixels: [UInt8], palette: [(UInt8, UInt8, UInt8)]) -> [UInt8] {
            precondition(pixels.count == width * height && !palette.isEmpty && palette.count <= 256, "bad PNG input")
            var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            var header: [UInt8] = []
            header += bigEndian(UInt32(width))
            header += bigEndian(UInt32(height))
            header += [8, 3, 0, 0, 0]  // 8 bits, palette colour, deflate, adaptive filter, no interlace
            chunk("IHDR", header, into: &out)
            chunk("PLTE", palette.flatMap { [$0.0, $0.1, $0.2] }, into: &out)
            var raw: [UInt8] = []
            raw.reserveCapacity((width + 1) * height)
            for y in 0..<height {
                let row = pixels[(y * width)..<((y + 1) * width)]
                // Each row as it is (filter type 0, None) or as the difference from the pixel before (type 1, Sub),
                // whichever sums smaller as signed bytes (libpng's heuristic): the spectrograms' palette is a ramp,
                // so a smooth row differences to small numbers that deflate to about a quarter less.
                var sub: [UInt8] = []
                sub.reserveCapacity(width)
                var previous: UInt8 = 0
                var plainCost = 0
                var subCost = 0
                for p in row {
                    let d = p &- previous
                    sub.append(d)
                    plainCost += Int(min(p, 0 &- p))
                    subCost += Int(min(d, 0 &- d))
                    previous = p
                }
                if subCost < plainCost {
                    raw.append(1)
                    raw += sub
                } else {
                    raw.append(0)
                    raw += row
                }
            }
            chunk("IDAT", deflate(raw), into: &out)
            chunk("IEND", [], into: &out)
            return out
        }

        /// zlib's level for the images: its default, 6. On the spectrograms of a 300-bell page, the best (9) takes
        /// five times the CPU of 6 (0.14 s against 0.03 s) to save 5 % of the images' bytes (7 kB of a 5 MB page).
        static let level: Int32 = 6

        /// A zlib stream (RFC 1950) of `data` at ``level``; stored blocks should zlib ever refuse.
        ///
        /// The corresponding C functions are `compressBound` and `compress2`.
        static func deflate(_ data: [UInt8]) -> [UInt8] {
            let capacity = system_compressBound(data.count)
            var out = [UInt8](repeating: 0, count: capacity)
            let (rc, written) = out.withUnsafeMutableBufferPointer { o in
                data.withUnsafeBufferPointer { i in
                    system_compress2(
                        o.baseAddress!, capacity: capacity, i.baseAddress!, count: data.count, level: level)
                }
            }
            guard rc == zlibOK else { return zlibStored(data) }
            return Array(out.prefix(written))
        }

        /// A zlib stream of stored deflate blocks (RFC 1950/1951).
        static func zlibStored(_ data: [UInt8]) -> [UInt8] {
            var out: [UInt8] = [0x78, 0x01]
            var offset = 0
            repeat {
                let n = min(65_535, data.count - offset)
                let last: UInt8 = offset + n == data.count ? 1 : 0
                out.append(last)
                out += [UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
                out += data[offset..<(offset + n)]
                offset += n
            } while offset < data.count
            out += bigEndian(adler32(data))
            return out
        }

        static func adler32(_ data: [UInt8]) -> UInt32 {
            var a: UInt32 = 1
            var b: UInt32 = 0
            for byte in data {
                a = (a + UInt32(byte)) % 65_521
                b = (b + a) % 65_521
            }
            return (b << 16) | a
        }

        static let crcTable: [UInt32] = (0..<256).map { n -> UInt32 in
            var c = UInt32(n)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            return c
        }

        static func crc32(_ bytes: [UInt8]) -> UInt32 {
            var c: UInt32 = 0xFFFF_FFFF
            for b in bytes { c = crcTable[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
            return c ^ 0xFFFF_FFFF
        }

        private static func chunk(_ type: String, _ data: [UInt8], into out: inout [UInt8]) {
            out += bigEndian(UInt32(data.count))
            let typed = Array(type.utf8) + data
            out += typed
            out += bigEndian(crc32(typed))
        }

        private static func bigEndian(_ v: UInt32) -> [UInt8] {
            [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
        }
    }
}
