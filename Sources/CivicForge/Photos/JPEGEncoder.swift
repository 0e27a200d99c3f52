import Foundation

/// An 8-bit RGB image, row-major, three bytes a pixel.
package struct RGBImage: Sendable, Equatable {
    /// Width in pixels.
    package var width: Int
    /// Height in pixels.
    package var height: Int
    /// `width * height * 3` bytes.
    package var pixels: [UInt8]

    /// An image from a pixel function.
    package init(width: Int, height: Int, pixel: (Int, Int) -> (UInt8, UInt8, UInt8)) {
        self.width = width; self.height = height
        var p = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height { for x in 0..<width { let (r, g, b) = pixel(x, y); let i = (y * width + x) * 3; p[i] = r; p[i + 1] = g; p[i + 2] = b } }
        pixels = p
    }

    /// The pixel at (x, y), clamped to the image.
    package func rgb(_ x: Int, _ y: Int) -> (Int, Int, Int) {
        let i = (min(max(y, 0), height - 1) * width + min(max(x, 0), width - 1)) * 3
        return (Int(pixels[i]), Int(pixels[i + 1]), Int(pixels[i + 2]))
    }

    /// The part of the image inside `x, y, w, h`.
    package func cropped(x: Int, y: Int, width w: Int, height h: Int) -> RGBImage {
        RGBImage(width: w, height: h) { px, py in
            let (r, g, b) = rgb(x + px, y + py); return (UInt8(r), UInt8(g), UInt8(b))
        }
    }

    /// Resampled to `w × h` by averaging the source area each output pixel covers.
    package func resized(width w: Int, height h: Int) -> RGBImage {
        let sx = Double(width) / Double(w), sy = Double(height) / Double(h)
        var out = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            let y0 = min(Int(Double(y) * sy), height - 1), y1 = min(max(y0 + 1, Int(Double(y + 1) * sy)), height)
            for x in 0..<w {
                let x0 = min(Int(Double(x) * sx), width - 1), x1 = min(max(x0 + 1, Int(Double(x + 1) * sx)), width)
                var r = 0, g = 0, b = 0
                for yy in y0..<y1 { for xx in x0..<x1 { let i = (yy * width + xx) * 3; r += Int(pixels[i]); g += Int(pixels[i + 1]); b += Int(pixels[i + 2]) } }
                let n = (y1 - y0) * (x1 - x0), o = (y * w + x) * 3
                out[o] = UInt8(r / n); out[o + 1] = UInt8(g / n); out[o + 2] = UInt8(b / n)
            }
        }
        return RGBImage(width: w, height: h, pixels: out)
    }

    /// An image from its bytes.
    package init(width: Int, height: Int, pixels: [UInt8]) { self.width = width; self.height = height; self.pixels = pixels }
}

/// JPEG constants of ITU T.81 Annex K, shared by the encoder and the inspector.
package enum JPEGTables {
    /// Zig-zag order: the natural index of the n-th coefficient.
    package static let zigzag: [Int] = [
        0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
        35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63
    ]
    /// Table K.1, luminance, natural order.
    package static let luminance: [Int] = [
        16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62,
        18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99
    ]
    /// Table K.2, chrominance, natural order.
    package static let chrominance: [Int] = [
        17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99, 99, 99, 99,
        99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99
    ]

    /// libjpeg's quality scaling (jcparam.c `jpeg_quality_scaling` and `jpeg_add_quant_table`).
    package static func scaled(_ base: [Int], quality: Int) -> [Int] {
        let q = min(max(quality, 1), 100)
        let scale = q < 50 ? 5000 / q : 200 - q * 2
        return base.map { min(max(($0 * scale + 50) / 100, 1), 255) }
    }

    /// Huffman table specifications of K.3: (class, id, BITS, HUFFVAL).
    static let huffman: [(tc: Int, th: Int, bits: [UInt8], values: [UInt8])] = [
        (0, 0, [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0], Array(0...11)),
        (
            1, 0, [0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7d],
            [
                0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07, 0x22, 0x71, 0x14, 0x32, 0x81, 0x91, 0xa1, 0x08,
                0x23, 0x42, 0xb1, 0xc1, 0x15, 0x52, 0xd1, 0xf0, 0x24, 0x33, 0x62, 0x72, 0x82, 0x09, 0x0a, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x25, 0x26, 0x27, 0x28,
                0x29, 0x2a, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59,
                0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89,
                0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4, 0xb5, 0xb6,
                0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda, 0xe1, 0xe2,
                0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf1, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa
            ]
        ),
        (0, 1, [0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0], Array(0...11)),
        (
            1, 1, [0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 0x77],
            [
                0x00, 0x01, 0x02, 0x03, 0x11, 0x04, 0x05, 0x21, 0x31, 0x06, 0x12, 0x41, 0x51, 0x07, 0x61, 0x71, 0x13, 0x22, 0x32, 0x81, 0x08, 0x14, 0x42, 0x91,
                0xa1, 0xb1, 0xc1, 0x09, 0x23, 0x33, 0x52, 0xf0, 0x15, 0x62, 0x72, 0xd1, 0x0a, 0x16, 0x24, 0x34, 0xe1, 0x25, 0xf1, 0x17, 0x18, 0x19, 0x1a, 0x26,
                0x27, 0x28, 0x29, 0x2a, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3a, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58,
                0x59, 0x5a, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6a, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7a, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87,
                0x88, 0x89, 0x8a, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9a, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7, 0xa8, 0xa9, 0xaa, 0xb2, 0xb3, 0xb4,
                0xb5, 0xb6, 0xb7, 0xb8, 0xb9, 0xba, 0xc2, 0xc3, 0xc4, 0xc5, 0xc6, 0xc7, 0xc8, 0xc9, 0xca, 0xd2, 0xd3, 0xd4, 0xd5, 0xd6, 0xd7, 0xd8, 0xd9, 0xda,
                0xe2, 0xe3, 0xe4, 0xe5, 0xe6, 0xe7, 0xe8, 0xe9, 0xea, 0xf2, 0xf3, 0xf4, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9, 0xfa
            ]
        )
    ]

    /// Codes (code, length) by symbol for a BITS/HUFFVAL pair (T.81 Annex C).
    static func codes(bits: [UInt8], values: [UInt8]) -> [UInt8: (code: Int, length: Int)] {
        var out: [UInt8: (code: Int, length: Int)] = [:]
        var code = 0, k = 0
        for len in 1...16 {
            for _ in 0..<Int(bits[len - 1]) { out[values[k]] = (code, len); code += 1; k += 1 }
            code <<= 1
        }
        return out
    }
}

