import XCTest
import MockBinding
import MockSupabase
@testable import CivicForge

/// The gate: §7 Spike 2 / M3 photo processing judged on the produced bytes (photos.json), the
/// reference processor conforming and four wrong processors rejected.
final class CivicForgePhotoBytesTests: GateTestCase {
    func testTheInspectorReadsWhatTheEncoderWrites() throws {
        let img = RGBImage(width: 20, height: 10) { x, _ in x < 10 ? (0, 0, 0) : (255, 255, 255) }
        let exif = PhotoBytesConformance.source(width: 8, height: 8).exif
        let info = try JPEGInspector.inspect(JPEGEncoder.encode(img, quality: 80, segments: [(0xE1, exif)]))
        XCTAssertEqual(info.width, 20)
        XCTAssertEqual(info.height, 10)
        XCTAssertEqual(info.frameMarker, 0xC0)
        XCTAssertEqual(info.appSegments.map(\.identifier), ["JFIF", "Exif"])
        XCTAssertEqual(info.estimatedQuality, 80)
        XCTAssertEqual(info.lumaTable, JPEGTables.scaled(JPEGTables.luminance, quality: 80))
        let blocks = try XCTUnwrap(info.lumaBlocks)
        XCTAssertEqual(blocks.count, 2)
        XCTAssertLessThan(blocks[0][0], 20)
        XCTAssertGreaterThan(blocks[0][2], 235)
        // 4:2:0 with restart markers (ImageIO's and libjpeg's usual layout): same size and block means.
        let wide = RGBImage(width: 40, height: 24) { x, _ in x < 16 ? (0, 0, 0) : (255, 255, 255) }
        let sub = try JPEGInspector.inspect(JPEGEncoder.encode(wide, quality: 80, subsample: true, restartInterval: 1))
        XCTAssertEqual([sub.width, sub.height], [40, 24])
        let means = try XCTUnwrap(sub.lumaBlocks)
        XCTAssertEqual(means.count, 3)
        XCTAssertEqual(means[0].count, 5)
        for row in means {
            XCTAssertLessThan(row[0], 20); XCTAssertLessThan(row[1], 20)
            XCTAssertGreaterThan(row[2], 235); XCTAssertGreaterThan(row[4], 235)
        }
        XCTAssertThrowsError(try JPEGInspector.inspect(Data([0xFF, 0xD8, 0xFF]))) { XCTAssertTrue("\($0)".contains("not a well-formed JPEG"), "\($0)") }
    }

    func testReferenceProcessorConforms() throws {
        let l = try PhotoLimits.load()
        XCTAssertEqual(l.forbiddenAppSegments, [1, 13])
        // Once per process: the app-rules kind checks the same bytes.
        XCTAssertEqual(PhotoBytesConformance.referenceViolations(l), [])
    }

    /// A processor with one step done wrong.
    struct Mutant: PhotoProcessing {
        enum Kind { case keepsExif, upscales, topLeftThumbnail, quality95 }
        var kind: Kind
        var limits: PhotoLimits
        func process(_ s: SourcePhoto) throws -> ProcessedPhotoBytes {
            var l = limits
            switch kind {
            case .keepsExif:
                let r = try ReferencePhotoProcessor(limits: l).process(s)
                let plan = l.plan(source: .init(width: s.image.width, height: s.image.height))
                let photo = s.image.resized(width: plan.output.width, height: plan.output.height)
                return ProcessedPhotoBytes(photo: JPEGEncoder.encode(photo, quality: l.jpegQuality, segments: [(0xE1, s.exif)]), thumbnail: r.thumbnail)
            case .upscales:
                l.upscale = true
                return try ReferencePhotoProcessor(limits: l).process(s)
            case .topLeftThumbnail:
                let r = try ReferencePhotoProcessor(limits: l).process(s)
                let side = min(s.image.width, s.image.height)
                let t = s.image.cropped(x: 0, y: 0, width: side, height: side).resized(width: l.thumbnailWidth, height: l.thumbnailHeight)
                return ProcessedPhotoBytes(photo: r.photo, thumbnail: JPEGEncoder.encode(t, quality: l.jpegQuality))
            case .quality95:
                l.jpegQuality = 95
                return try ReferencePhotoProcessor(limits: l).process(s)
            }
        }
    }

    func testMutantProcessorsAreRejected() throws {
        let l = try PhotoLimits.load()
        // The smallest source (a landscape below the thumbnail size) shows every mutant and keeps the test fast.
        let small = Array(PhotoBytesConformance.sources(l).suffix(1))
        func run(_ k: Mutant.Kind) -> [String] { PhotoBytesConformance.violations(of: Mutant(kind: k, limits: l), limits: l, sources: small) }
        let exif = run(.keepsExif)
        XCTAssertTrue(exif.contains { $0.contains("photo: APP1 segment 'Exif' kept") }, "\(exif)")
        let up = run(.upscales)
        XCTAssertTrue(up.contains { $0.contains("photo: upscaled to width \(l.maxWidth)") }, "\(up)")
        let corner = run(.topLeftThumbnail)
        XCTAssertTrue(corner.contains { $0.contains("thumbnail:") && $0.contains("show the sides outside the centred square") }, "\(corner)")
        let q = run(.quality95)
        XCTAssertTrue(q.contains { $0.contains("JPEG quality about 95, expected \(l.jpegQuality)") }, "\(q)")
    }
}
