import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The reference cache of TeleportMe §3.2: JSON files under a root folder, global entries in one
/// folder and each user's in their own, every file a `CachedData<T>` envelope with its save time,
/// writes atomic (complete temporary file, then `rename(2)` over the entry), and any file that is
/// not a valid envelope deleted when met. When `durable` (the default) the temporary file is
/// flushed (`fsync`) before the rename and the folder after it, so a save that returned survives
/// a power loss (docs/clientrules.md, "Durability", says exactly what is and is not guaranteed).
///
/// Thread-safe (one lock serialises the process's operations). One process owns a cache folder:
/// opening a store sweeps temporary files left by a writer that died mid-write.
public final class FileCacheManager: ClientCacheStore, @unchecked Sendable {
    package let root: URL
    /// The layout (folders, format version).
    package let layout: CacheLayout
    /// Whether each write is flushed to disk: the file (`fsync`) before it replaces the entry, the
    /// folder after.
    package let durable: Bool
    /// Files larger than this are treated as corrupt instead of being read.
    package let maxEntryBytes: Int

    private let clock: WallClock
    private let lock = NSLock()
    private var counter: UInt64 = 0
    private var deletions = 0

    /// A store over `root` laid out as `layout`, timestamping with `clock`.
    package init(root: URL, layout: CacheLayout, clock: WallClock, durable: Bool = true, maxEntryBytes: Int = 64 << 20) {
        self.root = root
        self.layout = layout
        self.clock = clock
        self.durable = durable
        self.maxEntryBytes = maxEntryBytes
        sweep()
    }

    /// A store for an app's cache rules (which must use storage `files`).
    public convenience init(root: URL, rules: CacheRules, clock: WallClock, durable: Bool = true) throws {
        guard let layout = rules.layout else { throw ClientCacheError.io("the cache rules have no file layout (storage '\(rules.storage.rawValue)')") }
        self.init(root: root, layout: layout, clock: clock, durable: durable)
    }

    /// How many unreadable entries this store has deleted.
    package var deletedCorruptEntries: Int { lock.lock(); defer { lock.unlock() }; return deletions }

    // MARK: Layout

    /// The folder of a user's entries, or of the global ones.
    package func folder(userID: String?) -> URL {
        guard let userID else { return root.appendingPathComponent(layout.global, isDirectory: true) }
        return root.appendingPathComponent(layout.perUser.replacingOccurrences(of: "{userId}", with: userID), isDirectory: true)
    }

    /// The file of an entry (whether or not it exists).
    package func path(for key: CacheKey) -> URL {
        folder(userID: key.userID).appendingPathComponent(key.stem + ".json", isDirectory: false)
    }

    public func fileURL(for key: CacheKey) async -> URL? { path(for: key) }

    // MARK: ClientCacheStore

    public func save<T: Codable & Sendable>(_ value: T, for key: CacheKey) async throws { try saveSynchronously(value, for: key) }

    public func load<T: Codable & Sendable>(_ type: T.Type, for key: CacheKey) async -> CachedData<T>? { loadSynchronously(type, for: key) }

    public func remove(_ key: CacheKey) async { removeSynchronously(key) }

    public func removeAll(userID: String) async { removeAllSynchronously(userID: userID) }

    // MARK: Synchronous API

    /// A cache file: the entry's metadata and its value.
    fileprivate struct Envelope<T> {
        var formatVersion: Int
        var key: String
        var userId: String?
        var savedAt: Double
        var ttlSeconds: Double?
        var value: T
    }

    /// The bytes of `key`'s file holding `value` saved at `savedAt` (seconds since 1970), in
    /// format `formatVersion`: what a save writes.
    package static func encodeEntry<T: Encodable>(_ value: T, for key: CacheKey, savedAt: Double, formatVersion: Int) throws -> Data {
        let envelope = Envelope(
            formatVersion: formatVersion, key: key.stem, userId: key.userID,
            savedAt: savedAt, ttlSeconds: key.ttl, value: value)
        do { return try JSONEncoder().encode(envelope) } catch { throw ClientCacheError.encoding("\(error)") }
    }

