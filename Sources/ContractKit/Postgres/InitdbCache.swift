import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One `initdb` per PostgreSQL build, copied into every cluster instead of run for each.
///
/// What `initdb` writes depends only on the binaries, its options and the user owning the files
/// (no path, host or time decides anything the server later reads), and a data directory that
/// was never started is the same state for every copy. Making one costs seconds of CPU
/// (bootstrapping the catalogs, about 2 s on a quiet 2-core machine and more when busy); copying
/// its ~40 MB within the same memory file system takes a tenth of a second. The prepared folder
/// lives beside the clusters (`ScratchSpace`) as `supacontracts-pg-initdb.<fingerprint>`,
/// outliving the process so the next run starts from it too; the fingerprint covers the
/// binaries' sizes and modification times, the options and the owner, so an upgraded
/// PostgreSQL gets a folder of its own. It appears all at once (made under a temporary name,
/// then renamed), so two processes starting together never copy a half-made one.
enum InitdbCache {
    /// The options every cluster's data directory is made with.
    static let options = ["-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"]
    /// The prepared folders' name prefix (never matched by the sweep of clusters,
    /// `PostgresCluster.prefix`).
    static let prefix = "supacontracts-pg-initdb."

    /// The prepared folder's name for an installation run as `runAs` (nil: this user).
    static func name(_ installation: PostgresInstallation, runAs: String?) -> String {
        var key = installation.bin.path + "\n" + options.joined(separator: " ") + "\n" + (runAs ?? "uid \(geteuid())")
        for tool in ["initdb", "postgres"] {
            let path = installation.bin.appendingPathComponent(tool).resolvingSymlinksInPath().path
            let attrs = (try? FileManager.default.attributesOfItem(atPath: path)) ?? [:]
            let size = (attrs[.size] as? NSNumber)?.int64Value ?? -1
            let mtime = (attrs[.modificationDate] as? Date)?.timeIntervalSince1970 ?? -1
            key += "\n\(path) \(size) \(mtime)"
        }
        // FNV-1a, 64 bits: a folder name, not a security boundary.
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in key.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        return prefix + String(h, radix: 16)
    }

    /// Removes temporary folders left by a process that died while making a prepared folder.
    static func sweepStale(in parent: String) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? [] where name.hasPrefix(prefix) {
            let parts = name.components(separatedBy: ".tmp.")
            guard parts.count == 2, let pid = Int32(parts[1].split(separator: ".").first ?? ""), pid != getpid() else { continue }
            if kill(pid, 0) == 0 || errno == EPERM { continue }
            try? FileManager.default.removeItem(atPath: parent + "/" + name)
        }
    }
}

extension PostgresCluster {
    /// Fills `data/` of this cluster's folder: a copy of the prepared `initdb` (made first when
    /// there is none yet), or `initdb` itself when the copy cannot be made.
    func makeDataDirectory() throws {
        let parent = directory.deletingLastPathComponent().path
        let prepared = parent + "/" + InitdbCache.name(installation, runAs: runAs)
        let fm = FileManager.default
        if !fm.fileExists(atPath: prepared + "/data/global/pg_control") {
            let tmp = prepared + ".tmp.\(getpid()).\(UUID().uuidString.prefix(8))"
            try fm.createDirectory(atPath: tmp, withIntermediateDirectories: true)
            if let user = runAs, let pw = getpwnam(user) { _ = chown(tmp, pw.pointee.pw_uid, pw.pointee.pw_gid) }
            let initdb = try runServerTool("initdb", ["-D", tmp + "/data"] + InitdbCache.options)
            guard initdb.status == 0 else {
                try? fm.removeItem(atPath: tmp)
                throw PostgresUnavailable("initdb failed: \(initdb.output)")
            }
            // Another process may have finished first: then its folder stays and this one goes.
            if rename(tmp, prepared) != 0 { try? fm.removeItem(atPath: tmp) }
        }
        // `cp -a` keeps the owner (the `postgres` user, when running as root) and the 0700 mode
        // the server insists on.
        let cp = ["/bin/cp", "/usr/bin/cp"].first { fm.isExecutableFile(atPath: $0) }
        if let cp, (try? runProgram(cp, ["-a", prepared + "/data", directory.path + "/data"]))?.status == 0 { return }
        try? fm.removeItem(atPath: directory.path + "/data")
        let initdb = try runServerTool("initdb", ["-D", directory.path + "/data"] + InitdbCache.options)
        guard initdb.status == 0 else { throw PostgresUnavailable("initdb failed: \(initdb.output)") }
    }
}
