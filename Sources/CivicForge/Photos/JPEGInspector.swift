import Foundation
import ContractKit

/// What a JPEG file holds, read from its markers (ITU T.81 Annex B) with Foundation only: the
/// segments (APPn identifiers), frame size and type, quantisation tables, and the mean of each
/// 8×8 luminance block (the DC coefficients of a baseline scan), enough to judge metadata,
/// size, quality and framing of produced bytes without an image library.
package struct JPEGInfo: Sendable, Equatable {
    /// One APPn segment: its number (0-15) and the identifier its payload starts with
    /// (`Exif`, `JFIF`, `http://ns.adobe.com/xap/1.0/`, `Photoshop 3.0`, `ICC_PROFILE`).
    package struct AppSegment: Sendable, Equatable {
        /// n of APPn.
        package var n: Int
        /// The NUL-terminated identifier at the start of the payload.
        package var identifier: String
        package var payload: [UInt8]
    }
    /// APPn segments in file order.
    package var appSegments: [AppSegment] = []
    /// The frame marker (0xC0 baseline, 0xC1 extended, 0xC2 progressive, …).
    package var frameMarker: UInt8 = 0
    /// Width in pixels.
    package var width = 0
    /// Height in pixels.
    package var height = 0
    /// Quantisation tables by id, natural order.
    package var quantTables: [Int: [Int]] = [:]
    /// The quantisation table of the first component (luminance).
    package var lumaTable: [Int]? = nil
    /// Mean luminance (0-255) of each 8×8 block of the first component, row-major; nil unless the
    /// frame is baseline with one scan.
    package var lumaBlocks: [[Double]]? = nil

    /// The libjpeg quality whose scaled Annex K luminance table has the sum nearest this file's
    /// (ImageMagick's estimate); encoders with other base tables land near their setting.
    package var estimatedQuality: Int? {
        guard let t = lumaTable else { return nil }
        let sum = t.reduce(0, +)
        return (1...100).min {
            abs(JPEGTables.scaled(JPEGTables.luminance, quality: $0).reduce(0, +) - sum)
                < abs(JPEGTables.scaled(JPEGTables.luminance, quality: $1).reduce(0, +) - sum)
        }
    }
}

package enum JPEGError: Error, Equatable, CustomStringConvertible {
    /// Not a JPEG or cut short, with where.
    case malformed(String)
    package var description: String { if case .malformed(let m) = self { return "not a well-formed JPEG: \(m)" }; return "" }
}