    /// The value and save time (seconds since 1970) `data` holds when it is a valid envelope of
    /// `key` (its stem and user) in format `formatVersion` with a `T` value and a finite save
    /// time; nil otherwise. What a load accepts of a file's bytes (a load also refuses what is not
    /// a regular file or is over `maxEntryBytes`, and deletes what this refuses).
    package static func decodeEntry<T: Decodable>(_ type: T.Type, from data: Data, for key: CacheKey, formatVersion: Int) -> (value: T, savedAt: Double)? {
        guard let envelope = try? JSONDecoder().decode(Envelope<T>.self, from: data),
            envelope.formatVersion == formatVersion, envelope.key == key.stem, envelope.userId == key.userID,
            envelope.savedAt.isFinite
        else { return nil }
        return (envelope.value, envelope.savedAt)
    }

    /// Saves a value atomically: the entry is either the old one or the new one, never a mix.
    package func saveSynchronously<T: Encodable>(_ value: T, for key: CacheKey) throws {
        guard key.isValid else { throw ClientCacheError.invalidKey(key.description) }
        let data = try Self.encodeEntry(value, for: key, savedAt: clock.now().timeIntervalSince1970, formatVersion: layout.formatVersion)
        lock.lock(); defer { lock.unlock() }
        let dir = folder(userID: key.userID)
        try makeDirectory(dir)
        let final = dir.appendingPathComponent(key.stem + ".json")
        let temp = try writeTemporary(data, in: dir, stem: key.stem)
        if rename(temp.path, final.path) != 0 {
            let err = errno
            // Something that is not a file sits where the entry goes (a directory): clear it, retry once.
            if err == EISDIR || err == ENOTEMPTY || err == EEXIST || err == ENOTDIR {
                try? FileManager.default.removeItem(at: final)
                if rename(temp.path, final.path) == 0 { try syncDirectory(dir); return }
            }
            let e2 = errno
            unlink(temp.path)
            throw ClientCacheError.io("rename to \(final.lastPathComponent): \(String(cString: strerror(e2)))")
        }
        try syncDirectory(dir)
    }

