import Foundation

/// A client's `ImageCompressor` (Naar's Cars FR-047): turns a picture into upload-ready bytes
/// for a preset of client-rules.json `images`. What `ImageCompressorSuite` checks.
public protocol ImageCompressing: Sendable {
    /// The compressed image (JPEG or PNG bytes) of `image` under `preset`.
    func compress(_ image: RasterImage, preset: ImagePreset) throws -> Data
}

/// The reference compressor: scales the longer side down to the preset's bound (never up, the
/// aspect ratio kept), then writes a baseline JPEG at the first quality of `qualities` whose
/// bytes fit the budget; when none does, scales by 3/4 and tries again.
public struct ReferenceImageCompressor: ImageCompressing {
    /// Qualities tried in order (the compressor's own choice: the document states none).
    package var qualities: [Int]

    /// A compressor trying `qualities` in order.
    public init(qualities: [Int] = [85, 60, 35, 15]) { self.qualities = qualities }

    /// The budget cannot be met even at 1x1.
    public struct BudgetUnreachable: Error, CustomStringConvertible {
        package var preset: String
        public var description: String { "no JPEG of the image fits the \(preset) budget" }
    }

    public func compress(_ image: RasterImage, preset: ImagePreset) throws -> Data {
        let fit = image.fitting(maxDimension: preset.maxDimensionPixels)
        var current = image.resized(width: fit.width, height: fit.height)
        while true {
            // Each quality in turn; an encoding stops as soon as it passes the budget (its bytes
            // would not fit).
            if let data = BaselineJPEGEncoder.encode(current, qualities: qualities, byteLimit: preset.maxBytes) { return data }
            guard current.width > 1 || current.height > 1 else { throw BudgetUnreachable(preset: preset.name) }
            current = current.resized(width: max(1, current.width * 3 / 4), height: max(1, current.height * 3 / 4))
        }
    }
}

/// The conformance suite of an `ImageCompressor` (Naar's Cars FR-047 presets, FR-048,
/// PERF-CLI-004 "Image compression meets limits: Output ≤ preset max size"): for every preset,
/// pictures wider and taller than its bound, one already within it, and one of pure noise (which
/// no quality setting compresses well) are compressed, and the produced bytes are inspected:
/// a readable JPEG or PNG (size from its headers), the longer side within the bound (equal to
/// it for a smooth picture that was larger), never enlarged, the aspect ratio kept to within a
/// pixel, and at most the preset's byte budget.
public enum ImageCompressorSuite {
    /// A picture the suite compresses.
    package struct Sample: Sendable {
        /// What it is, for messages.
        package var name: String
        /// The pixels.
        package var image: RasterImage
        /// Whether the budget may force it below the bound (noise).
        package var mayShrinkForBudget: Bool
    }

    /// The suite's pictures for a preset: a landscape and a portrait past the bound, a picture
    /// within it, and noise of about one pixel per byte of budget (what a careless encoder
    /// writes at more than a byte a pixel).
    package static func samples(for preset: ImagePreset) -> [Sample] {
        let m = preset.maxDimensionPixels
        func smooth(_ w: Int, _ h: Int) -> RasterImage {
            RasterImage(width: w, height: h) { x, y in
                let r = UInt8(truncatingIfNeeded: x * 255 / max(1, w - 1))
                let g = UInt8(truncatingIfNeeded: y * 255 / max(1, h - 1))
                let d = (x - w / 2) * (x - w / 2) + (y - h / 2) * (y - h / 2)
                let b: UInt8 = d < (min(w, h) / 3) * (min(w, h) / 3) ? 220 : 40
                return (r, g, b)
            }
        }
        var seed: UInt32 = 0x9E37_79B9
        let noiseW = m, noiseH = min(m, max(8, preset.maxBytes / m))
        let noise = RasterImage(width: noiseW, height: noiseH) { _, _ in
            seed = seed &* 1_664_525 &+ 1_013_904_223
            return (UInt8(truncatingIfNeeded: seed >> 24), UInt8(truncatingIfNeeded: seed >> 16), UInt8(truncatingIfNeeded: seed >> 8))
        }
        return [
            Sample(name: "a \(m * 3 / 2 + 7)x\(m / 5 + 5) landscape", image: smooth(m * 3 / 2 + 7, m / 5 + 5), mayShrinkForBudget: false),
            Sample(name: "a \(m / 5 + 3)x\(m * 3 / 2 + 1) portrait", image: smooth(m / 5 + 3, m * 3 / 2 + 1), mayShrinkForBudget: false),
            Sample(name: "a \(m / 2)x\(m / 3) picture already within the bound", image: smooth(m / 2, m / 3), mayShrinkForBudget: false),
            Sample(name: "\(noiseW)x\(noiseH) of pure noise", image: noise, mayShrinkForBudget: true)
        ]
    }

