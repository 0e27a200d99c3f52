import Foundation
import MockSupabase
import MockBinding

/// The photo processing limits of Contracts/civicforge/photos.json (§7 Spike 2, M3), and the
/// checks a client's PhotoProcessor output must pass.
package struct PhotoLimits: Sendable, Equatable {
    /// Photos a post may carry.
    package var maxPhotosPerPost: Int
    /// Maximum output width in pixels.
    package var maxWidth: Int
    /// Whether smaller photos may be enlarged.
    package var upscale: Bool
    /// JPEG quality (0-100).
    package var jpegQuality: Int
    /// The only content type uploaded.
    package var contentType: String
    /// ImageIO metadata dictionaries that must be absent from the output.
    package var strippedMetadata: [String]
    package var thumbnailWidth: Int
    package var thumbnailHeight: Int
    /// APPn numbers the output must not carry (`bytes.forbiddenAppSegments`).
    package var forbiddenAppSegments: [Int] = []
    /// Accepted SOFn markers (`bytes.frameMarkers`: baseline).
    package var frameMarkers: [Int] = []
    /// How far the estimated JPEG quality may be from `jpegQuality`.
    package var qualityTolerance: Int = 0

    /// Loads photos.json.
    package static func load(folder: URL = ContractsLocator.app(CivicForgeApp.name)) throws -> PhotoLimits {
        try SpecNode.decode(PhotoLimits.self, from: folder.appendingPathComponent("photos.json"), displayName: "Contracts/civicforge/photos.json")
    }

    package struct Size: Sendable, Equatable, CustomStringConvertible {
        /// Width in pixels.
        package var width: Int
        /// Height in pixels.
        package var height: Int
        package init(width: Int, height: Int) { self.width = width; self.height = height }
        package var description: String { "\(width)x\(height)" }
    }

    /// A crop rectangle in source pixels.
    package struct Rect: Sendable, Equatable, CustomStringConvertible {
        /// Left edge.
        package var x: Int
        /// Top edge.
        package var y: Int
        package var width: Int
        package var height: Int
        package init(x: Int, y: Int, width: Int, height: Int) { self.x = x; self.y = y; self.width = width; self.height = height }
        package var description: String { "(\(x),\(y)) \(width)x\(height)" }
    }

    /// What the processor must produce for a source photo.
    package struct Plan: Sendable, Equatable {
        /// The resized photo.
        package var output: Size
        /// The part of the source the thumbnail shows.
        package var thumbnailCrop: Rect
        package var thumbnail: Size
    }

    /// The expected output of the processor for a source of `source` pixels (width bounded by
    /// maxWidth, aspect kept, no upscaling; thumbnail from the centred largest square).
    package func plan(source: Size) -> Plan {
        var out = source
        if source.width > maxWidth || (upscale && source.width < maxWidth) {
            out = Size(width: maxWidth, height: max(1, Int((Double(source.height) * Double(maxWidth) / Double(source.width)).rounded())))
        }
        let side = min(source.width, source.height)
        let crop = Rect(x: (source.width - side) / 2, y: (source.height - side) / 2, width: side, height: side)
        return Plan(output: out, thumbnailCrop: crop, thumbnail: Size(width: thumbnailWidth, height: thumbnailHeight))
    }

    /// A processed photo as the client is about to upload it.
    package struct ProcessedPhoto: Sendable, Equatable {
        package var source: Size
        package var output: Size
        package var thumbnail: Size
        /// The JPEG quality used.
        package var quality: Int
        package var contentType: String
        /// ImageIO metadata dictionary keys present in the output (`{Exif}`, `{GPS}`, …).
        package var metadataKeys: [String]
    }

    /// Every way a processed photo set breaks the limits (empty when it conforms).
    package func violations(of photos: [ProcessedPhoto]) -> [String] {
        var out: [String] = []
        if photos.count > maxPhotosPerPost { out.append("\(photos.count) photos, at most \(maxPhotosPerPost) per post") }
        for (i, p) in photos.enumerated() {
            let plan = plan(source: p.source)
            if p.output != plan.output { out.append("photo \(i): output \(p.output), expected \(plan.output) for source \(p.source)") }
            if p.thumbnail != plan.thumbnail { out.append("photo \(i): thumbnail \(p.thumbnail), expected \(plan.thumbnail)") }
            if p.quality != jpegQuality { out.append("photo \(i): JPEG quality \(p.quality), expected \(jpegQuality)") }
            if p.contentType != contentType { out.append("photo \(i): content type \(p.contentType), expected \(contentType)") }
            for k in p.metadataKeys where strippedMetadata.contains(k) { out.append("photo \(i): metadata \(k) not stripped") }
        }
        return out
    }
}

extension PhotoLimits: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case app, source, decisions, jpegQuality, thumbnail, maxPhotosPerPost, maxWidth, upscale, contentType, strippedMetadata, bytes
    }
    /// `thumbnail` of photos.json.
    private struct Thumbnail: Decodable {
        var width: Int, height: Int
        enum CodingKeys: String, CodingKey { case crop, width, height }
        init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            guard try c.decode(String.self, forKey: .crop) == "center" else { throw c.fail(.crop, "only 'center' is defined") }
            width = try c.decode(Int.self, forKey: .width)
            height = try c.decode(Int.self, forKey: .height)
        }
    }
    /// `bytes` of photos.json: how produced JPEG bytes are judged.
    private struct Bytes: Decodable, ContractChecked {
        var forbiddenAppSegments: [Int], frameMarkers: [Int], qualityTolerance: Int
        func validate(_ decoder: Decoder) throws {
            guard (0...20).contains(qualityTolerance) else { throw decoder.fail("qualityTolerance", "must be 0-20") }
        }
    }

    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func positive(_ key: CodingKeys) throws -> Int {
            let v = try c.decode(Int.self, forKey: key)
            guard v > 0 else { throw c.fail(key, "must be positive") }
            return v
        }
        let q = try c.decode(Int.self, forKey: .jpegQuality)
        guard (1...100).contains(q) else { throw c.fail(.jpegQuality, "must be 1-100") }
        let t = try c.decode(Thumbnail.self, forKey: .thumbnail)
        self.init(
            maxPhotosPerPost: try positive(.maxPhotosPerPost), maxWidth: try positive(.maxWidth),
            upscale: try c.decode(Bool.self, forKey: .upscale), jpegQuality: q,
            contentType: try c.decode(String.self, forKey: .contentType),
            strippedMetadata: try c.decode([String].self, forKey: .strippedMetadata),
            thumbnailWidth: t.width, thumbnailHeight: t.height)
        let b = try c.decode(Bytes.self, forKey: .bytes)
        (forbiddenAppSegments, frameMarkers, qualityTolerance) = (b.forbiddenAppSegments, b.frameMarkers, b.qualityTolerance)
    }
}
