import XCTest
import MockBinding
import MockSupabase

/// The gate: Naar's Cars FR-047 presets, FR-048 and PERF-CLI-004 as `ImageCompressorSuite`, which
/// inspects the bytes a client's `ImageCompressor` produces (size from the JPEG/PNG headers,
/// byte count against the preset), over the reference compressor and mutants that upscale,
/// ignore the budget, skip the resize, stretch, or write no image.
final class ClientRulesImageCompressorTests: GateTestCase {
    func presets() throws -> [ImagePreset] {
        let images = try XCTUnwrap(try ClientRules.load(app: "naarscars")).images
        XCTAssertEqual(images.map(\.name), ["avatar", "messageImage", "fullSize"])
        return images
    }

    /// The suite's report over every compressor, once per process (`GateWarmUp` starts it before
    /// this suite runs; each test checks its own compressor's report), on Naar's Cars' presets.
    /// Keyed by `name(of:)`, with the ids of the presets they were made from.
    static let reports = Result { () throws -> (presets: [String], byCompressor: [String: SuiteReport]) in
        guard let images = try ClientRules.load(app: "naarscars")?.images else { throw MissingRules() }
        var out = ["the reference": ImageCompressorSuite.run(images, compressor: SharedReference())]
        for flaw in Mutant.Flaw.allCases { out[name(of: flaw)] = ImageCompressorSuite.run(images, compressor: Mutant(flaw: flaw)) }
        return (images.map(\.id), out)
    }

    /// The key of `flaw`'s report (nil: the reference compressor).
    private static func name(of flaw: Mutant.Flaw?) -> String { flaw.map { "the \($0) mutant" } ?? "the reference" }

    /// Naar's Cars has no client-rules.json.
    struct MissingRules: Error, CustomStringConvertible {
        var description: String { "Contracts/naarscars has no client-rules.json" }
    }

    /// The report over `flaw`'s mutant (nil: the reference compressor), made from exactly the
    /// `presets` the test has loaded and checked.
    private func report(_ flaw: Mutant.Flaw?, presets: [ImagePreset]) throws -> SuiteReport {
        let kept = try Self.reports.get()
        XCTAssertEqual(kept.presets, presets.map(\.id), "the kept reports were made from other presets")
        return try XCTUnwrap(kept.byCompressor[Self.name(of: flaw)], "no report over \(Self.name(of: flaw))")
    }

    func testReferenceCompressorConforms() throws {
        let presets = try presets()
        let report = try report(nil, presets: presets)
        XCTAssertTrue(report.passed, report.description)
        XCTAssertEqual(Set(report.checked), Set(presets.map(\.id)))
    }

    /// The reference's bytes are what the headers say: the avatar of a 607x85 picture is a
    /// 400x56 baseline JFIF with no Exif segment.
    func testHeadersOfTheReferenceOutput() throws {
        let avatar = try XCTUnwrap(try presets().first { $0.name == "avatar" })
        let sample = ImageCompressorSuite.samples(for: avatar)[0]
        XCTAssertEqual(sample.image.width, 607)
        let data = try SharedReference().compress(sample.image, preset: avatar)
        let header = try ImageHeader.read(data)
        XCTAssertEqual(header.format, .jpeg)
        XCTAssertEqual([header.width, header.height], [400, 56])
        XCTAssertEqual(header.segments, [0xE0, 0xDB, 0xDB, 0xC0, 0xC4, 0xC4, 0xC4, 0xC4, 0xDA])
        XCTAssertLessThanOrEqual(data.count, avatar.maxBytes)
    }

    func testUpscalingIsRejected() throws {
        let report = try report(.upscales, presets: try presets())
        XCTAssertTrue(report.violations(of: "image.avatar").contains { $0.message.contains("enlarged from 200x133") }, report.description)
    }

    func testIgnoringTheBudgetIsRejected() throws {
        let report = try report(.ignoresBudget, presets: try presets())
        for id in ["image.avatar", "image.messageImage", "image.fullSize"] {
            XCTAssertTrue(
                report.violations(of: id).contains { $0.message.contains("of pure noise: ") && $0.message.contains("-byte budget") }, "\(id): \(report)")
        }
    }

    func testSkippingTheResizeIsRejected() throws {
        let report = try report(.noResize, presets: try presets())
        XCTAssertTrue(
            report.violations(of: "image.messageImage").contains { $0.message.contains("came out 1807x245, longer side over 1200 px") }, report.description)
    }

