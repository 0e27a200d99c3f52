import Foundation
import ContractKit

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
        // Huffman (code, length) by symbol: DC luminance, DC chrominance, AC luminance, AC
        // chrominance, 256 entries each (length 0: no code).
        let huffman = UnsafeMutablePointer<(code: Int, length: Int)>.allocate(capacity: 4 * 256)
        defer { huffman.deallocate() }
        huffman.initialize(repeating: (0, 0), count: 4 * 256)
        for (t, h) in [0, 2, 1, 3].enumerated() {
            for (symbol, c) in JPEGTables.codes(bits: JPEGTables.huffman[h].bits, values: JPEGTables.huffman[h].values) { huffman[t * 256 + Int(symbol)] = c }
        }
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
        let temp = UnsafeMutablePointer<Double>.allocate(capacity: 64), coef = UnsafeMutablePointer<Double>.allocate(capacity: 64)
        let q = UnsafeMutablePointer<Int>.allocate(capacity: 64), zigzag = UnsafeMutablePointer<Int>.allocate(capacity: 64)
        let reciprocal = UnsafeMutablePointer<Double>.allocate(capacity: 2 * 64), cs = UnsafeMutablePointer<Double>.allocate(capacity: 64)
        defer { temp.deallocate(); coef.deallocate(); q.deallocate(); zigzag.deallocate(); reciprocal.deallocate(); cs.deallocate() }
        for i in 0..<64 {
            zigzag[i] = JPEGTables.zigzag[i]
            cs[i] = cosine[i]
            reciprocal[i] = 1 / Double(tables[0][i]); reciprocal[64 + i] = 1 / Double(tables[1][i])
        }
        /// `Σi line[i * stride] * cs[i * 8 + u]` for u in 0..<8 into `target[u * step]`, terms
        /// added in i order from 0 (the same doubles as a loop over i; spelled out because a
        /// debug build pays for every iterator).
        func dct8(_ line: UnsafePointer<Double>, _ stride: Int, _ target: UnsafeMutablePointer<Double>, _ step: Int) {
            let s0 = line[0], s1 = line[stride], s2 = line[2 * stride], s3 = line[3 * stride]
            let s4 = line[4 * stride], s5 = line[5 * stride], s6 = line[6 * stride], s7 = line[7 * stride]
            var u = 0
            while u < 8 {
                var acc = 0.0
                acc += s0 * cs[u]
                acc += s1 * cs[8 + u]
                acc += s2 * cs[16 + u]
                acc += s3 * cs[24 + u]
                acc += s4 * cs[32 + u]
                acc += s5 * cs[40 + u]
                acc += s6 * cs[48 + u]
                acc += s7 * cs[56 + u]
                target[u * step] = acc
                u += 1
            }
        }
        func block(_ c: Int, _ bx: Int, _ by: Int) {
            let w = widths[c]
            planes[c].withUnsafeBufferPointer { plane in
                let base = plane.baseAddress!
                var y = 0
                while y < 8 {
                    dct8(base + (by + y) * w + bx, 1, temp + y * 8, 1)
                    y += 1
                }
                var u = 0
                while u < 8 {
                    dct8(temp + u, 8, coef + u, 8)
                    u += 1
                }
            }
            let k = c == 0 ? 0 : 1, r = reciprocal + 64 * k
            var z = 0
            while z < 64 {
                let n = zigzag[z]
                q[z] = Int((coef[n] * r[n]).rounded())
                z += 1
            }
            let dc = huffman + 256 * k, ac = huffman + 256 * (2 + k)
            let diff = q[0] - previous[c]
            previous[c] = q[0]
            let m = magnitude(diff)
            put(dc[m.size].code, dc[m.size].length)
            if m.size > 0 { put(m.bits, m.size) }
            var run = 0, i = 1
            while i < 64 {
                let value = q[i]
                i += 1
                if value == 0 { run += 1; continue }
                while run > 15 { put(ac[0xF0].code, ac[0xF0].length); run -= 16 }
                let a = magnitude(value)
                put(ac[run << 4 | a.size].code, ac[run << 4 | a.size].length); put(a.bits, a.size)
                run = 0
            }
            if run > 0 { put(ac[0].code, ac[0].length) }
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
