import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Drives the reference `FileCacheManager` from arbitrary bytes and checks it against a model:
/// the body of the `cache-fuzz` libFuzzer target and of the tests that replay its corpus and
/// every crash it found.
///
/// Every input first has its bytes after the second read as a cache file (`decoding`): no entry
/// file may be read as two entries' (another key's or another user's), and an entry read back
/// from bytes re-encodes to bytes that read as the same value and time. That is pure and cheap;
/// the on-disk part below (files, renames, damage, reopening) costs a few milliseconds, so the
/// fuzz target runs it on one input in `deepOneIn` (`FuzzDriver.takesDeepPath`) and the replay
/// tests on every input.
///
/// The first byte chooses the on-disk mode:
/// - even: the rest of the input is written as the file of one entry beside valid entries; loading
///   it must give nothing (and delete the file) unless the bytes are a valid envelope, and every
///   other entry must still load unchanged;
/// - odd: the rest is a program of operations (write, load, truncate, flip bytes, replace with a
///   directory / a FIFO / a dangling or foreign symlink / an unreadable file / raw bytes, remove,
///   sign-out, reopen, advance the clock, stray temporary files), checked after every load and
///   at the end against a model of what each entry must hold.
package enum CacheFuzzHarness {
    /// Opens the store under test on a folder (default: the reference `FileCacheManager`).
    package typealias Opener = @Sendable (_ root: URL, _ layout: CacheLayout, _ clock: WallClock) -> any SynchronousFileCache

    /// The reference store, without fsync (the harness checks logic, not durability).
    package static let reference: Opener = { root, layout, clock in FileCacheManager(root: root, layout: layout, clock: clock, durable: false) }

    /// Reads a file's bytes as an entry of a key in a format version: the value and save time, or
    /// nil when the bytes are not such an entry.
    package typealias Decode = @Sendable (_ data: Data, _ key: CacheKey, _ formatVersion: Int) -> (value: JSONValue, savedAt: Double)?

    /// The reference store's reading of a file (`FileCacheManager.decodeEntry`).
    package static let referenceDecode: Decode = { FileCacheManager.decodeEntry(JSONValue.self, from: $0, for: $1, formatVersion: $2) }

    /// One input in this many also runs the on-disk part when fuzzing.
    package static let deepOneIn: UInt64 = 32

    /// The fuzz target's check: the decoding properties on every input, the on-disk part on the
    /// inputs `FuzzDriver.takesDeepPath` picks.
    package static func fuzzRun(_ input: Data, rules: CacheRules, base: URL) -> [String] {
        run(input, rules: rules, base: base, deep: FuzzDriver.takesDeepPath([UInt8](input), oneIn: deepOneIn))
    }

    /// What the model knows of an entry.
    enum Expect: Equatable {
        /// No entry.
        case absent
        /// This value, saved at this time.
        case intact(JSONValue, Date)
        /// The file was damaged: loading must give nothing and delete it.
        case corrupt
        /// The file was altered and may or may not still be a valid envelope.
        case unknown
    }

    /// The entries the harness plays with: two users' per-user entries and the global ones.
    static func slots(_ rules: CacheRules) -> [CacheKey] {
        let users: [String?] = ["00000000-0000-4000-8000-00000000f001", "00000000-0000-4000-8000-00000000f002"]
        return rules.entries.prefix(4).flatMap { e in
            let q = e.qualifiers.isEmpty ? nil : e.qualifiers.map { "\($0)-1" }.joined(separator: ".")
            return (e.scope == .user ? users : [nil]).map { e.key(user: $0, qualifier: q, freshness: rules.freshness) }
        }
    }

    /// Runs one input: the decoding properties, then (when `deep`) the on-disk part in a fresh
    /// folder under `base` (removed afterwards); returns every invariant that failed (empty: the
    /// store behaved).
    package static func run(
        _ input: Data, rules: CacheRules, base: URL, open: Opener = reference,
        decode: Decode = referenceDecode, deep: Bool = true
    ) -> [String] {
        var reader = ByteReader(input)
        guard let mode = reader.byte() else { return [] }
        var problems = decoding(input, rules: rules, decode: decode)
        guard deep else { return problems }
        let dir = base.appendingPathComponent("run-\(getpid())-\(UInt64.random(in: 0...UInt64.max))", isDirectory: true)
        defer { removeTree(dir) }
        problems +=
            mode % 2 == 0
            ? rawFile(&reader, rules: rules, dir: dir, open: open, decode: decode)
            : program(&reader, rules: rules, dir: dir, open: open)
        return problems
    }

    // MARK: Decoding

    /// The bytes after the input's second as a file: read as an entry of at most one slot (an
    /// entry never loads as another key's or another user's); an entry read re-encodes (same key,
    /// time and format) to bytes read back as the same value and time, and not read at all in
    /// another format version.
    static func decoding(_ input: Data, rules: CacheRules, decode: Decode) -> [String] {
        let bytes = input.count > 2 ? input.subdata(in: input.startIndex + 2..<input.endIndex) : Data()
        let version = (rules.layout ?? defaultLayout).formatVersion
        var problems: [String] = []
        var readAs: [CacheKey] = []
        for k in slots(rules) {
            guard let entry = decode(bytes, k, version) else { continue }
            readAs.append(k)
            guard let again = try? FileCacheManager.encodeEntry(entry.value, for: k, savedAt: entry.savedAt, formatVersion: version) else {
                problems.append("\(k): the value read cannot be encoded again")
                continue
            }
            if let back = decode(again, k, version) {
                if !JSONValue.sameValue(back.value, entry.value) || back.savedAt != entry.savedAt {
                    problems.append("\(k): \(entry.value) saved at \(entry.savedAt) reads back as \(back.value) at \(back.savedAt)")
                }
            } else {
                problems.append("\(k): the entry read does not read back once encoded again")
            }
            if decode(again, k, version + 1) != nil { problems.append("\(k): an entry of format \(version) reads as format \(version + 1)") }
        }
        if readAs.count > 1 { problems.append("one file reads as \(readAs.count) entries: \(readAs.map(\.description).joined(separator: ", "))") }
        return problems
    }

    // MARK: Raw file mode

    static func rawFile(_ reader: inout ByteReader, rules: CacheRules, dir: URL, open: Opener, decode: Decode) -> [String] {
        let clock = ManualClock()
        let store = open(dir, rules.layout ?? defaultLayout, clock)
        let keys = slots(rules)
        var problems: [String] = []
        for (i, k) in keys.enumerated() {
            do { try store.saveSynchronously(value(i, 0), for: k) } catch { problems.append("save \(k) threw \(error)") }
        }
        let target = keys[Int(reader.byte() ?? 0) % keys.count]
        let bytes = reader.rest()
        let file = store.path(for: target)
        do { try bytes.write(to: file) } catch { return problems }
        let got = store.loadSynchronously(JSONValue.self, for: target)
        if got == nil && exists(file) { problems.append("\(target): unreadable file (\(bytes.count) bytes) was not deleted") }
        // What the store loads from the file is what its bytes read as.
        let read = decode(bytes, target, (rules.layout ?? defaultLayout).formatVersion)
        if (got == nil) != (read == nil) || !(got.map { g in read.map { JSONValue.sameValue(g.value, $0.value) } ?? false } ?? true) {
            problems.append(
                "\(target): loads \(got.map { "\($0.value)" } ?? "nothing") but its \(bytes.count) bytes read as \(read.map { "\($0.value)" } ?? "nothing")")
        }
        for (i, k) in keys.enumerated() where k != target {
            let v = store.loadSynchronously(JSONValue.self, for: k)
            if v?.value != value(i, 0) {
                problems.append("\(k) changed after \(target) was overwritten with \(bytes.count) raw bytes: \(v.map { "\($0.value)" } ?? "nothing")")
            }
        }
        return problems
    }

    // MARK: Program mode

    static func program(_ reader: inout ByteReader, rules: CacheRules, dir: URL, open: Opener) -> [String] {
        let clock = ManualClock()
        let layout = rules.layout ?? defaultLayout
        var store = open(dir, layout, clock)
        let keys = slots(rules)
        var model = [Expect](repeating: .absent, count: keys.count)
        var problems: [String] = []
        var steps = 0
        let fm = FileManager.default

        func check(_ i: Int, _ op: String) {
            let k = keys[i], file = store.path(for: k)
            let existed = exists(file)
            let got = store.loadSynchronously(JSONValue.self, for: k)
            switch model[i] {
            case .absent:
                if got != nil { problems.append("step \(steps) \(op): \(k) was absent but loaded \(got!.value)") }
            case .intact(let v, let at):
                if got?.value != v { problems.append("step \(steps) \(op): \(k) should hold \(v), loaded \(got.map { "\($0.value)" } ?? "nothing")") }
                if let got {
                    if abs(got.savedAt.timeIntervalSince(at)) > 1e-6 {
                        problems.append("step \(steps) \(op): \(k) timestamp \(got.savedAt.timeIntervalSince1970), saved at \(at.timeIntervalSince1970)")
                    }
                    let stale = k.isStale(savedAt: at, now: clock.now())
                    if got.isStale != stale { problems.append("step \(steps) \(op): \(k) isStale \(got.isStale), expected \(stale)") }
                }
            case .corrupt:
                if got != nil { problems.append("step \(steps) \(op): damaged \(k) loaded \(got!.value)") }
                if exists(file) { problems.append("step \(steps) \(op): damaged \(k) was not deleted") }
            case .unknown:
                if got == nil && existed && exists(file) { problems.append("step \(steps) \(op): unreadable \(k) was not deleted") }
            }
            model[i] = got.map { .intact($0.value, $0.savedAt) } ?? .absent
        }

        while let op = reader.byte(), steps < 64 {
            steps += 1
            let i = Int(reader.byte() ?? 0) % keys.count
            let k = keys[i], file = store.path(for: k)
            switch op % 16 {
            case 0, 1: // write
                let v = value(Int(reader.byte() ?? 0), Int(reader.byte() ?? 0))
                do {
                    try store.saveSynchronously(v, for: k)
                    model[i] = .intact(v, clock.now())
                } catch { problems.append("step \(steps) write: save \(k) threw \(error)") }
            case 2, 3: // load
                check(i, "load")
            case 4: // truncate
                guard let size = fileSize(file), size > 0 else { continue }
                let n = Int(reader.u16()) % size
                if truncate(file.path, off_t(n)) == 0 { model[i] = .corrupt }
            case 5: // flip bytes
                guard var d = readRegularFile(file), !d.isEmpty else { continue }
                let at = Int(reader.u16()) % d.count, mask = reader.byte() ?? 1
                guard mask != 0 else { continue }
                d[at] ^= mask
                if (try? d.write(to: file)) != nil { model[i] = .unknown }
            case 6: // a directory in its place
                removeTree(file)
                try? fm.createDirectory(at: file, withIntermediateDirectories: true)
                if reader.byte().map({ $0 % 2 == 0 }) ?? false { try? Data("x".utf8).write(to: file.appendingPathComponent("inner.json")) }
                if isDirectory(file) { model[i] = .corrupt }
            case 7: // an unreadable file (as root it stays readable: then it is only garbage)
                removeTree(file)
                if (try? reader.take(Int(reader.byte() ?? 0)).write(to: file)) != nil {
                    chmod(file.path, 0)
                    model[i] = .unknown
                }
            case 8: // a dangling symbolic link
                removeTree(file)
                if (try? fm.createSymbolicLink(atPath: file.path, withDestinationPath: file.path + ".gone")) != nil { model[i] = .corrupt }
            case 9: // a symbolic link to another entry's file
                let j = Int(reader.byte() ?? 0) % keys.count
                guard j != i, exists(store.path(for: keys[j])) else { continue }
                removeTree(file)
                if (try? fm.createSymbolicLink(atPath: file.path, withDestinationPath: store.path(for: keys[j]).path)) != nil { model[i] = .corrupt }
            case 10: // a FIFO (a naive reader would block forever)
                removeTree(file)
                try? fm.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                if mkfifo(file.path, 0o644) == 0 { model[i] = .corrupt }
            case 11: // raw bytes
                removeTree(file)
                try? fm.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                if (try? reader.take(Int(reader.u16() % 512)).write(to: file)) != nil { model[i] = .unknown }
            case 12: // remove
                store.removeSynchronously(k)
                model[i] = .absent
            case 13: // sign-out of the entry's user (or of a stranger, for a global one)
                let user = k.userID ?? "00000000-0000-4000-8000-00000000f0ff"
                store.removeAllSynchronously(userID: user)
                for (j, other) in keys.enumerated() where other.userID == user { model[j] = .absent }
            case 14: // reopen (a relaunch), with a stray temporary file from a killed writer
                if reader.byte().map({ $0 % 2 == 0 }) ?? false {
                    try? fm.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try? Data("{\"half".utf8).write(to: file.deletingLastPathComponent().appendingPathComponent(".tmp-\(k.stem)-1-1"))
                }
                store = open(dir, layout, clock)
            default: // advance the clock
                clock.advance(by: TimeInterval(reader.u16()) * 7)
            }
        }
        for i in keys.indices { check(i, "final") }
        // Nothing but entries and their folders is left behind.
        if let e = fm.enumerator(atPath: dir.path) {
            for case let name as String in e where URL(fileURLWithPath: name).lastPathComponent.hasPrefix(".tmp-") {
                problems.append("a temporary file was left behind: \(name)")
            }
        }
        return problems
    }

    // MARK: Helpers

    static let defaultLayout = CacheLayout(root: "", global: "global", perUser: "users/{userId}", formatVersion: 1)

    static func value(_ a: Int, _ b: Int) -> JSONValue {
        switch b % 5 {
        case 0: return ["n": .int(Int64(a)), "name": .string("Zürich \(a)"), "tags": [.bool(a % 2 == 0), .null, 0.5]]
        case 1: return .array((0..<(a % 7)).map { .int(Int64($0 * a)) })
        case 2: return .string(String(repeating: "\u{1F3D9}\"\\\n", count: a % 9))
        case 3: return .double(Double(a) + 0.5)
        default: return ["nested": ["deeper": ["n": .int(Int64(a))]]]
        }
    }

    /// `lstat` of a path (the link itself for a symbolic link), nil when nothing is there.
    static func status(_ url: URL) -> stat? {
        var st = stat()
        return lstat(url.path, &st) == 0 ? st : nil
    }

    static func exists(_ url: URL) -> Bool { status(url) != nil }

    static func isDirectory(_ url: URL) -> Bool { status(url).map { ($0.st_mode & S_IFMT) == S_IFDIR } ?? false }

    static func fileSize(_ url: URL) -> Int? { status(url).flatMap { ($0.st_mode & S_IFMT) == S_IFREG ? Int($0.st_size) : nil } }

    /// A regular file's bytes, read with POSIX calls (`Data(contentsOf:)` on an empty file leaks
    /// a 4 KB buffer in FoundationEssentials, which LeakSanitizer reports).
    static func readRegularFile(_ url: URL) -> Data? {
        guard fileSize(url) != nil else { return nil }
        let fd = open(url.path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var out = Data()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n <= 0 { return n == 0 ? out : nil }
            out.append(contentsOf: buffer[0..<n])
        }
    }

    static func removeTree(_ url: URL) {
        guard exists(url) else { return }
        if isDirectory(url) {
            // Make everything inside writable first (an unreadable file or folder must still go).
            if let e = FileManager.default.enumerator(atPath: url.path) {
                for case let name as String in e { chmod(url.appendingPathComponent(name).path, 0o755) }
            }
            try? FileManager.default.removeItem(at: url)
        } else {
            unlink(url.path)
        }
    }

    /// Reads an input front to back; past the end every read gives nothing.
    struct ByteReader {
        let data: [UInt8]
        var at = 0
        init(_ d: Data) { data = [UInt8](d) }
        mutating func byte() -> UInt8? {
            guard at < data.count else { return nil }
            defer { at += 1 }
            return data[at]
        }
        mutating func u16() -> UInt16 { UInt16(byte() ?? 0) | (UInt16(byte() ?? 0) << 8) }
        mutating func take(_ n: Int) -> Data {
            let end = min(data.count, at + n)
            defer { at = end }
            return Data(data[at..<end])
        }
        mutating func rest() -> Data { take(data.count - at) }
    }
}

/// The synchronous face of a file-backed cache that the fuzz harness drives.
package protocol SynchronousFileCache: AnyObject {
    /// Saves a value atomically.
    func saveSynchronously<T: Encodable>(_ value: T, for key: CacheKey) throws
    /// Loads an entry, deleting an unreadable file.
    func loadSynchronously<T: Decodable>(_ type: T.Type, for key: CacheKey) -> CachedData<T>?
    func removeSynchronously(_ key: CacheKey)
    /// Removes a user's entries.
    func removeAllSynchronously(userID: String)
    /// The file of an entry.
    func path(for key: CacheKey) -> URL
}

extension FileCacheManager: SynchronousFileCache {}
