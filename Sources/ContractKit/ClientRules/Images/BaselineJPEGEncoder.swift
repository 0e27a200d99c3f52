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

    // MARK: Tables (T.81 Annex K)

    static let zigzag: [Int] = [
        0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
        35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63
    ]
    static let baseLuminance: [Int] = [
        16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62,
        18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99
    ]
    static let baseChrominance: [Int] =
        [
            17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99, 99, 99, 99
        ] + [Int](repeating: 99, count: 32)

    /// IJG's quality scaling (jcparam.c `jpeg_quality_scaling`), entries kept in 1...255.
    static func scaled(_ base: [Int], quality: Int) -> [Int] {
        let s = quality < 50 ? 5000 / quality : 200 - quality * 2
        return base.map { min(255, max(1, ($0 * s + 50) / 100)) }
    }

    struct Huffman {
        let classAndID: UInt8
        let bits: [UInt8]
        let values: [UInt8]
        /// (code, length) by symbol.
        let codes: [(UInt32, Int)]
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

    static let dcLuminance = Huffman(0x00, [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0], Array(0...11))
    static let dcChrominance = Huffman(0x01, [0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0], Array(0...11))
    static let acLuminance = Huffman(
        0x10, [0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7D],
        [
            0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07,
            0x22, 0x71, 0x14, 0x32, 0x81, 0x91, 0xA1, 0x08, 0x23, 0x42, 0xB1, 0xC1, 0x15, 0x52, 0xD1, 0xF0,
            0x24, 0x33, 0x62, 0x72, 0x82, 0x09, 0x0A, 0x16, 0x17, 0x18, 0x19, 0x1A, 0x25, 0x26, 0x27, 0x28,
            0x29, 0x2A, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49,
            0x4A, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5A, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69,
            0x6A, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7A, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89,
            0x8A, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9A, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7,
            0xA8, 0xA9, 0xAA, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7, 0xB8, 0xB9, 0xBA, 0xC2, 0xC3, 0xC4, 0xC5,
            0xC6, 0xC7, 0xC8, 0xC9, 0xCA, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD7, 0xD8, 0xD9, 0xDA, 0xE1, 0xE2,
            0xE3, 0xE4, 0xE5, 0xE6, 0xE7, 0xE8, 0xE9, 0xEA, 0xF1, 0xF2, 0xF3, 0xF4, 0xF5, 0xF6, 0xF7, 0xF8,
            0xF9, 0xFA
        ])
    static let acChrominance = Huffman(
        0x11, [0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 0x77],
        [
            0x00, 0x01, 0x02, 0x03, 0x11, 0x04, 0x05, 0x21, 0x31, 0x06, 0x12, 0x41, 0x51, 0x07, 0x61, 0x71,
            0x13, 0x22, 0x32, 0x81, 0x08, 0x14, 0x42, 0x91, 0xA1, 0xB1, 0xC1, 0x09, 0x23, 0x33, 0x52, 0xF0,
            0x15, 0x62, 0x72, 0xD1, 0x0A, 0x16, 0x24, 0x34, 0xE1, 0x25, 0xF1, 0x17, 0x18, 0x19, 0x1A, 0x26,
            0x27, 0x28, 0x29, 0x2A, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48,
            0x49, 0x4A, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5A, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68,
            0x69, 0x6A, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7A, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87,
            0x88, 0x89, 0x8A, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9A, 0xA2, 0xA3, 0xA4, 0xA5,
            0xA6, 0xA7, 0xA8, 0xA9, 0xAA, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7, 0xB8, 0xB9, 0xBA, 0xC2, 0xC3,
            0xC4, 0xC5, 0xC6, 0xC7, 0xC8, 0xC9, 0xCA, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD7, 0xD8, 0xD9, 0xDA,
            0xE2, 0xE3, 0xE4, 0xE5, 0xE6, 0xE7, 0xE8, 0xE9, 0xEA, 0xF2, 0xF3, 0xF4, 0xF5, 0xF6, 0xF7, 0xF8,
            0xF9, 0xFA
        ])

    /// `cos((2x+1)uπ/16) * C(u) / 2`, by `u * 8 + x`.
    static let cosines: [Float] = (0..<64).map { i in
        let u = i / 8, x = i % 8
        let c: Double = u == 0 ? 1 / 2.0.squareRoot() : 1
        return Float(c / 2 * cos(Double(2 * x + 1) * Double(u) * Double.pi / 16))
    }

    // MARK: Entropy-coded data

    /// Bits packed most significant first, 0xFF stuffed with 0x00, padded with ones.
    struct BitWriter {
        var bytes: [UInt8] = []
        var buffer: UInt32 = 0
        var count = 0
        @inline(__always) mutating func write(_ bits: UInt32, _ length: Int) {
            guard length > 0 else { return }
            buffer = (buffer << UInt32(length)) | (bits & ((1 << UInt32(length)) - 1))
            count += length
            while count >= 8 {
                let byte = UInt8(truncatingIfNeeded: buffer >> UInt32(count - 8))
                bytes.append(byte)
                if byte == 0xFF { bytes.append(0x00) }
                count -= 8
            }
            buffer &= (1 << UInt32(count)) - 1
        }
        mutating func flush() { if count > 0 { write((1 << UInt32(8 - count)) - 1, 8 - count) } }
    }

    /// One component's coding state: its quantization divisors, Huffman tables and last DC.
    struct Component {
        var divisors: [Float]
        let dc: Huffman
        let ac: Huffman
        var previousDC = 0
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
        var writer = BitWriter()
        writer.bytes.reserveCapacity(w * h / 2)
        var components = [
            Component(divisors: lumQ.map(Float.init), dc: dcLuminance, ac: acLuminance),
            Component(divisors: chromQ.map(Float.init), dc: dcChrominance, ac: acChrominance),
            Component(divisors: chromQ.map(Float.init), dc: dcChrominance, ac: acChrominance)
        ]
        let block = UnsafeMutablePointer<Float>.allocate(capacity: 64), temp = UnsafeMutablePointer<Float>.allocate(capacity: 64)
        let coefficients = UnsafeMutablePointer<Int>.allocate(capacity: 64)
        let cosine = UnsafeMutablePointer<Float>.allocate(capacity: 64), order = UnsafeMutablePointer<Int>.allocate(capacity: 64)
        defer { block.deallocate(); temp.deallocate(); coefficients.deallocate(); cosine.deallocate(); order.deallocate() }
        for i in 0..<64 { cosine[i] = cosines[i]; order[i] = zigzag[i] }
        for my in 0..<(ph / 16) {
            for mx in 0..<(pw / 16) {
                for part in 0..<6 {
                    let plane: UnsafeMutablePointer<Float>, stride: Int, x0: Int, y0: Int, c: Int
                    switch part {
                    case 0...3: plane = yPlane; stride = pw; x0 = mx * 16 + (part & 1) * 8; y0 = my * 16 + (part >> 1) * 8; c = 0
                    case 4: plane = cb; stride = cw; x0 = mx * 8; y0 = my * 8; c = 1
                    default: plane = cr; stride = cw; x0 = mx * 8; y0 = my * 8; c = 2
                    }
                    for y in 0..<8 { for x in 0..<8 { block[y * 8 + x] = plane[(y0 + y) * stride + x0 + x] } }
                    // Rows, then columns.
                    for y in 0..<8 {
                        for u in 0..<8 {
                            var s: Float = 0
                            for x in 0..<8 { s += cosine[u * 8 + x] * block[y * 8 + x] }
                            temp[y * 8 + u] = s
                        }
                    }
                    components[c].divisors.withUnsafeBufferPointer { q in
                        for v in 0..<8 {
                            for u in 0..<8 {
                                var s: Float = 0
                                for y in 0..<8 { s += cosine[v * 8 + y] * temp[y * 8 + u] }
                                coefficients[v * 8 + u] = Int((s / q[v * 8 + u]).rounded())
                            }
                        }
                    }
                    let dc = components[c].dc, ac = components[c].ac
                    let diff = coefficients[0] - components[c].previousDC
                    components[c].previousDC = coefficients[0]
                    let (dcBits, dcSize) = magnitude(diff)
                    writer.write(dc.codes[dcSize].0, dc.codes[dcSize].1)
                    writer.write(dcBits, dcSize)
                    var run = 0
                    for k in 1..<64 {
                        let value = coefficients[order[k]]
                        if value == 0 { run += 1; continue }
                        while run > 15 { writer.write(ac.codes[0xF0].0, ac.codes[0xF0].1); run -= 16 }
                        let (bits, size) = magnitude(value)
                        let code = ac.codes[(run << 4) | size]
                        writer.write(code.0, code.1)
                        writer.write(bits, size)
                        run = 0
                    }
                    if run > 0 { writer.write(ac.codes[0].0, ac.codes[0].1) }
                }
            }
        }
        writer.flush()
        return Data(writer.bytes)
    }

    /// T.81 F.1.2.1: the size category of a coefficient and its additional bits.
    static func magnitude(_ v: Int) -> (UInt32, Int) {
        let a = abs(v)
        var size = 0
        while (1 << size) <= a { size += 1 }
        let bits = v >= 0 ? v : v + (1 << size) - 1
        return (UInt32(bits), size)
    }
}
