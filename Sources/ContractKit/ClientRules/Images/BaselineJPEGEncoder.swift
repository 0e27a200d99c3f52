import Foundation

/// A baseline JPEG encoder (ITU-T T.81: sequential DCT, Huffman coded, 8-bit YCbCr), Foundation
/// only: the example quantization tables of Annex K scaled by a 1-100 quality as the IJG library
/// scales them, Annex K's typical Huffman tables, JFIF APP0. The output stage of the reference
/// `ImageCompressor` (4:2:0, `Float` arithmetic) and of CivicForge's reference photo processor and
/// camera-like sources (4:4:4 with an Exif segment, `Double` arithmetic); not fast.
package enum BaselineJPEGEncoder {
    /// The floating-point type the colour conversion, DCT and quantization compute in. Each
    /// caller keeps the one its bytes were first produced with, so its output stays the same.
    package enum Arithmetic: Sendable {
        /// `Float`; 4:2:0 chroma accumulated as a quarter of each pixel; coefficients divided by
        /// the quantizer.
        case float
        /// `Double`; 4:2:0 chroma the mean of the 2×2 pixels; coefficients multiplied by the
        /// quantizer's reciprocal.
        case double
    }

    /// The JPEG bytes of `image` at `quality` (clamped to 1...100), with extra APPn segments
    /// (marker, payload) written after APP0; `subsample` writes 4:2:0 (2×2 luma blocks per MCU,
    /// as ImageIO and libjpeg do by default) and `restartInterval` RSTn markers every that many MCUs.
    package static func encode(
        _ image: RasterImage, quality: Int, segments: [(marker: UInt8, payload: [UInt8])] = [],
        subsample: Bool = true, restartInterval: Int = 0, arithmetic: Arithmetic = .float
    ) -> Data {
        // With no limit the encoding never stops early.
        encode(
            image, quality: quality, segments: segments, subsample: subsample, restartInterval: restartInterval, arithmetic: arithmetic,
            byteLimit: Int.max)!
    }

    /// `encode(image, quality:)` (4:2:0, `Float` arithmetic) when its bytes number at most
    /// `byteLimit`, nil otherwise. Gives up as soon as the bytes written so far plus the two of
    /// EOI pass the limit: the encoder only ever appends, so the finished image would be larger
    /// still. The bytes it returns are `encode`'s exactly.
    package static func encode(_ image: RasterImage, quality: Int, byteLimit: Int) -> Data? {
        encode(image, qualities: [quality], byteLimit: byteLimit)
    }

    /// `encode(image, quality: q, byteLimit:)` of the first `q` in `qualities` whose bytes fit,
    /// nil when none does. The colour conversion and each block's DCT do not depend on the
    /// quality (only the quantizers do), so they are computed once for all the qualities tried,
    /// each block when an encoding first reaches it; the bytes are those of one `encode` per
    /// quality exactly.
    package static func encode(_ image: RasterImage, qualities: [Int], byteLimit: Int) -> Data? {
        let (pw, ph) = paddedSize(image, f: 2)
        let transform = FloatTransform(image, f: 2, pw: pw, ph: ph)
        defer { transform.deallocate() }
        for q in qualities {
            if let data = encode(image, quality: q, segments: [], subsample: true, restartInterval: 0, transform: transform, byteLimit: byteLimit) {
                return data
            }
        }
        return nil
    }

    /// The image's size rounded up to whole MCUs of `f`×`f` blocks.
    private static func paddedSize(_ image: RasterImage, f: Int) -> (Int, Int) {
        let mcu = 8 * f
        return ((image.width + mcu - 1) / mcu * mcu, (image.height + mcu - 1) / mcu * mcu)
    }

    private static func encode(
        _ image: RasterImage, quality: Int, segments: [(marker: UInt8, payload: [UInt8])],
        subsample: Bool, restartInterval: Int, arithmetic: Arithmetic, byteLimit: Int
    ) -> Data? {
        let f = subsample ? 2 : 1
        let (pw, ph) = paddedSize(image, f: f)
        let transform: any BlockTransform = arithmetic == .float ? FloatTransform(image, f: f, pw: pw, ph: ph) : DoubleTransform(image, f: f, pw: pw, ph: ph)
        defer { transform.deallocate() }
        return encode(
            image, quality: quality, segments: segments, subsample: subsample, restartInterval: restartInterval, transform: transform,
            byteLimit: byteLimit)
    }

    /// The encoding at one quality of the image `transform` holds (its planes padded for
    /// `subsample`).
    private static func encode(
        _ image: RasterImage, quality: Int, segments: [(marker: UInt8, payload: [UInt8])],
        subsample: Bool, restartInterval: Int, transform: any BlockTransform, byteLimit: Int
    ) -> Data? {
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
        let mcu = 8 * f
        let (pw, ph) = paddedSize(image, f: f)
        transform.use(tables)
        var writer = BitWriter(capacity: image.width * image.height / 2)
        defer { writer.deallocate() }
        // The Huffman codes and lengths by symbol (DC luminance, AC luminance, DC chrominance, AC
        // chrominance: 256 entries each), the quantized block, the zig-zag order, each component's
        // last DC.
        let codes = UnsafeMutablePointer<UInt32>.allocate(capacity: 4 * 256), lengths = UnsafeMutablePointer<UInt32>.allocate(capacity: 4 * 256)
        let coefficients = UnsafeMutablePointer<Int>.allocate(capacity: 64), order = UnsafeMutablePointer<Int>.allocate(capacity: 64)
        var previousDC = [0, 0, 0]
        defer { codes.deallocate(); lengths.deallocate(); coefficients.deallocate(); order.deallocate() }
        codes.initialize(repeating: 0, count: 4 * 256); lengths.initialize(repeating: 0, count: 4 * 256)
        for (t, h) in JPEGTables.huffman.enumerated() {
            for (symbol, c) in JPEGTables.codes(bits: h.bits, values: h.values) {
                codes[t * 256 + Int(symbol)] = UInt32(c.code); lengths[t * 256 + Int(symbol)] = UInt32(c.length)
            }
        }
        for i in 0..<64 { order[i] = JPEGTables.zigzag[i] }
        func block(_ c: Int, _ x: Int, _ y: Int) {
            transform.quantize(c, x, y, into: coefficients)
            let dc = c == 0 ? 0 : 512, ac = dc + 256
            let diff = coefficients[0] - previousDC[c]
            previousDC[c] = coefficients[0]
            let (dcBits, dcSize) = magnitude(diff)
            writer.write(codes[dc + dcSize], lengths[dc + dcSize])
            writer.write(dcBits, UInt32(truncatingIfNeeded: dcSize))
            var run = 0, k = 1
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
        var mcuCount = 0
        for my in stride(from: 0, to: ph, by: mcu) {
            // Checked once per row of MCUs: the header, the whole bytes so far and EOI.
            if out.count + writer.used + 2 > byteLimit { return nil }
            for mx in stride(from: 0, to: pw, by: mcu) {
                if restartInterval > 0, mcuCount > 0, mcuCount % restartInterval == 0 {
                    writer.flush()
                    writer.append(0xFF); writer.append(UInt8(0xD0 + (mcuCount / restartInterval - 1) % 8))
                    previousDC = [0, 0, 0]
                }
                mcuCount += 1
                for dy in 0..<f { for dx in 0..<f { block(0, mx + 8 * dx, my + 8 * dy) } }
                block(1, mx / f, my / f)
                block(2, mx / f, my / f)
            }
        }
        writer.flush()
        if out.count + writer.used + 2 > byteLimit { return nil }
        return Data(out) + writer.data() + [0xFF, 0xD9]
    }

    /// T.81 F.1.2.1: the size category of a coefficient and its additional bits.
    static func magnitude(_ v: Int) -> (UInt32, Int) {
        let a = v < 0 ? -v : v
        let size = Int.bitWidth - a.leadingZeroBitCount
        let bits = v >= 0 ? v : v + (1 << size) - 1
        return (UInt32(truncatingIfNeeded: bits), size)
    }

    /// `cos((2x+1)uπ/16) * C(u) / 2`, by `x * 8 + u`.
    static let cosines: [Double] = (0..<64).map { i in
        let x = i / 8, u = i % 8
        return cos(Double(2 * x + 1) * Double(u) * Double.pi / 16) * (u == 0 ? 1 / 2.0.squareRoot() : 1) / 2
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

        /// `byte` as it is (a marker), the buffer being empty.
        mutating func append(_ byte: UInt8) {
            if used + 2 > capacity {
                let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
                bigger.moveInitialize(from: bytes, count: used)
                bytes.deallocate()
                bytes = bigger
                capacity *= 2
            }
            bytes[used] = byte
            used += 1
        }

        @inline(__always) mutating func write(_ bits: UInt32, _ length: UInt32) {
            guard length > 0 else { return }
            buffer = (buffer &<< length) | (bits & ((1 &<< length) &- 1))
            count += length
            while count >= 8 {
                let byte = UInt8(truncatingIfNeeded: buffer &>> (count - 8))
                append(byte)
                if byte == 0xFF { append(0x00) }
                count -= 8
            }
            buffer &= (1 &<< count) &- 1
        }

        mutating func flush() { if count > 0 { write((1 &<< (8 - count)) &- 1, 8 - count) } }

        func data() -> Data { Data(bytes: bytes, count: used) }

        func deallocate() { bytes.deallocate() }
    }
}

/// Level-shifted Y, Cb, Cr planes of an image padded to whole MCUs (the last row and column
/// repeated), and the quantized DCT of their 8×8 blocks.
private protocol BlockTransform {
    /// The quantized coefficients, natural order, of the block of component `c` at `(x, y)` of
    /// its plane.
    func quantize(_ c: Int, _ x: Int, _ y: Int, into out: UnsafeMutablePointer<Int>)
    /// Makes `quantize` divide by `quantizers` (luminance, chrominance; natural order) from now on.
    func use(_ quantizers: [[Int]])
    /// Frees the planes.
    func deallocate()
}

/// `BaselineJPEGEncoder.Arithmetic.float`. The DCT loops are spelled out, each sum adding its
/// terms in x order from 0 (the same float as the plain loop), because a debug build (what
/// `swift test` runs) pays for every iterator and index computed. Each block's DCT is kept
/// (`transformed`, block after block in each plane's row order) the first time a quantization
/// reaches it, for the next quality tried on the same image.
private struct FloatTransform: BlockTransform {
    let planes: [UnsafeMutablePointer<Float>], widths: [Int]
    /// Each plane's blocks after the DCT, 64 values a block, and whether each is computed yet.
    let transformed: [UnsafeMutablePointer<Float>], ready: [UnsafeMutablePointer<Bool>]
    let block = UnsafeMutablePointer<Float>.allocate(capacity: 64), temp = UnsafeMutablePointer<Float>.allocate(capacity: 64)
    let cosine = UnsafeMutablePointer<Float>.allocate(capacity: 64), divisors = UnsafeMutablePointer<Float>.allocate(capacity: 2 * 64)

    init(_ image: RasterImage, f: Int, pw: Int, ph: Int) {
        let w = image.width, h = image.height, cw = pw / f, ch = ph / f, share = 1 / Float(f * f)
        let y = UnsafeMutablePointer<Float>.allocate(capacity: pw * ph)
        let cb = UnsafeMutablePointer<Float>.allocate(capacity: cw * ch), cr = UnsafeMutablePointer<Float>.allocate(capacity: cw * ch)
        cb.initialize(repeating: 0, count: cw * ch); cr.initialize(repeating: 0, count: cw * ch)
        // `while` loops, the edge clamped by comparison and each byte widened through `Int`
        // (`Float(Int)` is concrete, `Float(UInt8)` generic): the same values, without the
        // iterator, `min` and generic conversion calls a debug build makes per pixel.
        image.rgb.withUnsafeBufferPointer { src in
            var py = 0
            while py < ph {
                let row = (py < h ? py : h - 1) * w, crow = (py / f) * cw
                var px = 0
                while px < pw {
                    let s = (row + (px < w ? px : w - 1)) * 3
                    let r = Float(Int(src[s])), g = Float(Int(src[s + 1])), b = Float(Int(src[s + 2]))
                    y[py * pw + px] = 0.299 * r + 0.587 * g + 0.114 * b - 128
                    cb[crow + px / f] += (-0.168736 * r - 0.331264 * g + 0.5 * b) * share
                    cr[crow + px / f] += (0.5 * r - 0.418688 * g - 0.081312 * b) * share
                    px += 1
                }
                py += 1
            }
        }
        planes = [y, cb, cr]; widths = [pw, cw, cw]
        let sizes = [pw * ph, cw * ch, cw * ch]
        transformed = sizes.map { UnsafeMutablePointer<Float>.allocate(capacity: $0) }
        ready = sizes.map { size in
            let p = UnsafeMutablePointer<Bool>.allocate(capacity: size / 64)
            p.initialize(repeating: false, count: size / 64)
            return p
        }
        for i in 0..<64 { cosine[i] = Float(BaselineJPEGEncoder.cosines[i % 8 * 8 + i / 8]) }
    }

    func use(_ quantizers: [[Int]]) {
        for i in 0..<64 { divisors[i] = Float(quantizers[0][i]); divisors[64 + i] = Float(quantizers[1][i]) }
    }

    /// One pass of the separable DCT: for each of the 8 lines of `source` (lines `step` apart,
    /// samples `stride` apart), the 8 sums `Σx cosine[u*8+x] * sample[x]`, written to `target`
    /// in the same layout. Rows (stride 1, step 8) then columns (stride 8, step 1).
    func dct(_ source: UnsafeMutablePointer<Float>, into target: UnsafeMutablePointer<Float>, stride: Int, step: Int) {
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

    func quantize(_ c: Int, _ x: Int, _ y: Int, into out: UnsafeMutablePointer<Int>) {
        let w = widths[c], index = (y / 8) * (w / 8) + x / 8
        let coefficients = transformed[c] + index * 64, done = ready[c] + index
        if !done.pointee {
            let plane = planes[c]
            var row = 0
            while row < 8 {
                (block + row * 8).update(from: plane + (y + row) * w + x, count: 8)
                row += 1
            }
            dct(block, into: temp, stride: 1, step: 8)
            dct(temp, into: coefficients, stride: 8, step: 1)
            done.pointee = true
        }
        // C's `roundf` is what `rounded()` ends in (half away from zero), without the rounding
        // rule's enum a debug build handles per coefficient.
        let q = divisors + (c == 0 ? 0 : 64)
        var k = 0
        while k < 64 {
            out[k] = Int(roundf(coefficients[k] / q[k]))
            k += 1
        }
    }

    func deallocate() {
        for p in planes { p.deallocate() }
        for p in transformed { p.deallocate() }
        for p in ready { p.deallocate() }
        block.deallocate(); temp.deallocate(); cosine.deallocate(); divisors.deallocate()
    }
}

/// `BaselineJPEGEncoder.Arithmetic.double`, its DCT spelled out as `FloatTransform`'s.
private struct DoubleTransform: BlockTransform {
    let planes: [UnsafeMutablePointer<Double>], widths: [Int]
    let temp = UnsafeMutablePointer<Double>.allocate(capacity: 64), coef = UnsafeMutablePointer<Double>.allocate(capacity: 64)
    let cs = UnsafeMutablePointer<Double>.allocate(capacity: 64), reciprocal = UnsafeMutablePointer<Double>.allocate(capacity: 2 * 64)

    init(_ image: RasterImage, f: Int, pw: Int, ph: Int) {
        let luma = UnsafeMutablePointer<Double>.allocate(capacity: pw * ph)
        let cb = UnsafeMutablePointer<Double>.allocate(capacity: pw * ph), cr = UnsafeMutablePointer<Double>.allocate(capacity: pw * ph)
        // The same values as `FloatTransform`'s loop computes them: `while`, the edge clamped by
        // comparison, each byte widened through `Int` (`Double(Int)` is concrete).
        let w = image.width, h = image.height
        image.rgb.withUnsafeBufferPointer { rgb in
            var y = 0
            while y < ph {
                let row = (y < h ? y : h - 1) * w
                var x = 0
                while x < pw {
                    let i = (row + (x < w ? x : w - 1)) * 3
                    let R = Double(Int(rgb[i])), G = Double(Int(rgb[i + 1])), B = Double(Int(rgb[i + 2]))
                    luma[y * pw + x] = 0.299 * R + 0.587 * G + 0.114 * B - 128
                    cb[y * pw + x] = -0.168736 * R - 0.331264 * G + 0.5 * B
                    cr[y * pw + x] = 0.5 * R - 0.418688 * G - 0.081312 * B
                    x += 1
                }
                y += 1
            }
        }
        // 4:2:0: each chroma sample the mean of its 2×2 pixels, in place.
        let cw = pw / f, ch = ph / f
        if f > 1 {
            for p in [cb, cr] {
                var y = 0
                while y < ch {
                    var x = 0
                    while x < cw {
                        p[y * cw + x] = (p[2 * y * pw + 2 * x] + p[2 * y * pw + 2 * x + 1] + p[(2 * y + 1) * pw + 2 * x] + p[(2 * y + 1) * pw + 2 * x + 1]) / 4
                        x += 1
                    }
                    y += 1
                }
            }
        }
        planes = [luma, cb, cr]; widths = [pw, cw, cw]
        for i in 0..<64 { cs[i] = BaselineJPEGEncoder.cosines[i] }
    }

    func use(_ quantizers: [[Int]]) {
        for i in 0..<64 { reciprocal[i] = 1 / Double(quantizers[0][i]); reciprocal[64 + i] = 1 / Double(quantizers[1][i]) }
    }

    /// `Σi line[i * stride] * cs[i * 8 + u]` for u in 0..<8 into `target[u * step]`.
    func dct8(_ line: UnsafePointer<Double>, _ stride: Int, _ target: UnsafeMutablePointer<Double>, _ step: Int) {
        let s0 = line[0], s1 = line[stride], s2 = line[2 * stride], s3 = line[3 * stride]
        let s4 = line[4 * stride], s5 = line[5 * stride], s6 = line[6 * stride], s7 = line[7 * stride]
        var u = 0
        while u < 8 {
            let c = cs + u
            var acc = 0.0
            acc += s0 * c[0]
            acc += s1 * c[8]
            acc += s2 * c[16]
            acc += s3 * c[24]
            acc += s4 * c[32]
            acc += s5 * c[40]
            acc += s6 * c[48]
            acc += s7 * c[56]
            target[u * step] = acc
            u += 1
        }
    }

    func quantize(_ c: Int, _ x: Int, _ y: Int, into out: UnsafeMutablePointer<Int>) {
        let base = planes[c], w = widths[c]
        var row = 0
        while row < 8 {
            dct8(base + (y + row) * w + x, 1, temp + row * 8, 1)
            row += 1
        }
        var u = 0
        while u < 8 {
            dct8(temp + u, 8, coef + u, 8)
            u += 1
        }
        // C's `round`, as `roundf` in `FloatTransform`.
        let r = reciprocal + (c == 0 ? 0 : 64)
        var k = 0
        while k < 64 {
            out[k] = Int(round(coef[k] * r[k]))
            k += 1
        }
    }

    func deallocate() {
        for p in planes { p.deallocate() }
        temp.deallocate(); coef.deallocate(); cs.deallocate(); reciprocal.deallocate()
    }
}
