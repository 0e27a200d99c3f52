import Foundation

/// The package's reference client components, wired to an app's client-rules.json, and the
/// `client-rules` kind of `contracts verify` that runs every suite against them.
package enum ClientRulesReference {
    /// The reference store for an app's cache rules: `FileCacheManager` for storage `files`,
    /// `MemoryCacheStore` for `memory`.
    package static func cacheFactory(_ rules: CacheRules, durable: Bool = false) -> CacheStoreSuite.Factory {
        { env in
            switch rules.storage {
            case .files: return try FileCacheManager(root: env.directory, rules: rules, clock: env.clock, durable: durable)
            case .memory: return MemoryCacheStore(clock: env.clock)
            }
        }
    }

    /// Runs every suite an app's rules call for against the references; empty without rules.
    package static func verify(_ app: any AppModule.Type) async throws -> [SuiteReport] {
        let appRef = AppRef(type: app)
        guard let rules = try ClientRules.load(app: app.name) else { return [] }
        var reports: [SuiteReport] = []
        let makeBackend: @Sendable () throws -> any BackendUnderTest = {
            try appRef.type.makeBackendUnderTest(clock: ManualClock(suiteEpoch), ids: SeededIDGenerator(seed: 0x5EED), folder: nil)
        }
        if let cache = rules.cache {
            reports.append(await CacheStoreSuite.run(cache, make: cacheFactory(cache)))
        }
        if let limits = rules.rateLimits {
            reports.append(await RateLimiterSuite.run(limits) { clock in RateLimiter(rules: limits, clock: clock) })
        }
        if let realtime = rules.realtime {
            reports.append(
                await RealtimeSuite.run(realtime) { env in
                    RealtimeManager(rules: realtime, transport: env.transport, scheduler: env.scheduler)
                })
        }
        if let loader = rules.loader, !loader.resources.isEmpty {
            reports.append(
                await LoaderSuite.run(rules, makeBackend: makeBackend) { env in
                    CacheThenNetworkLoader<JSONValue>(cache: env.cache, key: env.key, staleBanner: loader.staleBanner) {
                        try await PostgRESTClient(transport: env.transport).rows(path: env.resource.path, query: env.resource.query)
                    }
                })
        }
        if let optimistic = rules.optimistic, let cache = rules.cache {
            reports.append(
                await OptimisticSuite.run(rules, makeBackend: makeBackend) { env in
                    OptimisticListService(
                        resource: optimistic.resource, rules: cache, userID: env.userID, cache: env.cache,
                        transport: env.transport, clock: env.clock)
                })
        }
        if !rules.images.isEmpty {
            reports.append(try imagePresetsFitBuckets(rules, buckets: storageBuckets(app.name)))
            reports.append(ImageCompressorSuite.run(rules.images, compressor: ReferenceImageCompressor()))
        }
        reports += await app.referenceClientReports(rules)
        return reports
    }

    /// The buckets of `Contracts/<app>/storage.json` (none when the app has no such file),
    /// decoded by the one storage.json decoder (`StorageConfiguration.decode`), so a limit
    /// written with a unit (`"2MB"`) is the same number here as in the mock.
    package static func storageBuckets(_ app: String) throws -> [BucketConfig] {
        try AppSpec.load(folder: ContractsLocator.app(app)).bucketConfigs()
    }

    /// Each image preset's byte budget fits the storage buckets it is uploaded to (storage.json),
    /// and every bucket that takes images has a preset uploading to it (FR-048 "All image uploads
    /// MUST use `ImageCompressor`", as `images.uploads`). Not applicable (no rules checked) while
    /// the app declares no buckets.
    package static func imagePresetsFitBuckets(_ rules: ClientRules, buckets declared: [BucketConfig]) throws -> SuiteReport {
        let r = SuiteRecorder(suite: "images")
        guard !declared.isEmpty else { return r.report }
        let buckets = Dictionary(declared.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for preset in rules.images {
            for name in preset.buckets {
                guard let bucket = buckets[name] else {
                    r.fail(preset.id, "\(preset.name) uploads to bucket '\(name)', which storage.json does not declare"); continue
                }
                if let limit = bucket.fileSizeLimit {
                    r.expect(
                        preset.maxBytes <= limit, preset.id, "\(preset.name) allows \(preset.maxBytes) bytes but bucket '\(name)' accepts at most \(limit)")
                } else {
                    r.checking(preset.id)
                }
            }
        }
        for (name, bucket) in buckets.sorted(by: { $0.key < $1.key }) {
            let types = bucket.allowedMimeTypes ?? []
            guard types.contains(where: { $0.hasPrefix("image/") }) else { continue }
            r.expect(
                rules.images.contains { $0.buckets.contains(name) }, "images.uploads",
                "bucket '\(name)' takes \(types.joined(separator: ", ")) but no image preset uploads to it (every image upload goes through the compressor)")
        }
        return r.report
    }

    /// The `client-rules` kind of `contracts verify`: one case per rule checked.
    package static let verifySuite = VerifySuite(kind: "client-rules") { app in
        let appRef = AppRef(type: app)
        let outcome: Result<[SuiteReport], SpecOrRunError> = runBlocking {
            do { return .success(try await verify(appRef.type)) } catch { return .failure(SpecOrRunError(underlying: "\(error)")) }
        }
        return try outcome.get().flatMap { $0.caseResults(app: app.name) }
    }

    /// An app module type carried into concurrent code (metatypes are immutable).
    struct AppRef: @unchecked Sendable { let type: any AppModule.Type }

    /// A failure to load rules or build a reference, carried out of the async runner.
    package struct SpecOrRunError: Error, CustomStringConvertible, Sendable {
        /// The error's text.
        package var underlying: String
        package var description: String { underlying }
    }
}
