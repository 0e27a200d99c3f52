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
        // `while` loops over raw pointers, bounds by comparison: the same sums, without the
        // iterator, `max` and bounds-check calls a debug build (what `swift test` runs) makes per
        // source pixel.
        rgb.withUnsafeBufferPointer { buffer in
            out.withUnsafeMutableBufferPointer { target in
                guard let src = buffer.baseAddress, let dst = target.baseAddress else { return }
                var ty = 0
                while ty < newHeight {
                    let y0 = ty * height / newHeight
                    let yEnd = (ty + 1) * height / newHeight, y1 = yEnd > y0 ? yEnd : y0 + 1
                    var tx = 0
                    while tx < newWidth {
                        let x0 = tx * width / newWidth
                        let xEnd = (tx + 1) * width / newWidth, x1 = xEnd > x0 ? xEnd : x0 + 1
                        var r = 0, g = 0, b = 0
                        var y = y0
                        while y < y1 {
                            var p = src + (y * width + x0) * 3
                            let stop = p + (x1 - x0) * 3
                            while p < stop {
                                r += Int(p[0]); g += Int(p[1]); b += Int(p[2])
                                p += 3
                            }
                            y += 1
                        }
                        let n = (y1 - y0) * (x1 - x0)
                        let q = dst + (ty * newWidth + tx) * 3
                        q[0] = UInt8((r + n / 2) / n); q[1] = UInt8((g + n / 2) / n); q[2] = UInt8((b + n / 2) / n)
                        tx += 1
                    }
                    ty += 1
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
