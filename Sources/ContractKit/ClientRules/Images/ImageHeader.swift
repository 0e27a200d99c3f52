import Foundation

/// What the bytes of a compressed image say about themselves: the format and the pixel size
/// read from the headers (JPEG: the SOFn segment; PNG: IHDR), with the file's structure checked
/// on the way (JPEG: SOI, well-formed segments, EOI at the end; PNG: signature, IHDR first with
/// its CRC, IEND last). Nothing is decoded.
package struct ImageHeader: Sendable, Equatable {
    /// The container.
    package enum Format: String, Sendable, Equatable {
        /// JPEG (JFIF or Exif).
        case jpeg
        case png
    }
    package var format: Format
    /// Width in pixels.
    package var width: Int
    /// Height in pixels.
    package var height: Int
    /// JPEG segment markers in order before the scan (`0xE0` APP0, `0xE1` APP1 (Exif), `0xDB`,
    /// `0xC0`, …); empty for PNG.
    package var segments: [UInt8]

    /// Why bytes are not a readable JPEG or PNG.
    package struct Unreadable: Error, CustomStringConvertible, Sendable, Equatable {
        /// What is wrong.
        package var reason: String
        package var description: String { "not a readable JPEG or PNG: \(reason)" }
    }

    /// Reads the header of `data`.
    package static func read(_ data: Data) throws -> ImageHeader {
        let b = [UInt8](data)
        if b.count >= 8, b[0..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return try png(b) }
        if b.count >= 2, b[0] == 0xFF, b[1] == 0xD8 { return try jpeg(b) }
        throw Unreadable(
            reason: "the first bytes are \(b.prefix(4).map { String(format: "%02X", $0) }.joined(separator: " ")), neither FF D8 (JPEG) nor the PNG signature")
    }

    static func be16(_ b: [UInt8], _ i: Int) -> Int { Int(b[i]) << 8 | Int(b[i + 1]) }
    static func be32(_ b: [UInt8], _ i: Int) -> Int { be16(b, i) << 16 | be16(b, i + 2) }

    static func jpeg(_ b: [UInt8]) throws -> ImageHeader {
        var i = 2, segments: [UInt8] = []
        var size: (Int, Int)?
        while true {
            guard i + 4 <= b.count else { throw Unreadable(reason: "JPEG ends inside its headers (no SOS)") }
            guard b[i] == 0xFF else { throw Unreadable(reason: String(format: "JPEG: expected a marker at byte %d, found %02X", i, b[i])) }
            let marker = b[i + 1]
            if marker == 0xFF { i += 1; continue } // fill byte
            let length = be16(b, i + 2)
            guard length >= 2, i + 2 + length <= b.count else {
                throw Unreadable(reason: String(format: "JPEG: segment FF%02X at byte %d runs past the end", marker, i))
            }
            segments.append(marker)
            // SOF0..SOF15 except DHT (C4), JPG (C8), DAC (CC).
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard length >= 8 else { throw Unreadable(reason: "JPEG: SOF segment too short") }
                size = (be16(b, i + 7), be16(b, i + 5))
            }
            if marker == 0xDA { break }
            i += 2 + length
        }
        guard let (w, h) = size else { throw Unreadable(reason: "JPEG has no SOF segment before its scan") }
        guard w > 0, h > 0 else { throw Unreadable(reason: "JPEG states a size of \(w)x\(h)") }
        guard b.count >= 4, b[b.count - 2] == 0xFF, b[b.count - 1] == 0xD9 else { throw Unreadable(reason: "JPEG does not end with EOI (FF D9): truncated") }
        return ImageHeader(format: .jpeg, width: w, height: h, segments: segments)
    }

    static func png(_ b: [UInt8]) throws -> ImageHeader {
        guard b.count >= 8 + 25, be32(b, 8) == 13, b[12..<16].elementsEqual(Array("IHDR".utf8)) else {
            throw Unreadable(reason: "PNG does not start with an IHDR chunk")
        }
        guard crc32(b[12..<29]) == UInt32(be32(b, 29)) else { throw Unreadable(reason: "PNG IHDR fails its CRC") }
        let w = be32(b, 16), h = be32(b, 20)
        guard w > 0, h > 0 else { throw Unreadable(reason: "PNG states a size of \(w)x\(h)") }
        guard b.count >= 12, b[(b.count - 8)..<(b.count - 4)].elementsEqual(Array("IEND".utf8)) else {
            throw Unreadable(reason: "PNG does not end with IEND: truncated")
        }
        return ImageHeader(format: .png, width: w, height: h, segments: [])
    }

    /// CRC-32 (ISO 3309, as PNG uses it).
    static func crc32<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
        var c: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            c ^= UInt32(byte)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        }
        return c ^ 0xFFFF_FFFF
    }
}