    func testStretchingIsRejected() throws {
        let report = try report(.stretches, presets: try presets())
        XCTAssertTrue(report.violations(of: "image.fullSize").contains { $0.message.contains("not the 3007x405 aspect ratio") }, report.description)
    }

    func testShrinkingTooFarIsRejected() throws {
        let report = try report(.halves, presets: try presets())
        XCTAssertTrue(report.violations(of: "image.avatar").contains { $0.message.contains("expected the longer side at 400 px") }, report.description)
    }

    func testBytesThatAreNoImageAreRejected() throws {
        let report = try report(.truncated, presets: try presets())
        XCTAssertTrue(report.violations(of: "image.avatar").contains { $0.message.contains("does not end with EOI (FF D9): truncated") }, report.description)
        XCTAssertThrowsError(try ImageHeader.read(Data("GIF89a".utf8))) {
            XCTAssertTrue("\($0)".contains("neither FF D8 (JPEG) nor the PNG signature"), "\($0)")
        }
    }

    /// PNG headers are read too: a hand-made 3x2 PNG (IHDR with its CRC, IEND).
    func testPNGHeaderIsRead() throws {
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + body
            var crc: UInt32 = 0xFFFF_FFFF
            for b in typed { crc ^= UInt32(b); for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 } }
            crc ^= 0xFFFF_FFFF
            let n = UInt32(body.count)
            return [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + typed
                + [UInt8(crc >> 24), UInt8(crc >> 16 & 0xFF), UInt8(crc >> 8 & 0xFF), UInt8(crc & 0xFF)]
        }
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", [0, 0, 0, 3, 0, 0, 0, 2, 8, 2, 0, 0, 0]) + chunk("IEND", [])
        let header = try ImageHeader.read(Data(png))
        XCTAssertEqual([header.width, header.height], [3, 2])
        XCTAssertEqual(header.format, .png)
        var bad = png
        bad[20] ^= 1
        XCTAssertThrowsError(try ImageHeader.read(Data(bad))) { XCTAssertTrue("\($0)".contains("IHDR fails its CRC"), "\($0)") }
    }
}

/// The reference compressor, its output kept once per process for each picture and preset: the
/// reference's own check and the mutant that truncates its bytes compress the same samples
/// (`ImageCompressorSuite.sharedSamples`), so each is encoded once. A hit is the same picture
/// (compared in full), never only the same key.
private struct SharedReference: ImageCompressing {
    private static let memo = ProcessMemo<(image: RasterImage, data: Data)>()

    func compress(_ image: RasterImage, preset: ImagePreset) throws -> Data {
        var hasher = Hasher()
        image.rgb.withUnsafeBytes { hasher.combine(bytes: $0) }
        let key = "\(preset.id) \(preset.maxDimensionPixels) \(preset.maxBytes) \(image.width)x\(image.height) \(hasher.finalize())"
        let kept = try Self.memo.value(key) { (image, try ReferenceImageCompressor().compress(image, preset: preset)) }
        return kept.image == image ? kept.data : try ReferenceImageCompressor().compress(image, preset: preset)
    }
}

/// An `ImageCompressor` with one deliberate flaw.
private struct Mutant: ImageCompressing {
    enum Flaw: CaseIterable, Sendable { case upscales, ignoresBudget, noResize, stretches, halves, truncated }
    let flaw: Flaw
    func compress(_ image: RasterImage, preset: ImagePreset) throws -> Data {
        let m = preset.maxDimensionPixels
        switch flaw {
        case .upscales:
            let longest = max(image.width, image.height)
            // Through the kept outputs: a picture already at the bound (the noise) is the reference's own.
            return try SharedReference().compress(image.resized(width: image.width * m / longest, height: image.height * m / longest), preset: preset)
        case .ignoresBudget:
            let fit = image.fitting(maxDimension: m)
            return BaselineJPEGEncoder.encode(image.resized(width: fit.width, height: fit.height), quality: 100)
        case .noResize:
            return BaselineJPEGEncoder.encode(image, quality: 10)
        case .stretches:
            let fit = image.fitting(maxDimension: m)
            return try ReferenceImageCompressor().compress(image.resized(width: fit.width, height: min(m, fit.height * 2)), preset: preset)
        case .halves:
            let fit = image.fitting(maxDimension: m / 2)
            return try ReferenceImageCompressor().compress(image.resized(width: fit.width, height: fit.height), preset: preset)
        case .truncated:
            return try SharedReference().compress(image, preset: preset).dropLast(2)
        }
    }
}