/// A baseline JPEG encoder (ITU T.81: YCbCr 4:4:4, libjpeg-scaled Annex K tables, Annex K Huffman
/// tables, JFIF APP0), Foundation only: the reference processor's output stage and the maker of
/// the suite's camera-like sources (`app1` lets a source carry an Exif segment).
package enum JPEGEncoder {
    /// The JPEG bytes of `image` at libjpeg `quality`, with extra APPn segments (marker, payload)
    /// written after APP0; `subsample` writes 4:2:0 (2×2 luma blocks per MCU, as ImageIO and
    /// libjpeg do by default) and `restartInterval` RSTn markers every that many MCUs.
    package static func encode(
        _ image: RGBImage, quality: Int, segments: [(marker: UInt8, payload: [UInt8])] = [],
        subsample: Bool = false, restartInterval: Int = 0
    ) -> Data {
        let f = subsample ? 2 : 1
        var out: [UInt8] = [0xFF, 0xD8]
        func segment(_ marker: UInt8, _ payload: [UInt8]) {
            out += [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        }
        segment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
        for s in segments { segment(s.marker, s.payload) }
        let tables = [JPEGTables.scaled(JPEGTables.luminance, quality: quality), JPEGTables.scaled(JPEGTables.chrominance, quality: quality)]
        for (i, t) in tables.enumerated() { segment(0xDB, [UInt8(i)] + JPEGTables.zigzag.map { UInt8(t[$0]) }) }
        segment(
            0xC0,
            [
                8, UInt8(image.height >> 8), UInt8(image.height & 0xFF), UInt8(image.width >> 8), UInt8(image.width & 0xFF), 3,
                1, UInt8(f << 4 | f), 0, 2, 0x11, 1, 3, 0x11, 1
            ])
        if restartInterval > 0 { segment(0xDD, [UInt8(restartInterval >> 8), UInt8(restartInterval & 0xFF)]) }
        for h in JPEGTables.huffman { segment(0xC4, [UInt8(h.tc << 4 | h.th)] + h.bits + h.values) }
        segment(0xDA, [3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0])
        let dc = [
            JPEGTables.codes(bits: JPEGTables.huffman[0].bits, values: JPEGTables.huffman[0].values),
            JPEGTables.codes(bits: JPEGTables.huffman[2].bits, values: JPEGTables.huffman[2].values)
        ]
        let ac = [
            JPEGTables.codes(bits: JPEGTables.huffman[1].bits, values: JPEGTables.huffman[1].values),
            JPEGTables.codes(bits: JPEGTables.huffman[3].bits, values: JPEGTables.huffman[3].values)
        ]
        var bitBuffer = 0, bitCount = 0
        func put(_ code: Int, _ length: Int) {
            bitBuffer = (bitBuffer << length) | (code & ((1 << length) - 1)); bitCount += length
            while bitCount >= 8 {
                let byte = UInt8((bitBuffer >> (bitCount - 8)) & 0xFF)
                out.append(byte); if byte == 0xFF { out.append(0) }
                bitCount -= 8
            }
            bitBuffer &= (1 << bitCount) - 1
        }
        func magnitude(_ v: Int) -> (size: Int, bits: Int) {
            var a = abs(v), s = 0
            while a > 0 { s += 1; a >>= 1 }
            return (s, v >= 0 ? v : v + (1 << s) - 1)
        }
        var cosine = [Double](repeating: 0, count: 64) // cosine[x * 8 + u]
        for x in 0..<8 {
            for u in 0..<8 {
                let angle: Double = Double(2 * x + 1) * Double(u) * Double.pi / 16
                cosine[x * 8 + u] = cos(angle) * (u == 0 ? 1 / 2.0.squareRoot() : 1) / 2
            }
        }
        // Level-shifted Y, Cb, Cr planes, padded to whole MCUs by repeating the last row and column;
        // with 4:2:0 the chroma planes are averaged over 2×2 pixels.
        let mcu = 8 * f
        let pw = (image.width + mcu - 1) / mcu * mcu, ph = (image.height + mcu - 1) / mcu * mcu
        var luma = [Double](repeating: 0, count: pw * ph), cb = luma, cr = luma
        for y in 0..<ph {
            for x in 0..<pw {
                let i = (min(y, image.height - 1) * image.width + min(x, image.width - 1)) * 3
                let R = Double(image.pixels[i]), G = Double(image.pixels[i + 1]), B = Double(image.pixels[i + 2])
                luma[y * pw + x] = 0.299 * R + 0.587 * G + 0.114 * B - 128
                cb[y * pw + x] = -0.168736 * R - 0.331264 * G + 0.5 * B
                cr[y * pw + x] = 0.5 * R - 0.418688 * G - 0.081312 * B
            }
        }
        let cw = pw / f, chh = ph / f
        func shrink(_ plane: [Double]) -> [Double] {
            guard f > 1 else { return plane }
            var o = [Double](repeating: 0, count: cw * chh)
            for y in 0..<chh {
                for x in 0..<cw {
                    o[y * cw + x] =
                        (plane[2 * y * pw + 2 * x] + plane[2 * y * pw + 2 * x + 1] + plane[(2 * y + 1) * pw + 2 * x] + plane[(2 * y + 1) * pw + 2 * x + 1]) / 4
                }
            }
            return o
        }
        let planes = [luma, shrink(cb), shrink(cr)], widths = [pw, cw, cw]
        var previous = [0, 0, 0]
        var temp = [Double](repeating: 0, count: 64), coef = [Double](repeating: 0, count: 64)
        var q = [Int](repeating: 0, count: 64)
        let reciprocal = tables.map { t in t.map { 1 / Double($0) } }
        func block(_ c: Int, _ bx: Int, _ by: Int) {
            let w = widths[c]
            planes[c].withUnsafeBufferPointer { plane in
                cosine.withUnsafeBufferPointer { cs in
                    for y in 0..<8 {
                        let row = (by + y) * w + bx
                        for u in 0..<8 {
                            var acc = 0.0
                            for x in 0..<8 { acc += plane[row + x] * cs[x * 8 + u] }
                            temp[y * 8 + u] = acc
                        }
                    }
                    for v in 0..<8 {
                        for u in 0..<8 {
                            var acc = 0.0
                            for y in 0..<8 { acc += temp[y * 8 + u] * cs[y * 8 + v] }
                            coef[v * 8 + u] = acc
                        }
                    }
                }
            }
            let k = c == 0 ? 0 : 1, r = reciprocal[k]
            for z in 0..<64 { let n = JPEGTables.zigzag[z]; q[z] = Int((coef[n] * r[n]).rounded()) }
            let diff = q[0] - previous[c]; previous[c] = q[0]
            let m = magnitude(diff)
            put(dc[k][UInt8(m.size)]!.code, dc[k][UInt8(m.size)]!.length); if m.size > 0 { put(m.bits, m.size) }
            var run = 0
            for i in 1..<64 {
                if q[i] == 0 { run += 1; continue }
                while run > 15 { put(ac[k][0xF0]!.code, ac[k][0xF0]!.length); run -= 16 }
                let a = magnitude(q[i]), sym = UInt8(run << 4 | a.size)
                put(ac[k][sym]!.code, ac[k][sym]!.length); put(a.bits, a.size)
                run = 0
            }
            if run > 0 { put(ac[k][0]!.code, ac[k][0]!.length) }
        }
        var mcuCount = 0
        for my in stride(from: 0, to: ph, by: mcu) {
            for mx in stride(from: 0, to: pw, by: mcu) {
                if restartInterval > 0, mcuCount > 0, mcuCount % restartInterval == 0 {
                    if bitCount > 0 { put((1 << (8 - bitCount)) - 1, 8 - bitCount) }
                    out += [0xFF, UInt8(0xD0 + (mcuCount / restartInterval - 1) % 8)]
                    previous = [0, 0, 0]
                }
                mcuCount += 1
                for dy in 0..<f { for dx in 0..<f { block(0, mx + 8 * dx, my + 8 * dy) } }
                block(1, mx / f, my / f)
                block(2, mx / f, my / f)
            }
        }
        if bitCount > 0 { put((1 << (8 - bitCount)) - 1, 8 - bitCount) }
        out += [0xFF, 0xD9]
        return Data(out)
    }
}
