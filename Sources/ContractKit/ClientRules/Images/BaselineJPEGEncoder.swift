import Foundation

/// A minimal baseline JPEG encoder (ITU-T T.81: sequential DCT, Huffman coded, 8-bit): YCbCr
/// with 4:2:0 chroma, the example quantization tables of Annex K scaled by a 1-100 quality as
/// the IJG library scales them, and Annex K's typical Huffman tables. Writes SOI, APP0 (JFIF),
/// DQT, SOF0, DHT, SOS, the entropy-coded data and EOI; no Exif or other metadata. Enough for
/// the reference `ImageCompressor`; not fast.
package enum BaselineJPEGEncoder {
    /// The JPEG bytes of `image` at `quality` (clamped to 1...100).
    package static func encode(_ image: RasterImage, quality: Int) -> Data {
        let q = min(100, max(1, quality))
        let lumQ = scaled(baseLuminance, quality: q), chromQ = scaled(baseChrominance, quality: q)
        var out = Data()
        out.append(contentsOf: [0xFF, 0xD8]) // SOI
        out.append(contentsOf: [0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]) // APP0 JFIF 1.1
        for (id, table) in [(0, lumQ), (1, chromQ)] { // DQT
            out.append(contentsOf: [0xFF, 0xDB, 0x00, 0x43, UInt8(id)])
            for k in 0..<64 { out.append(UInt8(table[zigzag[k]])) }
        }
        let w = image.width, h = image.height
        out.append(contentsOf: [
            0xFF, 0xC0, 0x00, 0x11, 0x08, UInt8(h >> 8), UInt8(h & 0xFF), UInt8(w >> 8), UInt8(w & 0xFF), 0x03,
            0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01
        ]) // SOF0: Y 2x2, Cb 1x1, Cr 1x1
        for t in [dcLuminance, acLuminance, dcChrominance, acChrominance] { // DHT
            let length = 2 + 1 + 16 + t.values.count
            out.append(contentsOf: [0xFF, 0xC4, UInt8(length >> 8), UInt8(length & 0xFF), t.classAndID])
            out.append(contentsOf: t.bits)
            out.append(contentsOf: t.values)
        }
        out.append(contentsOf: [0xFF, 0xDA, 0x00, 0x0C, 0x03, 0x01, 0x00, 0x02, 0x11, 0x03, 0x11, 0x00, 0x3F, 0x00]) // SOS
        out.append(scan(image, lumQ: lumQ, chromQ: chromQ))
        out.append(contentsOf: [0xFF, 0xD9]) // EOI
        return out
    }

    // MARK: Tables (T.81 Annex K, `JPEGTables`)

    static let zigzag = JPEGTables.zigzag
    static let baseLuminance = JPEGTables.luminance
    static let baseChrominance = JPEGTables.chrominance

    /// IJG's quality scaling (jcparam.c `jpeg_quality_scaling`), entries kept in 1...255.
    static func scaled(_ base: [Int], quality: Int) -> [Int] { JPEGTables.scaled(base, quality: quality) }

    struct Huffman {
        let classAndID: UInt8
        let bits: [UInt8]
        let values: [UInt8]
        /// (code, length) by symbol.
        let codes: [(UInt32, Int)]
        /// Annex K's table of class `tc` and id `th`.
        init(_ table: (tc: Int, th: Int, bits: [UInt8], values: [UInt8])) {
            self.init(UInt8(table.tc << 4 | table.th), table.bits, table.values)
        }
        init(_ classAndID: UInt8, _ bits: [UInt8], _ values: [UInt8]) {
            precondition(bits.count == 16 && bits.reduce(0) { $0 + Int($1) } == values.count, "Huffman table \(classAndID)")
            self.classAndID = classAndID
            self.bits = bits
            self.values = values
            var codes = [(UInt32, Int)](repeating: (0, 0), count: 256)
            var code: UInt32 = 0, k = 0
            for length in 1...16 {
                for _ in 0..<Int(bits[length - 1]) { codes[Int(values[k])] = (code, length); code += 1; k += 1 }
                code <<= 1
            }
            self.codes = codes
        }
    }

    static let dcLuminance = Huffman(JPEGTables.huffman[0])
    static let acLuminance = Huffman(JPEGTables.huffman[1])
    static let dcChrominance = Huffman(JPEGTables.huffman[2])
    static let acChrominance = Huffman(JPEGTables.huffman[3])

    /// `cos((2x+1)uπ/16) * C(u) / 2`, by `u * 8 + x`.
    static let cosines: [Float] = (0..<64).map { i in
        let u = i / 8, x = i % 8
        let c: Double = u == 0 ? 1 / 2.0.squareRoot() : 1
        return Float(c / 2 * cos(Double(2 * x + 1) * Double(u) * Double.pi / 16))
    }

    // MARK: Entropy-coded data

    /// Bits packed most significant first, 0xFF stuffed with 0x00, padded with ones, into a
    /// buffer the writer owns (`data()` copies it out, `deallocate()` frees it). Shift amounts
    /// are `UInt32`, so a debug build calls no generic integer code per bit.
    struct BitWriter {
        var bytes: UnsafeMutablePointer<UInt8>
        var capacity: Int
        var used = 0
        var buffer: UInt32 = 0
        var count: UInt32 = 0

        init(capacity: Int) {
            self.capacity = max(64, capacity)
            bytes = .allocate(capacity: self.capacity)
        }

        @inline(__always) mutating func write(_ bits: UInt32, _ length: UInt32) {
            guard length > 0 else { return }
            buffer = (buffer &<< length) | (bits & ((1 &<< length) &- 1))
            count += length
            while count >= 8 {
                if used + 2 > capacity {
                    let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
                    bigger.moveInitialize(from: bytes, count: used)
                    bytes.deallocate()
                    bytes = bigger
                    capacity *= 2
                }
                let byte = UInt8(truncatingIfNeeded: buffer &>> (count - 8))
                bytes[used] = byte
                used += 1
                if byte == 0xFF {
                    bytes[used] = 0x00
                    used += 1
                }
                count -= 8
            }
            buffer &= (1 &<< count) &- 1
        }

        mutating func flush() { if count > 0 { write((1 &<< (8 - count)) &- 1, 8 - count) } }

        func data() -> Data { Data(bytes: bytes, count: used) }

        func deallocate() { bytes.deallocate() }
    }

    /// One pass of the separable 8x8 DCT: for each of the 8 lines of `source` (lines `step`
    /// apart, samples `stride` apart), the 8 sums `Σx cosine[u*8+x] * sample[x]`, written to
    /// `target` in the same layout (sum `u` where sample `u` of the line is). Two passes, rows
    /// (stride 1, step 8) then columns (stride 8, step 1), give the 2-D transform. Each sum adds its terms in x order from 0, so the
    /// result is the same float as the plain triple loop's; the loops are spelled out because
    /// a debug build (what `swift test` runs) pays for every iterator and index computed.
    static func dct(
        _ source: UnsafeMutablePointer<Float>, into target: UnsafeMutablePointer<Float>, cosine: UnsafeMutablePointer<Float>, stride: Int, step: Int
    ) {
        var line = 0
        while line < 8 {
            let p = source + line * step
            let s0 = p[0], s1 = p[stride], s2 = p[2 * stride], s3 = p[3 * stride]
            let s4 = p[4 * stride], s5 = p[5 * stride], s6 = p[6 * stride], s7 = p[7 * stride]
            var u = 0
            while u < 8 {
                let c = cosine + u * 8
                var s: Float = 0
                s += c[0] * s0
                s += c[1] * s1
                s += c[2] * s2
                s += c[3] * s3
                s += c[4] * s4
                s += c[5] * s5
                s += c[6] * s6
                s += c[7] * s7
                target[line * step + u * stride] = s
                u += 1
            }
            line += 1
        }
    }

    static func scan(_ image: RasterImage, lumQ: [Int], chromQ: [Int]) -> Data {
        let w = image.width, h = image.height
        let pw = (w + 15) / 16 * 16, ph = (h + 15) / 16 * 16, cw = pw / 2, ch = ph / 2
        // Planes level-shifted by 128 (Y full size, Cb and Cr averaged over 2x2), edges repeated.
        let yPlane = UnsafeMutablePointer<Float>.allocate(capacity: pw * ph)
        let cb = UnsafeMutablePointer<Float>.allocate(capacity: cw * ch), cr = UnsafeMutablePointer<Float>.allocate(capacity: cw * ch)
        defer { yPlane.deallocate(); cb.deallocate(); cr.deallocate() }
        cb.initialize(repeating: 0, count: cw * ch); cr.initialize(repeating: 0, count: cw * ch)
        image.rgb.withUnsafeBufferPointer { src in
            for py in 0..<ph {
                let row = min(py, h - 1) * w
                let crow = (py / 2) * cw
                for px in 0..<pw {
                    let s = (row + min(px, w - 1)) * 3
                    let r = Float(src[s]), g = Float(src[s + 1]), b = Float(src[s + 2])
                    yPlane[py * pw + px] = 0.299 * r + 0.587 * g + 0.114 * b - 128
                    cb[crow + px / 2] += (-0.168736 * r - 0.331264 * g + 0.5 * b) * 0.25
                    cr[crow + px / 2] += (0.5 * r - 0.418688 * g - 0.081312 * b) * 0.25
                }
            }
        }
        var writer = BitWriter(capacity: w * h / 2)
        defer { writer.deallocate() }
        // The Huffman codes and lengths of the tables by symbol (DC luminance, AC luminance, DC
        // chrominance, AC chrominance: 256 entries each), and each component's last DC.
        let codes = UnsafeMutablePointer<UInt32>.allocate(capacity: 4 * 256), lengths = UnsafeMutablePointer<UInt32>.allocate(capacity: 4 * 256)
        let previousDC = UnsafeMutablePointer<Int>.allocate(capacity: 3)
        defer { codes.deallocate(); lengths.deallocate(); previousDC.deallocate() }
        for (t, table) in [dcLuminance, acLuminance, dcChrominance, acChrominance].enumerated() {
            for (symbol, code) in table.codes.enumerated() {
                codes[t * 256 + symbol] = code.0
                lengths[t * 256 + symbol] = UInt32(code.1)
            }
        }
        previousDC.initialize(repeating: 0, count: 3)
        let block = UnsafeMutablePointer<Float>.allocate(capacity: 64), temp = UnsafeMutablePointer<Float>.allocate(capacity: 64)
        let coefficients = UnsafeMutablePointer<Int>.allocate(capacity: 64)
        let cosine = UnsafeMutablePointer<Float>.allocate(capacity: 64), order = UnsafeMutablePointer<Int>.allocate(capacity: 64)
        let lumDivisors = UnsafeMutablePointer<Float>.allocate(capacity: 64), chromDivisors = UnsafeMutablePointer<Float>.allocate(capacity: 64)
        defer {
            block.deallocate(); temp.deallocate(); coefficients.deallocate(); cosine.deallocate(); order.deallocate()
            lumDivisors.deallocate(); chromDivisors.deallocate()
        }
        for i in 0..<64 {
            cosine[i] = cosines[i]; order[i] = zigzag[i]
            lumDivisors[i] = Float(lumQ[i]); chromDivisors[i] = Float(chromQ[i])
        }
        for my in 0..<(ph / 16) {
            for mx in 0..<(pw / 16) {
                for part in 0..<6 {
                    let plane: UnsafeMutablePointer<Float>, stride: Int, x0: Int, y0: Int, c: Int
                    switch part {
                    case 0...3: plane = yPlane; stride = pw; x0 = mx * 16 + (part & 1) * 8; y0 = my * 16 + (part >> 1) * 8; c = 0
                    case 4: plane = cb; stride = cw; x0 = mx * 8; y0 = my * 8; c = 1
                    default: plane = cr; stride = cw; x0 = mx * 8; y0 = my * 8; c = 2
                    }
                    var y = 0
                    while y < 8 {
                        (block + y * 8).update(from: plane + (y0 + y) * stride + x0, count: 8)
                        y += 1
                    }
                    // Rows, then columns.
                    dct(block, into: temp, cosine: cosine, stride: 1, step: 8)
                    dct(temp, into: block, cosine: cosine, stride: 8, step: 1)
                    let q = c == 0 ? lumDivisors : chromDivisors
                    var k = 0
                    while k < 64 {
                        coefficients[k] = Int((block[k] / q[k]).rounded())
                        k += 1
                    }
                    let dc = c == 0 ? 0 : 512, ac = dc + 256
                    let diff = coefficients[0] - previousDC[c]
                    previousDC[c] = coefficients[0]
                    let (dcBits, dcSize) = magnitude(diff)
                    writer.write(codes[dc + dcSize], lengths[dc + dcSize])
                    writer.write(dcBits, UInt32(truncatingIfNeeded: dcSize))
                    var run = 0
                    k = 1
                    while k < 64 {
                        let value = coefficients[order[k]]
                        k += 1
                        if value == 0 { run += 1; continue }
                        while run > 15 { writer.write(codes[ac + 0xF0], lengths[ac + 0xF0]); run -= 16 }
                        let (bits, size) = magnitude(value)
                        writer.write(codes[ac + (run << 4 | size)], lengths[ac + (run << 4 | size)])
                        writer.write(bits, UInt32(truncatingIfNeeded: size))
                        run = 0
                    }
                    if run > 0 { writer.write(codes[ac], lengths[ac]) }
                }
            }
        }
        writer.flush()
        return writer.data()
    }

    /// T.81 F.1.2.1: the size category of a coefficient and its additional bits.
    static func magnitude(_ v: Int) -> (UInt32, Int) {
        let a = v < 0 ? -v : v
        let size = Int.bitWidth - a.leadingZeroBitCount
        let bits = v >= 0 ? v : v + (1 << size) - 1
        return (UInt32(truncatingIfNeeded: bits), size)
    }
}
