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
        // `while` loops over the buffers and bounds by comparison (the same `min`/`max` values):
        // a debug build, what `swift test` runs, calls no iterator or generic per source pixel.
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                var y = 0
                while y < h {
                    let ys = Int(Double(y) * sy), y0 = ys < height - 1 ? ys : height - 1
                    let ye = Int(Double(y + 1) * sy), yl = ye > y0 + 1 ? ye : y0 + 1, y1 = yl < height ? yl : height
                    var x = 0
                    while x < w {
                        let xs = Int(Double(x) * sx), x0 = xs < width - 1 ? xs : width - 1
                        let xe = Int(Double(x + 1) * sx), xl = xe > x0 + 1 ? xe : x0 + 1, x1 = xl < width ? xl : width
                        var r = 0, g = 0, b = 0
                        var yy = y0
                        while yy < y1 {
                            var i = (yy * width + x0) * 3
                            let stop = (yy * width + x1) * 3
                            while i < stop {
                                r += Int(src[i]); g += Int(src[i + 1]); b += Int(src[i + 2])
                                i += 3
                            }
                            yy += 1
                        }
                        let n = (y1 - y0) * (x1 - x0), o = (y * w + x) * 3
                        dst[o] = UInt8(r / n); dst[o + 1] = UInt8(g / n); dst[o + 2] = UInt8(b / n)
                        x += 1
                    }
                    y += 1
                }
            }
        }
        return RGBImage(width: w, height: h, pixels: out)
    }

    /// An image from its bytes.
    package init(width: Int, height: Int, pixels: [UInt8]) { self.width = width; self.height = height; self.pixels = pixels }
}

/// CivicForge's output stage: `BaselineJPEGEncoder`, 4:4:4 unless told.
package enum JPEGEncoder {
    /// The JPEG bytes of `image` (see `BaselineJPEGEncoder.encode`).
    package static func encode(
        _ image: RGBImage, quality: Int, segments: [(marker: UInt8, payload: [UInt8])] = [],
        subsample: Bool = false, restartInterval: Int = 0
    ) -> Data {
        BaselineJPEGEncoder.encode(
            RasterImage(width: image.width, height: image.height, rgb: image.pixels), quality: quality, segments: segments,
            subsample: subsample, restartInterval: restartInterval, arithmetic: .double)
    }
}
