import Foundation

/// An uncompressed RGB image (8 bits per channel, rows top to bottom): what a client's
/// `ImageCompressor` receives in `ImageCompressorSuite` and what `BaselineJPEGEncoder` encodes.
public struct RasterImage: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height * 3` bytes: R, G, B of each pixel, row by row.
    public let rgb: [UInt8]

    /// An image; `rgb` must hold exactly `width * height * 3` bytes.
    public init(width: Int, height: Int, rgb: [UInt8]) {
        precondition(width > 0 && height > 0 && rgb.count == width * height * 3, "RasterImage: \(rgb.count) bytes for \(width)x\(height)")
        self.width = width
        self.height = height
        self.rgb = rgb
    }

    /// An image whose pixel (x, y) is `pixel(x, y)`.
    public init(width: Int, height: Int, pixel: (Int, Int) -> (UInt8, UInt8, UInt8)) {
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        var i = 0
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b) = pixel(x, y)
                bytes[i] = r; bytes[i + 1] = g; bytes[i + 2] = b
                i += 3
            }
        }
        self.init(width: width, height: height, rgb: bytes)
    }

    /// The image scaled to `newWidth` x `newHeight` by averaging the source pixels each target
    /// pixel covers (a box filter: exact for downscaling, nearest neighbour when enlarging).
    public func resized(width newWidth: Int, height newHeight: Int) -> RasterImage {
        precondition(newWidth > 0 && newHeight > 0)
        if newWidth == width && newHeight == height { return self }
        var out = [UInt8](repeating: 0, count: newWidth * newHeight * 3)
        rgb.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for ty in 0..<newHeight {
                    let y0 = ty * height / newHeight
                    let y1 = max(y0 + 1, (ty + 1) * height / newHeight)
                    for tx in 0..<newWidth {
                        let x0 = tx * width / newWidth
                        let x1 = max(x0 + 1, (tx + 1) * width / newWidth)
                        var r = 0, g = 0, b = 0
                        for y in y0..<y1 {
                            var p = (y * width + x0) * 3
                            for _ in x0..<x1 {
                                r += Int(src[p]); g += Int(src[p + 1]); b += Int(src[p + 2])
                                p += 3
                            }
                        }
                        let n = (y1 - y0) * (x1 - x0)
                        let q = (ty * newWidth + tx) * 3
                        dst[q] = UInt8((r + n / 2) / n); dst[q + 1] = UInt8((g + n / 2) / n); dst[q + 2] = UInt8((b + n / 2) / n)
                    }
                }
            }
        }
        return RasterImage(width: newWidth, height: newHeight, rgb: out)
    }

    /// The size that fits `maxDimension` on the longer side with the aspect ratio kept (rounded,
    /// at least 1 px); the image's own size when it already fits (never enlarged).
    public func fitting(maxDimension: Int) -> (width: Int, height: Int) {
        let longest = max(width, height)
        guard longest > maxDimension else { return (width, height) }
        let w = width >= height ? maxDimension : max(1, (width * maxDimension + longest / 2) / longest)
        let h = height >= width ? maxDimension : max(1, (height * maxDimension + longest / 2) / longest)
        return (w, h)
    }
}
