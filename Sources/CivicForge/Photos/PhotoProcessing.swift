import Foundation
import MockSupabase
import MockBinding

/// A photo as the camera or the library hands it over: the decoded pixels and the original's
/// metadata segment (APP1 Exif, with its TIFF, Exif and GPS directories).
public struct SourcePhoto: Sendable, Equatable {
    /// The pixels, orientation already applied.
    package var image: RGBImage
    /// The original APP1 payload (`Exif\0\0` + TIFF), which the output must not carry.
    public var exif: [UInt8]
    package init(image: RGBImage, exif: [UInt8]) { self.image = image; self.exif = exif }
}

/// What the client uploads for one photo (§7 Spike 2 "Upload both to Supabase Storage").
public struct ProcessedPhotoBytes: Sendable, Equatable {
    public var photo: Data
    /// The 300×300 thumbnail.
    public var thumbnail: Data
    public init(photo: Data, thumbnail: Data) { self.photo = photo; self.thumbnail = thumbnail }
}

/// A client's PhotoProcessor (§8 `PhotoProcessor.swift`: EXIF strip, resize, compress,
/// thumbnail): the implementation under test of `PhotoBytesConformance`.
package protocol PhotoProcessing {
    /// The bytes to upload for `source`.
    func process(_ source: SourcePhoto) throws -> ProcessedPhotoBytes
}

/// The reference processor: photos.json's plan, encoded by `JPEGEncoder` with no metadata.
package struct ReferencePhotoProcessor: PhotoProcessing {
    package var limits: PhotoLimits
    package init(limits: PhotoLimits) { self.limits = limits }

    /// Resize (width bounded, never up), centred square thumbnail, JPEG at `jpegQuality`, no APP1.
    package func process(_ source: SourcePhoto) throws -> ProcessedPhotoBytes {
        let plan = limits.plan(source: .init(width: source.image.width, height: source.image.height))
        let out =
            plan.output.width == source.image.width && plan.output.height == source.image.height
            ? source.image : source.image.resized(width: plan.output.width, height: plan.output.height)
        let c = plan.thumbnailCrop
        let thumb = source.image.cropped(x: c.x, y: c.y, width: c.width, height: c.height).resized(width: plan.thumbnail.width, height: plan.thumbnail.height)
        return ProcessedPhotoBytes(
            photo: JPEGEncoder.encode(out, quality: limits.jpegQuality), thumbnail: JPEGEncoder.encode(thumb, quality: limits.jpegQuality))
    }
}

/// The conformance suite of a PhotoProcessor on the bytes it produces (photos.json), parsed
/// with `JPEGInspector`: no APP1 (Exif/TIFF/GPS, XMP) or APP13 (IPTC) segment, a baseline JPEG,
/// the planned size (width at most maxWidth, never upscaled, aspect kept), the quality within
/// `qualityTolerance`, and a thumbnail of the planned size showing the centred square.
public enum PhotoBytesConformance {
    /// A camera-like source: `width × height`, white inside its centred largest square and black
    /// outside it, carrying an Exif segment with a GPS directory.
    public static func source(width: Int, height: Int) -> SourcePhoto {
        let side = min(width, height), x0 = (width - side) / 2, y0 = (height - side) / 2
        let image = RGBImage(width: width, height: height) { x, y in
            (x >= x0 && x < x0 + side && y >= y0 && y < y0 + side) ? (250, 250, 250) : (0, 0, 0)
        }
        // "Exif\0\0", a big-endian TIFF header, IFD0 with one entry: the GPS IFD pointer (0x8825).
        let exif: [UInt8] = Array("Exif".utf8) + [0, 0, 0x4D, 0x4D, 0, 0x2A, 0, 0, 0, 8, 0, 1, 0x88, 0x25, 0, 4, 0, 0, 0, 1, 0, 0, 0, 26, 0, 0, 0, 0]
        return SourcePhoto(image: image, exif: exif)
    }

