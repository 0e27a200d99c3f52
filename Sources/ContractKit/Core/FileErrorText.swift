import Foundation

/// File-system errors in words (`permission denied`, `no such folder /x`), not Foundation's
/// `Error Domain=NSCocoaErrorDomain Code=513 …` dumps.
package enum FileErrorText {
    /// Why reading or writing `path` failed: from the error's POSIX code when it carries one,
    /// else from what the file system shows about the path and its folder.
    package static func describe(error: Error?, path: String, writing: Bool) -> String {
        if let error {
            let ns = error as NSError
            var posix: Int32?
            if ns.domain == NSPOSIXErrorDomain { posix = Int32(ns.code) }
            if let u = ns.userInfo[NSUnderlyingErrorKey] as? NSError, u.domain == NSPOSIXErrorDomain { posix = Int32(u.code) }
            if let code = posix { return words(errno: code, path: path) }
            if ns.domain == NSCocoaErrorDomain {
                switch ns.code {
                case NSFileWriteNoPermissionError, NSFileReadNoPermissionError: return "permission denied"
                case NSFileNoSuchFileError, NSFileReadNoSuchFileError: return inspect(path, writing: writing) ?? "no such file or folder"
                case NSFileWriteOutOfSpaceError: return "no space left on the device"
                case NSFileWriteVolumeReadOnlyError: return "read-only file system"
                case NSFileWriteFileExistsError: return "a file is in the way"
                default: break
                }
            }
        }
        return inspect(path, writing: writing) ?? (error.map { ($0 as NSError).localizedDescription } ?? "cannot access it")
    }

    /// Why writing a file at `path` would fail, checked before any work (nil: it looks writable).
    package static func problemWriting(_ path: String) -> String? { inspect(path, writing: true) }

    /// `strerror` in lower case, with the folder named where it is the one missing.
    static func words(errno code: Int32, path: String) -> String {
        if code == ENOENT, let why = inspect(path, writing: true) { return why }
        return String(cString: strerror(code)).lowercased()
    }

    /// What is wrong with `path` as the file system shows it, if anything visible.
    static func inspect(_ path: String, writing: Bool) -> String? {
        let fm = FileManager.default
        let url = URL(fileURLWithPath: path)
        var isDir: ObjCBool = false
        if fm.fileExists(atPath: path, isDirectory: &isDir) {
            if isDir.boolValue && writing { return "it is a folder" }
            if writing && !fm.isWritableFile(atPath: path) { return "permission denied (the file is not writable by this user)" }
            if !writing && !fm.isReadableFile(atPath: path) { return "permission denied (the file is not readable by this user)" }
            return nil
        }
        if !writing { return "no such file" }
        let parent = url.deletingLastPathComponent().path
        var parentIsDir: ObjCBool = false
        if !fm.fileExists(atPath: parent, isDirectory: &parentIsDir) { return "no such folder \(parent)" }
        if !parentIsDir.boolValue { return "\(parent) is a file, not a folder" }
        if !fm.isWritableFile(atPath: parent) { return "permission denied (cannot create files in \(parent))" }
        return nil
    }
}
