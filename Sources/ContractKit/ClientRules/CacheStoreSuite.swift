import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The conformance suite of a client cache (TeleportMe §3.2/§3.6, Naar's Cars FR-042/FR-044):
/// every entry of the app's cache table is saved and loaded under an injected clock, probed just
/// before, at and just after its TTL, isolated per user, invalidated by the app's events; for a
/// file-backed store, its files are corrupted in every way a disk can and replaced under a reader.
///
/// ```swift
/// let rules = try ClientRules.load(app: "teleportme")!.cache!
/// let report = await CacheStoreSuite.run(rules) { env in
///     MyCacheManager(directory: env.directory, clock: env.clock)
/// }
/// XCTAssertTrue(report.passed, report.description)
/// ```
public enum CacheStoreSuite {
    /// The behaviour ids this suite checks (client-rules.json lists those that apply).
    package static let behaviourIDs: Set<String> = [
        "cache.missing-is-nil", "cache.round-trip", "cache.overwrite-restamps", "cache.user-isolation",
        "cache.global-shared", "cache.corrupt-entry-deleted", "cache.atomic-replace", "cache.survives-relaunch"
    ]
    /// Behaviours that only a file-backed store can have.
    package static let fileBehaviourIDs: Set<String> = ["cache.corrupt-entry-deleted", "cache.atomic-replace", "cache.survives-relaunch"]

    /// What a store under test is built from: the suite's clock and an empty folder of its own.
    public struct Environment: Sendable {
        /// The clock the store must timestamp and judge freshness with.
        public let clock: ManualClock
        /// An empty folder for a file-backed store (the same folder again for a "relaunch").
        public let directory: URL
    }

    /// Builds the store under test.
    public typealias Factory = @Sendable (Environment) async throws -> any ClientCacheStore
    /// Applies an invalidation rule for a user (default: `CacheInvalidator`).
    public typealias Invalidate = @Sendable (InvalidationRule, String, any ClientCacheStore) async -> Void

    /// Users the suite saves entries for.
    static let userA = "00000000-0000-4000-8000-0000000000a1"
    static let userB = "00000000-0000-4000-8000-0000000000b2"
    static let userC = "00000000-0000-4000-8000-0000000000c3"

    /// Runs every check the rules call for against stores built by `make`.
    public static func run(_ rules: CacheRules, invalidate: Invalidate? = nil, make: @escaping Factory) async -> SuiteReport {
        let r = SuiteRecorder(suite: "cache")
        let ctx = Context(
            rules: rules, recorder: r, make: make,
            invalidate: invalidate ?? { rule, user, store in await CacheInvalidator(rules: rules).apply(rule, userID: user, on: store) })
        if rules.has("cache.missing-is-nil") { await ctx.missingIsNil() }
        if rules.has("cache.round-trip") { await ctx.roundTrip() }
        await ctx.ttl()
        if rules.has("cache.overwrite-restamps") { await ctx.overwrite() }
        if rules.has("cache.user-isolation") { await ctx.userIsolation() }
        if rules.has("cache.global-shared") { await ctx.globalShared() }
        for rule in rules.invalidation { await ctx.invalidation(rule) }
        if rules.has("cache.corrupt-entry-deleted") { await ctx.corruption() }
        if rules.has("cache.atomic-replace") { await ctx.atomicReplace() }
        if rules.has("cache.survives-relaunch") { await ctx.relaunch() }
        return r.report
    }

    /// A typed value the suite saves under one type and reads back under another.
    struct ProbeRecord: Codable, Sendable, Equatable { var probe: Int }

    struct Fixture {
        let scratch: ScratchFolder
        let env: Environment
        let store: any ClientCacheStore
    }

    struct Context {
        let rules: CacheRules
        let recorder: SuiteRecorder
        let make: Factory
        let invalidate: Invalidate

        var r: SuiteRecorder { recorder }

        func fixture(_ rule: String) async -> Fixture? {
            let scratch = ScratchFolder("cache")
            let dir = scratch.url.appendingPathComponent("store", isDirectory: true)
            try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            let env = Environment(clock: ManualClock(suiteEpoch), directory: dir)
            do {
                return Fixture(scratch: scratch, env: env, store: try await make(env))
            } catch {
                r.fail(rule, "the store could not be created: \(error)")
                scratch.remove()
                return nil
            }
        }

        func qualifier(_ e: CacheEntryRule, _ n: Int = 1) -> String? {
            e.qualifiers.isEmpty ? nil : e.qualifiers.map { "\($0)-\(n)" }.joined(separator: ".")
        }

        func key(_ e: CacheEntryRule, _ user: String?, q: Int = 1) -> CacheKey {
            e.key(user: user, qualifier: qualifier(e, q), freshness: rules.freshness)
        }

        func value(_ e: CacheEntryRule, _ user: String?, _ n: Int) -> JSONValue {
            [
                "entry": .string(e.key), "user": .string(e.scope == .user ? (user ?? "-") : "global"), "n": .int(Int64(n)),
                "text": "Zürich — 東京 \"quoted\"\n\ttab", "score": 7.25, "tags": [true, .null, 0.1, -3]
            ]
        }

        /// Saves; a throw is a violation of `rule`.
        @discardableResult
        func save(_ f: Fixture, _ v: JSONValue, _ k: CacheKey, _ rule: String) async -> Bool {
            do { try await f.store.save(v, for: k); return true } catch {
                r.fail(rule, "save of \(k) threw: \(error)")
                return false
            }
        }

        /// The users an entry is saved for: A and B, or nobody for a global entry.
        func users(_ e: CacheEntryRule) -> [String?] { e.scope == .user ? [CacheStoreSuite.userA, CacheStoreSuite.userB] : [nil] }

        /// Saves every entry for users A and B (one value each) and the global ones.
        func populate(_ f: Fixture, _ rule: String, n: Int = 1) async -> [(CacheKey, JSONValue)] {
            var all: [(CacheKey, JSONValue)] = []
            for e in rules.entries {
                for u in users(e) {
                    let k = key(e, u), v = value(e, u, n)
                    if await save(f, v, k, rule) { all.append((k, v)) }
                }
            }
            return all
        }

        func show(_ v: JSONValue?) -> String {
            guard let v else { return "nothing" }
            let s = v.serialized()
            return s.count > 120 ? String(s.prefix(117)) + "…" : s
        }

        // MARK: Checks

        func missingIsNil() async {
            let id = "cache.missing-is-nil"
            guard let f = await fixture(id) else { return }
            defer { f.scratch.remove() }
            for e in rules.entries {
                let k = key(e, CacheStoreSuite.userA)
                let got = await f.store.load(JSONValue.self, for: k)
                r.expect(got == nil, id, "\(k) was never saved but loaded \(show(got?.value))")
            }
        }

        func roundTrip() async {
            let id = "cache.round-trip"
            guard let f = await fixture(id) else { return }
            defer { f.scratch.remove() }
            for e in rules.entries {
                let k = key(e, CacheStoreSuite.userA), v = value(e, CacheStoreSuite.userA, 1)
                guard await save(f, v, k, id) else { continue }
                guard let got = await f.store.load(JSONValue.self, for: k) else {
                    r.fail(id, "\(k) saved, then loaded as nothing"); continue
                }
                r.expect(got.value == v, id, "\(k) loaded \(show(got.value)), saved \(show(v))")
                r.expect(
                    abs(got.savedAt.timeIntervalSince(suiteEpoch)) <= 0.001, id,
                    "\(k) saved at \(suiteEpoch.timeIntervalSince1970) but its timestamp is \(got.savedAt.timeIntervalSince1970)")
                if !e.qualifiers.isEmpty {
                    let k2 = key(e, CacheStoreSuite.userA, q: 2), v2 = value(e, CacheStoreSuite.userA, 2)
                    await save(f, v2, k2, id)
                    let a = await f.store.load(JSONValue.self, for: k), b = await f.store.load(JSONValue.self, for: k2)
                    r.expect(
                        a?.value == v && b?.value == v2, id,
                        "\(k) and \(k2) are distinct entries, but after saving both they loaded \(show(a?.value)) and \(show(b?.value))")
                }
            }
        }

        /// For each entry: stale exactly when the freshness rule says, probed around the TTL.
        func ttl() async {
            guard let first = rules.entries.first, let f = await fixture(first.id) else { return }
            defer { f.scratch.remove() }
            let p = rules.freshness.probeSeconds
            for e in rules.entries {
                let k = key(e, CacheStoreSuite.userA), v = value(e, CacheStoreSuite.userA, 1)
                f.env.clock.set(suiteEpoch)
                guard await save(f, v, k, e.id) else { continue }
                let ages = e.ttlSeconds.map { ttl in [0, ttl - p, ttl, ttl + p].filter { $0 >= 0 } } ?? [0, 86_400, 10 * 365 * 86_400]
                for age in ages {
                    f.env.clock.set(suiteEpoch.addingTimeInterval(age))
                    let expected = rules.freshness.staleWhenAge.isStale(age: age, ttl: e.ttlSeconds)
                    let ttlText = e.ttlSeconds.map { "TTL \(secondsText($0))" } ?? "no TTL"
                    guard let got = await f.store.load(JSONValue.self, for: k) else {
                        r.fail(
                            e.id,
                            "\(ttlText): \(k) vanished at age \(secondsText(age)) (a stale entry must still load, flagged stale: §3.6 shows it while refreshing)"
                        )
                        break
                    }
                    r.expect(
                        got.isStale == expected, e.id,
                        "\(ttlText): \(k) at age \(secondsText(age)) was \(got.isStale ? "stale" : "fresh"), expected \(expected ? "stale" : "fresh") (stale when age \(rules.freshness.staleWhenAge == .atLeastTTL ? ">=" : ">") TTL)"
                    )
                    r.expect(got.value == v, e.id, "\(k) at age \(secondsText(age)) loaded \(show(got.value)), saved \(show(v))")
                }
            }
        }

        func overwrite() async {
            let id = "cache.overwrite-restamps"
            guard let f = await fixture(id) else { return }
            defer { f.scratch.remove() }
            for e in rules.entries {
                let k = key(e, CacheStoreSuite.userA)
                let v1 = value(e, CacheStoreSuite.userA, 1), v2 = value(e, CacheStoreSuite.userA, 2)
                f.env.clock.set(suiteEpoch)
                guard await save(f, v1, k, id) else { continue }
                // With a TTL, the second save comes late in the first's life and the entry is read
                // back after the first would have expired.
                let ttl = e.ttlSeconds.flatMap { $0 > 0 ? $0 : nil }
                if let ttl { f.env.clock.advance(by: ttl * 0.75) }
                guard await save(f, v2, k, id) else { continue }
                if let ttl { f.env.clock.advance(by: ttl * 0.5) }
                let got = await f.store.load(JSONValue.self, for: k)
                r.expect(got?.value == v2, id, "\(k) saved twice, loaded \(show(got?.value)) instead of the second value")
                if let ttl, let got {
                    r.expect(
                        !got.isStale, id,
                        "\(k) re-saved \(secondsText(ttl * 0.5)) ago (TTL \(secondsText(ttl))) is stale: the second save did not restart its TTL")
                }
            }
        }

        func userIsolation() async {
            let id = "cache.user-isolation"
            guard let f = await fixture(id) else { return }
            defer { f.scratch.remove() }
            let userEntries = rules.entries.filter { $0.scope == .user }
            for e in userEntries {
                let ka = key(e, CacheStoreSuite.userA), kb = key(e, CacheStoreSuite.userB), kc = key(e, CacheStoreSuite.userC)
                let va = value(e, CacheStoreSuite.userA, 1), vb = value(e, CacheStoreSuite.userB, 1)
                await save(f, va, ka, id)
                await save(f, vb, kb, id)
                let a = await f.store.load(JSONValue.self, for: ka), b = await f.store.load(JSONValue.self, for: kb)
                let c = await f.store.load(JSONValue.self, for: kc)
                r.expect(a?.value == va, id, "\(ka) loaded \(show(a?.value)) after another user saved the same key")
                r.expect(b?.value == vb, id, "\(kb) loaded \(show(b?.value))")
                r.expect(c == nil, id, "\(kc) was never saved but loaded \(show(c?.value)) (another user's entry leaked)")
            }
            await f.store.removeAll(userID: CacheStoreSuite.userA)
            for e in userEntries {
                let kb = key(e, CacheStoreSuite.userB)
                let b = await f.store.load(JSONValue.self, for: kb)
                r.expect(b?.value == value(e, CacheStoreSuite.userB, 1), id, "clearing user A removed or changed \(kb): loaded \(show(b?.value))")
                let a = await f.store.load(JSONValue.self, for: key(e, CacheStoreSuite.userA))
                r.expect(a == nil, id, "clearing user A left \(key(e, CacheStoreSuite.userA)) loadable")
            }
        }

        func globalShared() async {
            let id = "cache.global-shared"
            guard let f = await fixture(id) else { return }
            defer { f.scratch.remove() }
            for e in rules.entries where e.scope == .global {
                let k = key(e, nil), v = value(e, nil, 1)
                await save(f, v, k, id)
                await f.store.removeAll(userID: CacheStoreSuite.userA)
                await f.store.removeAll(userID: CacheStoreSuite.userB)
                let got = await f.store.load(JSONValue.self, for: k)
                r.expect(got?.value == v, id, "global \(k) loaded \(show(got?.value)) after users were cleared")
                let viaUser = e.key(user: CacheStoreSuite.userB, qualifier: qualifier(e), freshness: rules.freshness)
                let other = await f.store.load(JSONValue.self, for: viaUser)
                r.expect(other?.value == v, id, "global \(k) asked for on behalf of another user loaded \(show(other?.value))")
            }
        }

        func invalidation(_ rule: InvalidationRule) async {
            guard let f = await fixture(rule.id) else { return }
            defer { f.scratch.remove() }
            let all = await populate(f, rule.id)
            await invalidate(rule, CacheStoreSuite.userA, f.store)
            for (k, v) in all {
                let cleared: Bool
                switch rule.clears {
                case .allUserEntries: cleared = k.userID == CacheStoreSuite.userA
                case .keys(let names): cleared = names.contains(k.name) && (k.userID == nil || k.userID == CacheStoreSuite.userA)
                }
                let got = await f.store.load(JSONValue.self, for: k)
                if cleared {
                    r.expect(got == nil, rule.id, "event '\(rule.event)' for user A should clear \(k), but it still loads")
                } else {
                    r.expect(got?.value == v, rule.id, "event '\(rule.event)' for user A should keep \(k), but it loaded \(show(got?.value))")
                }
            }
        }

        /// Ways a cache file goes bad.
        var corruptions: [(String, (URL) throws -> Void)] {
            let fm = FileManager.default
            return [
                ("garbage bytes", { try Data([0x00, 0xFF, 0x7B, 0x22, 0x9C, 0x0A, 0x5B, 0x5B, 0xC3, 0x28]).write(to: $0) }),
                ("an empty file", { try Data().write(to: $0) }),
                (
                    "the file cut to half its length",
                    { url in
                        let d = try Data(contentsOf: url); try d.prefix(d.count / 2).write(to: url)
                    }
                ),
                ("valid JSON of another shape", { try Data(#"{"unexpected": [1, 2, 3], "savedAt": "yesterday"}"#.utf8).write(to: $0) }),
                (
                    "a directory in place of the file",
                    { url in
                        try fm.removeItem(at: url)
                        try fm.createDirectory(at: url, withIntermediateDirectories: false)
                        try Data("inside".utf8).write(to: url.appendingPathComponent("child.json"))
                    }
                ),
                (
                    "a dangling symbolic link",
                    { url in
                        try fm.removeItem(at: url)
                        try fm.createSymbolicLink(atPath: url.path, withDestinationPath: url.path + ".missing-target")
                    }
                )
            ]
        }

        func corruption() async {
            let id = "cache.corrupt-entry-deleted"
            let targets = [CacheScope.user, .global].compactMap { scope in rules.entries.first { $0.scope == scope } }
            for target in targets {
                for (what, corrupt) in corruptions {
                    guard let f = await fixture(id) else { return }
                    defer { f.scratch.remove() }
                    let all = await populate(f, id)
                    let tk = key(target, target.scope == .user ? CacheStoreSuite.userA : nil)
                    guard let url = await f.store.fileURL(for: tk) else {
                        r.fail(id, "a file-backed store must report the file of \(tk) (fileURL(for:) returned nil)"); return
                    }
                    do { try corrupt(url) } catch {
                        r.fail(id, "could not corrupt \(url.lastPathComponent) (\(what)): \(error) — is it the entry's file?"); continue
                    }
                    let got = await f.store.load(JSONValue.self, for: tk)
                    r.expect(got == nil, id, "\(tk) whose file is \(what) loaded \(show(got?.value)), expected nothing")
                    var st = stat()
                    r.expect(lstat(url.path, &st) != 0, id, "\(tk) whose file is \(what) loaded, but the file is still there")
                    for (k, v) in all where k != tk {
                        let other = await f.store.load(JSONValue.self, for: k)
                        r.expect(other?.value == v, id, "after \(tk) turned out to be \(what), \(k) loaded \(show(other?.value))")
                    }
                    // The entry is usable again.
                    let fresh = value(target, tk.userID, 9)
                    if await save(f, fresh, tk, id) {
                        let again = await f.store.load(JSONValue.self, for: tk)
                        r.expect(again?.value == fresh, id, "after \(what) was dropped, saving \(tk) again loaded \(show(again?.value))")
                    }
                }
            }
            // A file holding another type than the one asked for is as unreadable as garbage.
            if let target = targets.first, let f = await fixture(id) {
                defer { f.scratch.remove() }
                let tk = key(target, target.scope == .user ? CacheStoreSuite.userA : nil)
                do { try await f.store.save(["not", "a", "record"], for: tk) } catch { r.fail(id, "save of \(tk) threw: \(error)"); return }
                let wrong = await f.store.load(ProbeRecord.self, for: tk)
                r.expect(wrong == nil, id, "\(tk) holding a list loaded as a record: \(String(describing: wrong?.value))")
                if let url = await f.store.fileURL(for: tk) {
                    var st = stat()
                    r.expect(lstat(url.path, &st) != 0, id, "\(tk) holding another type than asked for was not deleted")
                }
            }
        }

        func atomicReplace() async {
            let id = "cache.atomic-replace"
            guard let f = await fixture(id) else { return }
            defer { f.scratch.remove() }
            guard let target = rules.entries.first else { return }
            let k = key(target, target.scope == .user ? CacheStoreSuite.userA : nil)
            let v1 = value(target, k.userID, 1), v2 = value(target, k.userID, 2)
            guard await save(f, v1, k, id) else { return }
            guard let url = await f.store.fileURL(for: k) else {
                r.fail(id, "a file-backed store must report the file of \(k) (fileURL(for:) returned nil)"); return
            }
            // 1. A second save must not write into the file the first one created.
            let probe = f.scratch.url.appendingPathComponent("probe-link")
            let before = try? Data(contentsOf: url)
            if link(url.path, probe.path) == 0 {
                await save(f, v2, k, id)
                let after = try? Data(contentsOf: probe)
                r.expect(
                    after == before, id,
                    "saving \(k) again rewrote its file in place (a reader or a crash mid-write sees a partial entry); write a temporary file and rename it over the entry"
                )
                unlink(probe.path)
            } else {
                r.fail(id, "the file of \(k) at \(url.path) cannot be linked: \(String(cString: strerror(errno)))")
            }
            // 2. No temporary file is left behind.
            _ = await populate(f, id, n: 3)
            _ = await populate(f, id, n: 4)
            var expected: Set<String> = []
            for e in rules.entries {
                for u in users(e) {
                    if let p = await f.store.fileURL(for: key(e, u)) { expected.insert(p.standardizedFileURL.path) }
                }
            }
            let present = regularFiles(under: f.env.directory)
            let extra = present.subtracting(expected).sorted()
            r.expect(
                extra.isEmpty, id,
                "files left behind after completed saves: \(extra.prefix(5).map { URL(fileURLWithPath: $0).lastPathComponent }.joined(separator: ", "))")
            // 3. A reader running beside a writer only ever sees a whole old or a whole new entry.
            let big1 = bigValue("first"), big2 = bigValue("second")
            guard await save(f, big1, k, id) else { return }
            let torn = TornReads()
            let store = f.store
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for i in 0..<24 { try? await store.save(i % 2 == 0 ? big2 : big1, for: k) }
                    torn.finish()
                }
                group.addTask {
                    while !torn.finished {
                        let got = await store.load(JSONValue.self, for: k)
                        if got?.value != big1 && got?.value != big2 { torn.record(got == nil ? "nothing" : "a mixed value") }
                        await Task.yield()
                    }
                }
            }
            if let first = torn.first {
                r.fail(id, "a reader loading \(k) while it was being replaced got \(first) (\(torn.count) times)")
            } else {
                r.checking(id)
            }
        }

        func relaunch() async {
            let id = "cache.survives-relaunch"
            guard let f = await fixture(id) else { return }
            defer { f.scratch.remove() }
            let all = await populate(f, id)
            let second: any ClientCacheStore
            do { second = try await make(f.env) } catch { r.fail(id, "the store could not be reopened: \(error)"); return }
            for (k, v) in all {
                let got = await second.load(JSONValue.self, for: k)
                r.expect(got?.value == v, id, "after a relaunch \(k) loaded \(show(got?.value)), saved \(show(v))")
                if let got {
                    r.expect(
                        abs(got.savedAt.timeIntervalSince(suiteEpoch)) <= 0.001, id,
                        "after a relaunch \(k) lost its timestamp (\(got.savedAt.timeIntervalSince1970))")
                }
            }
        }

        func bigValue(_ tag: String) -> JSONValue {
            .array((0..<1500).map { .string("\(tag)-\($0)-" + String(repeating: "x", count: 60)) })
        }

        func regularFiles(under dir: URL) -> Set<String> {
            var out: Set<String> = []
            guard let e = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil, options: []) else { return out }
            for case let u as URL in e {
                var st = stat()
                if lstat(u.path, &st) == 0, (st.st_mode & S_IFMT) != S_IFDIR { out.insert(u.standardizedFileURL.path) }
            }
            return out
        }
    }

    /// Shared between the writer and reader of the atomic-replace check.
    final class TornReads: @unchecked Sendable {
        private let lock = NSLock()
        private var done = false
        private(set) var count = 0
        private(set) var first: String?
        var finished: Bool { lock.lock(); defer { lock.unlock() }; return done }
        func finish() { lock.lock(); done = true; lock.unlock() }
        func record(_ what: String) { lock.lock(); count += 1; if first == nil { first = what }; lock.unlock() }
    }
}