    /// The sources the suite runs: landscape above maxWidth, portrait below it (never upscaled),
    /// and a photo smaller than the thumbnail.
    package static func sources(_ limits: PhotoLimits) -> [SourcePhoto] {
        [
            source(width: limits.maxWidth * 6 / 5, height: limits.maxWidth * 4 / 5),
            source(width: limits.maxWidth * 2 / 5, height: limits.maxWidth * 3 / 5),
            source(width: limits.thumbnailWidth / 2, height: limits.thumbnailWidth * 3 / 8)
        ]
    }

    /// `violations(of: ReferencePhotoProcessor(limits:), limits:)`, computed once per process for
    /// each `limits`: the reference's bytes are a pure function of the limits, and both the
    /// `app-rules` kind and the gate's photo suite check them (encoding the camera-sized source
    /// is the costly part).
    package static func referenceViolations(_ limits: PhotoLimits) -> [String] {
        // The computation never throws.
        (try? referenceMemo.value(String(describing: limits)) { violations(of: ReferencePhotoProcessor(limits: limits), limits: limits) })
            ?? violations(of: ReferencePhotoProcessor(limits: limits), limits: limits)
    }

    /// The reference's violations computed so far, by limits.
    private static let referenceMemo = ProcessMemo<[String]>()

    /// Violations of `limits` by `processor` (empty: it conforms) on `sources` (default: all of
    /// `sources(limits)`).
    package static func violations(of processor: some PhotoProcessing, limits: PhotoLimits, sources chosen: [SourcePhoto]? = nil) -> [String] {
        var out: [String] = []
        for s in chosen ?? sources(limits) {
            let size = PhotoLimits.Size(width: s.image.width, height: s.image.height)
            let label = "source \(size)"
            let plan = limits.plan(source: size)
            let bytes: ProcessedPhotoBytes
            do { bytes = try processor.process(s) } catch { out.append("\(label): the processor failed: \(error)"); continue }
            for (kind, data) in [("photo", bytes.photo), ("thumbnail", bytes.thumbnail)] {
                let info: JPEGInfo
                do { info = try JPEGInspector.inspect(data) } catch { out.append("\(label) \(kind): \(error)"); continue }
                for seg in info.appSegments where limits.forbiddenAppSegments.contains(seg.n) {
                    out.append(
                        "\(label) \(kind): APP\(seg.n) segment '\(seg.identifier)' kept (metadata \(limits.strippedMetadata.joined(separator: ", ")) must be stripped)"
                    )
                }
                if !limits.frameMarkers.contains(Int(info.frameMarker)) {
                    out.append("\(label) \(kind): frame 0xFF\(String(info.frameMarker, radix: 16, uppercase: true)) is not baseline JPEG")
                }
                if let q = info.estimatedQuality, abs(q - limits.jpegQuality) > limits.qualityTolerance {
                    out.append("\(label) \(kind): JPEG quality about \(q), expected \(limits.jpegQuality) (±\(limits.qualityTolerance))")
                }
                if kind == "photo" {
                    if info.width > size.width { out.append("\(label) photo: upscaled to width \(info.width)") }
                    if info.width > limits.maxWidth { out.append("\(label) photo: width \(info.width) above \(limits.maxWidth)") }
                    if info.width != plan.output.width || abs(info.height - plan.output.height) > 1 {
                        out.append("\(label) photo: \(info.width)x\(info.height), expected \(plan.output) (aspect kept)")
                    }
                    // Resized, not cropped: a landscape keeps its black sides, a portrait its black top.
                    if let blocks = info.lumaBlocks, let row = blocks.first, let firstCol = row.first {
                        let edge = size.width > size.height ? firstCol : (row.count > 1 ? row[row.count / 2] : firstCol)
                        if size.width != size.height, edge > 128 { out.append("\(label) photo: the edge of the frame is missing (cropped instead of resized)") }
                    }
                } else {
                    if info.width != plan.thumbnail.width || info.height != plan.thumbnail.height {
                        out.append("\(label) thumbnail: \(info.width)x\(info.height), expected \(plan.thumbnail)")
                    }
                    guard let blocks = info.lumaBlocks else { continue }
                    let dark = blocks.joined().filter { $0 < 128 }.count
                    if dark > 0 { out.append("\(label) thumbnail: \(dark) of \(blocks.joined().count) blocks show the sides outside the centred square") }
                }
            }
        }
        return out
    }
}
