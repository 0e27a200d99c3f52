import Foundation

/// Specs already decoded from contracts folders, shared by everything that runs while it is
/// bound (`LoadedSpecs.$current`): a run of `contracts verify`, or a test process's gate, then
/// decodes each app's contracts once instead of once per backend it builds.
///
/// A decoded spec is an immutable value of its files, so reusing it changes nothing while the
/// files stay as they are, which the binder promises for the folders it loads (the bundled
/// `Contracts/` while a process runs). Only successful loads are kept: a folder that fails
/// fails again, with the same error, on every load. Nothing is shared unless bound: library
/// code never keeps one of its own. Other values derived from a folder's contracts are kept
/// here too, under their own kind (the mock's fixture loads, `SeedRecordings`).
package final class LoadedSpecs: @unchecked Sendable {
    /// The specs of the current task, if a caller bound some.
    @TaskLocal package static var current: LoadedSpecs?

    private let lock = NSLock()
    private var values: [String: any Sendable] = [:]

    /// An empty set of loaded specs.
    package init() {}

    /// The value `load` gives for `kind` of `folder`, computed on the first call only. Two
    /// threads asking at once may both load; the first stored value wins.
    package func value<T: Sendable>(_ kind: String, folder: URL, _ load: () throws -> T) rethrows -> T {
        let key = kind + "\u{0}" + folder.standardizedFileURL.path
        if let hit = lock.withLock({ values[key] }) as? T { return hit }
        let loaded = try load()
        return lock.withLock {
            if let first = values[key] as? T { return first }
            values[key] = loaded
            return loaded
        }
    }

    /// `load` through the current task's specs, or directly when none are bound.
    package static func value<T: Sendable>(_ kind: String, folder: URL, _ load: () throws -> T) rethrows -> T {
        guard let current else { return try load() }
        return try current.value(kind, folder: folder, load)
    }
}