    /// When durable, flushes a folder's entries (the rename that just replaced an entry, or a new
    /// subfolder) to disk, so after a power loss the entry is the new one, not the old one or
    /// none. File systems that cannot sync a folder (`EINVAL`) are left as they are.
    private func syncDirectory(_ dir: URL) throws {
        guard durable else { return }
        let fd = open(dir.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        defer { close(fd) }
        while fsync(fd) != 0 {
            if errno == EINTR { continue }
            if errno == EINVAL || errno == EROFS { return }
            throw ClientCacheError.io("the entry was replaced but \(dir.lastPathComponent) could not be flushed: \(String(cString: strerror(errno)))")
        }
    }

    /// Loads an entry; a file that is not a valid envelope of this key, version and type is deleted.
    package func loadSynchronously<T: Decodable>(_ type: T.Type, for key: CacheKey) -> CachedData<T>? {
        guard key.isValid else { return nil }
        lock.lock(); defer { lock.unlock() }
        let file = path(for: key)
        var st = stat()
        guard lstat(file.path, &st) == 0 else { return nil } // absent (or an unreachable folder)
        guard (st.st_mode & S_IFMT) == S_IFREG, Int(st.st_size) <= maxEntryBytes,
            let data = readRegularFile(file, expected: st),
            let entry = Self.decodeEntry(type, from: data, for: key, formatVersion: layout.formatVersion)
        else {
            discard(file, identity: st)
            return nil
        }
        let savedAt = Date(timeIntervalSince1970: entry.savedAt)
        return CachedData(value: entry.value, savedAt: savedAt, isStale: key.isStale(savedAt: savedAt, now: clock.now()))
    }

    /// Removes one entry (whatever sits at its path).
    package func removeSynchronously(_ key: CacheKey) {
        guard key.isValid else { return }
        lock.lock(); defer { lock.unlock() }
        let file = path(for: key)
        if unlink(file.path) != 0 && errno != ENOENT { try? FileManager.default.removeItem(at: file) }
    }

    /// Removes a user's folder: renamed aside first, so a crash never leaves it half-cleared.
    package func removeAllSynchronously(userID: String) {
        guard CacheKey.isSafeComponent(userID) else { return }
        lock.lock(); defer { lock.unlock() }
        let dir = folder(userID: userID)
        counter += 1
        let trash = dir.deletingLastPathComponent().appendingPathComponent(".trash-\(getpid())-\(counter)")
        if rename(dir.path, trash.path) == 0 {
            try? syncDirectory(dir.deletingLastPathComponent())
            try? FileManager.default.removeItem(at: trash)
        } else if errno != ENOENT {
            try? FileManager.default.removeItem(at: dir)
        }
    }

    // MARK: Files

    private func makeDirectory(_ dir: URL) throws {
        let fm = FileManager.default
        var isDir: ObjCBool = false
        if fm.fileExists(atPath: dir.path, isDirectory: &isDir), isDir.boolValue { return }
        defer {
            // New folders are entries of their parents: flush each parent up to the root's.
            var child = dir
            while child.path.count >= root.path.count, child.path != "/" {
                let parent = child.deletingLastPathComponent()
                try? syncDirectory(parent)
                child = parent
            }
        }
        do {
            try fm.createDirectory(at: dir, withIntermediateDirectories: true)
        } catch {
            // A file sits where a folder goes: remove the obstacles along the path and retry once.
            var p = root
            for c in dir.path.dropFirst(root.path.count).split(separator: "/") {
                p.appendPathComponent(String(c))
                var st = stat()
                if lstat(p.path, &st) == 0 && (st.st_mode & S_IFMT) != S_IFDIR { try? fm.removeItem(at: p) }
            }
            do { try fm.createDirectory(at: dir, withIntermediateDirectories: true) } catch {
                throw ClientCacheError.io("cannot create \(dir.path): \(error.localizedDescription)")
            }
        }
    }

    private func writeTemporary(_ data: Data, in dir: URL, stem: String) throws -> URL {
        while true {
            counter += 1
            let temp = dir.appendingPathComponent(".tmp-\(stem)-\(getpid())-\(counter)")
            let fd = open(temp.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd < 0 {
                if errno == EEXIST { continue }
                throw ClientCacheError.io("cannot create a temporary file in \(dir.lastPathComponent): \(String(cString: strerror(errno)))")
            }
            var ok = data.withUnsafeBytes { raw -> Bool in
                var offset = 0
                while offset < raw.count {
                    let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                    if n < 0 { if errno == EINTR { continue }; return false }
                    offset += n
                }
                return true
            }
            if ok && durable { ok = fsync(fd) == 0 }
            close(fd)
            guard ok else {
                let e = errno
                unlink(temp.path)
                throw ClientCacheError.io("write failed: \(String(cString: strerror(e)))")
            }
            return temp
        }
    }

    /// Reads a regular file without following links; nil if it changed under us or cannot be read.
    private func readRegularFile(_ file: URL, expected: stat) -> Data? {
        let fd = open(file.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG, Int(st.st_size) <= maxEntryBytes else { return nil }
        var out = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 { if errno == EINTR { continue }; return nil }
            if n == 0 { break }
            out.append(contentsOf: buffer[0..<n])
            if out.count > maxEntryBytes { return nil }
        }
        return out
    }

    /// Deletes an unreadable entry, unless it was replaced since it was examined.
    private func discard(_ file: URL, identity: stat) {
        var now = stat()
        guard lstat(file.path, &now) == 0, now.st_ino == identity.st_ino, now.st_dev == identity.st_dev else { return }
        if (now.st_mode & S_IFMT) == S_IFDIR {
            try? FileManager.default.removeItem(at: file)
        } else {
            unlink(file.path)
        }
        deletions += 1
    }

    /// Removes temporary files and trash folders left by an interrupted process.
    private func sweep() {
        let fm = FileManager.default
        var folders = [root.appendingPathComponent(layout.global)]
        let userParent = folder(userID: "x").deletingLastPathComponent()
        if let users = try? fm.contentsOfDirectory(atPath: userParent.path) {
            for u in users {
                if u.hasPrefix(".trash-") {
                    try? fm.removeItem(at: userParent.appendingPathComponent(u))
                } else {
                    folders.append(userParent.appendingPathComponent(u))
                }
            }
        }
        for f in folders {
            for name in (try? fm.contentsOfDirectory(atPath: f.path)) ?? [] where name.hasPrefix(".tmp-") {
                unlink(f.appendingPathComponent(name).path)
            }
        }
    }
}

extension FileCacheManager.Envelope: Encodable where T: Encodable {}
extension FileCacheManager.Envelope: Decodable where T: Decodable {}
