import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where throwaway folders go (a suite's scratch stores, a PostgreSQL cluster): `/dev/shm` when
/// it is a writable folder, else the temporary folder. On Linux `/dev/shm` is a memory file
/// system: nothing written there is meant to outlive the run, and on a disk a store's `fsync`
/// waits for the device (seconds on a busy machine) and each created file costs an inode
/// allocation, while what the suites check (names, contents, renames, what is left behind) is
/// the same on either.
package enum ScratchSpace {
    /// The parent folders, first choice first (the temporary folder always last).
    package static var parents: [String] {
        let shm = "/dev/shm"
        var isDir: ObjCBool = false
        let tmp = NSTemporaryDirectory()
        if FileManager.default.fileExists(atPath: shm, isDirectory: &isDir), isDir.boolValue, access(shm, W_OK | X_OK) == 0 {
            return [shm, tmp]
        }
        return [tmp]
    }

    /// The first choice of `parents`.
    package static var parent: URL { URL(fileURLWithPath: parents[0], isDirectory: true) }
}