/// Reads `JPEGInfo` from bytes.
package enum JPEGInspector {
    /// Parses the markers and, for a baseline frame, decodes the DC coefficients of the scan.
    package static func inspect(_ data: Data) throws -> JPEGInfo {
        let b = [UInt8](data)
        guard b.count >= 4, b[0] == 0xFF, b[1] == 0xD8 else { throw JPEGError.malformed("no SOI at offset 0") }
        var info = JPEGInfo()
        var i = 2
        var huffman: [Int: HuffmanDecoder] = [:] // class << 4 | id
        var components: [(id: Int, h: Int, v: Int, tq: Int)] = []
        var restartInterval = 0
        var sawEOI = false
        while i < b.count {
            guard b[i] == 0xFF else { throw JPEGError.malformed("expected a marker at offset \(i)") }
            var marker = b[i + 1]
            i += 2
            while marker == 0xFF, i < b.count { marker = b[i]; i += 1 }
            if marker == 0xD9 { sawEOI = true; break }
            if (0xD0...0xD7).contains(marker) || marker == 0x01 { continue }
            guard i + 2 <= b.count else { throw JPEGError.malformed("segment length past the end") }
            let length = Int(b[i]) << 8 | Int(b[i + 1])
            guard length >= 2, i + length <= b.count else { throw JPEGError.malformed("segment 0x\(String(marker, radix: 16)) runs past the end") }
            let p = Array(b[(i + 2)..<(i + length)])
            switch marker {
            case 0xE0...0xEF:
                let id = String(decoding: p.prefix { $0 != 0 }, as: UTF8.self)
                info.appSegments.append(.init(n: Int(marker - 0xE0), identifier: id, payload: p))
            case 0xDB:
                var k = 0
                while k < p.count {
                    let pq = Int(p[k] >> 4), tq = Int(p[k] & 15); k += 1
                    var t = [Int](repeating: 0, count: 64)
                    for z in 0..<64 { t[JPEGTables.zigzag[z]] = pq == 0 ? Int(p[k + z]) : Int(p[k + 2 * z]) << 8 | Int(p[k + 2 * z + 1]) }
                    k += pq == 0 ? 64 : 128
                    info.quantTables[tq] = t
                }
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                info.frameMarker = marker
                info.height = Int(p[1]) << 8 | Int(p[2]); info.width = Int(p[3]) << 8 | Int(p[4])
                components = []
                for c in 0..<Int(p[5]) {
                    let id: Int = Int(p[6 + 3 * c]), sampling: UInt8 = p[7 + 3 * c], tq: Int = Int(p[8 + 3 * c])
                    components.append((id: id, h: Int(sampling >> 4), v: Int(sampling & 15), tq: tq))
                }
            case 0xC4:
                var k = 0
                while k + 17 <= p.count {
                    let key = Int(p[k]); let bits = Array(p[(k + 1)...(k + 16)]); k += 17
                    let n = bits.reduce(0) { $0 + Int($1) }
                    let values = Array(p[k..<(k + n)]); k += n
                    huffman[key] = HuffmanDecoder(bits: bits, values: values)
                }
            case 0xDD:
                restartInterval = Int(p[0]) << 8 | Int(p[1])
            case 0xDA:
                // The entropy-coded segment runs to the next marker that is not RST or stuffing.
                var e = i + length
                let start = e
                while e + 1 < b.count, !(b[e] == 0xFF && b[e + 1] != 0 && !(0xD0...0xD7).contains(b[e + 1])) { e += 1 }
                if info.frameMarker == 0xC0 || info.frameMarker == 0xC1, info.lumaBlocks == nil {
                    let ns = Int(p[0])
                    var scan: [(id: Int, td: Int, ta: Int)] = []
                    for s in 0..<ns {
                        let id: Int = Int(p[1 + 2 * s]), tables: UInt8 = p[2 + 2 * s]
                        scan.append((id: id, td: Int(tables >> 4), ta: Int(tables & 15)))
                    }
                    if ns == components.count, let first = components.first {
                        let q = info.quantTables[first.tq] ?? []
                        info.lumaBlocks = try decodeDC(
                            Array(b[start..<e]), components: components, scan: scan, huffman: huffman,
                            width: info.width, height: info.height, restartInterval: restartInterval, dcQuant: q.first ?? 1)
                    }
                }
                i = e
                continue
            default: break
            }
            i += length
        }
        guard sawEOI else { throw JPEGError.malformed("no EOI") }
        guard info.frameMarker != 0 else { throw JPEGError.malformed("no frame header (SOFn)") }
        if let first = components.first { info.lumaTable = info.quantTables[first.tq] }
        return info
    }

    /// Decodes every block's DC of an interleaved baseline scan and returns the first component's
    /// block means (DC × quantiser / 8 + 128).
    static func decodeDC(
        _ scanData: [UInt8], components: [(id: Int, h: Int, v: Int, tq: Int)], scan: [(id: Int, td: Int, ta: Int)],
        huffman: [Int: HuffmanDecoder], width: Int, height: Int, restartInterval: Int, dcQuant: Int
    ) throws -> [[Double]] {
        var pos = 0, bitBuf: UInt32 = 0, bitCount = 0
        func bit() throws -> UInt32 {
            if bitCount == 0 {
                guard pos < scanData.count else { throw JPEGError.malformed("entropy data cut short") }
                var byte = scanData[pos]; pos += 1
                if byte == 0xFF {
                    // FF00 is a stuffed FF; FF followed by a marker ends the data: read zeros, stay put.
                    let next = pos < scanData.count ? scanData[pos] : 0
                    if next == 0 { pos += 1 } else { byte = 0; pos -= 1 }
                }
                bitBuf = UInt32(byte); bitCount = 8
            }
            bitCount -= 1
            return (bitBuf >> UInt32(bitCount)) & 1
        }
        func decode(_ t: HuffmanDecoder) throws -> UInt8 {
            var code = Int(try bit()), len = 1
            while len <= 16, code > t.maxcode[len] { code = code << 1 | Int(try bit()); len += 1 }
            guard len <= 16 else { throw JPEGError.malformed("bad Huffman code") }
            return t.values[t.valptr[len] + code - t.mincode[len]]
        }
        func receive(_ s: Int) throws -> Int {
            guard s > 0 else { return 0 }
            var v = 0
            for _ in 0..<s { v = v << 1 | Int(try bit()) }
            return v < 1 << (s - 1) ? v - (1 << s) + 1 : v
        }
        let hmax = components.map(\.h).max() ?? 1, vmax = components.map(\.v).max() ?? 1
        let mcusX = (width + 8 * hmax - 1) / (8 * hmax), mcusY = (height + 8 * vmax - 1) / (8 * vmax)
        let first = components[0]
        let blocksX = mcusX * first.h, blocksY = mcusY * first.v
        var luma = [[Double]](repeating: [Double](repeating: 0, count: blocksX), count: blocksY)
        var pred = [Int](repeating: 0, count: components.count)
        var mcu = 0
        for my in 0..<mcusY {
            for mx in 0..<mcusX {
                if restartInterval > 0, mcu > 0, mcu % restartInterval == 0 {
                    // Skip to the byte after the RSTn marker and reset the predictors.
                    bitCount = 0
                    while pos + 1 < scanData.count, !(scanData[pos] == 0xFF && (0xD0...0xD7).contains(scanData[pos + 1])) { pos += 1 }
                    pos += 2
                    pred = pred.map { _ in 0 }
                }
                mcu += 1
                for (ci, c) in components.enumerated() {
                    guard let sc = scan.first(where: { $0.id == c.id }), let dcT = huffman[sc.td], let acT = huffman[0x10 | sc.ta] else {
                        throw JPEGError.malformed("scan has no Huffman table for component \(c.id)")
                    }
                    for by in 0..<c.v {
                        for bx in 0..<c.h {
                            let s = Int(try decode(dcT))
                            pred[ci] += try receive(s)
                            var k = 1
                            while k < 64 {
                                let rs = Int(try decode(acT))
                                let r = rs >> 4, size = rs & 15
                                if size == 0 { if r == 15 { k += 16; continue }; break }
                                k += r; _ = try receive(size); k += 1
                            }
                            if ci == 0 { luma[my * c.v + by][mx * c.h + bx] = Double(pred[0] * dcQuant) / 8 + 128 }
                        }
                    }
                }
            }
        }
        let visibleX = (width + 7) / 8, visibleY = (height + 7) / 8
        return Array(luma.prefix(visibleY).map { Array($0.prefix(visibleX)) })
    }
}

/// A Huffman table in T.81 F.2.2.3's decoding form (MINCODE, MAXCODE, VALPTR).
struct HuffmanDecoder {
    var mincode = [Int](repeating: 0, count: 17), maxcode = [Int](repeating: -1, count: 18), valptr = [Int](repeating: 0, count: 17)
    var values: [UInt8]

    init(bits: [UInt8], values: [UInt8]) {
        self.values = values
        var code = 0, k = 0
        for len in 1...16 {
            let n = Int(bits[len - 1])
            if n > 0 { valptr[len] = k; mincode[len] = code; code += n; k += n; maxcode[len] = code - 1 }
            code <<= 1
        }
    }
}