    /// `samples(for:)` computed once per process for each bound and budget (all they depend on):
    /// every compressor the suite runs, the reference and each mutant, gets the same pictures.
    static func sharedSamples(for preset: ImagePreset) -> [Sample] {
        // The computation never throws.
        (try? sampleMemo.value("\(preset.maxDimensionPixels) \(preset.maxBytes)") { samples(for: preset) }) ?? samples(for: preset)
    }

    /// The samples computed so far, by bound and budget.
    private static let sampleMemo = ProcessMemo<[Sample]>()

    /// Runs every preset's samples through `compressor`; violations are named by the preset's id.
    /// The pictures are compressed side by side (`compressor` is `Sendable`: it may be called from
    /// several threads at once), then inspected one by one in the presets' and samples' order, so
    /// the report is the same as one compression after another would give.
    public static func run(_ presets: [ImagePreset], compressor: any ImageCompressing) -> SuiteReport {
        let r = SuiteRecorder(suite: "image-compressor")
        let pairs = presets.flatMap { preset in sharedSamples(for: preset).map { (preset: preset, sample: $0) } }
        // Each element's own result is kept (the body never throws), so one compressor's error
        // is reported against its picture alone.
        let outputs =
            (try? Concurrently<Result<Data, any Error>>.map(pairs) { pair in Result { try compressor.compress(pair.sample.image, preset: pair.preset) } })
            ?? pairs.map { pair in Result { try compressor.compress(pair.sample.image, preset: pair.preset) } }
        for (pair, output) in zip(pairs, outputs) {
            check(pair.preset, pair.sample, output: output, recorder: r)
        }
        return r.report
    }

    /// Inspects `output`, what the compressor made (or threw) of `sample` under `preset`.
    static func check(_ preset: ImagePreset, _ sample: Sample, output: Result<Data, any Error>, recorder r: SuiteRecorder) {
        let id = preset.id, input = sample.image, label = "\(preset.name): \(sample.name)"
        let data: Data
        do { data = try output.get() } catch { r.fail(id, "\(label): the compressor threw \(error)"); return }
        let header: ImageHeader
        do { header = try ImageHeader.read(data) } catch { r.fail(id, "\(label): \(error)"); return }
        let (w, h) = (header.width, header.height)
        let bound = preset.maxDimensionPixels
        r.expect(
            data.count <= preset.maxBytes, id, "\(label): \(data.count) bytes, over the \(preset.maxBytes)-byte budget (PERF-CLI-004: output ≤ preset max size)"
        )
        r.expect(max(w, h) <= bound, id, "\(label): came out \(w)x\(h), longer side over \(bound) px")
        r.expect(w <= input.width && h <= input.height, id, "\(label): came out \(w)x\(h), enlarged from \(input.width)x\(input.height)")
        // Aspect ratio: within one pixel of rounding on the shorter side.
        let skew = abs(w * input.height - h * input.width)
        r.expect(skew <= max(input.width, input.height), id, "\(label): came out \(w)x\(h), not the \(input.width)x\(input.height) aspect ratio")
        if !sample.mayShrinkForBudget {
            let fit = input.fitting(maxDimension: bound)
            r.expect(
                max(w, h) == max(fit.width, fit.height), id,
                "\(label): came out \(w)x\(h), expected the longer side at \(max(fit.width, fit.height)) px (scaled only as far as the \(bound) px bound needs)"
            )
        }
    }
}
