import Foundation

/// Golden files of the RLS pages: `Golden/<app>/rls/matrix.md` and `matrix.html`, text compared
/// byte for byte. `SUPACONTRACTS_RECORD` decides what is written: `all` rewrites, `missing`
/// writes absent files, `failed` writes absent and different files, `never` (unset; CI) writes
/// nothing. A mismatch reports the first differing lines and writes the actual text to
/// `artifacts/golden/<app>/rls/`.
public enum RLSGolden {
    /// When golden files are written.
    public enum Mode: String, Sendable, CaseIterable {
        /// Rewrite every file.
        case all
        /// Write files that do not exist yet.
        case missing
        /// Write missing files and rewrite those that differ.
        case failed
        /// Write nothing (CI, and the default).
        case never
    }

    /// A record mode that is not one of the four.
    public struct InvalidMode: Error, CustomStringConvertible, Sendable {
        /// The value found.
        public var value: String
        /// The error message.
        public var description: String { "SUPACONTRACTS_RECORD='\(value)' is not a record mode (all, missing, failed, never)" }
    }

    /// The mode of an environment (unset or empty: `never`).
    public static func mode(_ env: [String: String] = ProcessInfo.processInfo.environment) throws -> Mode {
        guard let raw = env["SUPACONTRACTS_RECORD"]?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return .never }
        guard let m = Mode(rawValue: raw.lowercased()) else { throw InvalidMode(value: raw) }
        return m
    }

    /// What a check found or did.
    public enum Status: String, Sendable {
        /// The file equals the output.
        case matched
        /// The file was missing and was written.
        case recorded
        /// The file differed and was rewritten.
        case updated
        /// The file differs (not rewritten).
        case mismatch
        /// The file is missing (not written).
        case missing

        /// Nothing is left different on disk.
        public var passed: Bool { self == .matched || self == .recorded || self == .updated }
    }

    /// The outcome of one check: the status, the file, and a description of the difference.
    public struct Result: Sendable {
        /// What happened.
        public var status: Status
        /// The golden file.
        public var file: URL
        /// The first differing lines, or why the file is missing, with the command that records it.
        public var message: String
    }

    /// Compares `actual` with `Golden/<app>/rls/<name>` under `mode`.
    public static func check(app: String, name: String, actual: String, mode: Mode,
                             root: URL = ContractsLocator.golden,
                             artifacts: URL = ContractsLocator.root.appendingPathComponent("artifacts/golden")) throws -> Result {
        let file = root.appendingPathComponent(app).appendingPathComponent("rls").appendingPathComponent(name)
        let record = "re-record with: SUPACONTRACTS_RECORD=failed swift test --filter RLSMatrixGoldenTests"
        guard let data = FileManager.default.contents(atPath: file.path) else {
            if mode == .never {
                try write(actual, artifacts.appendingPathComponent(app).appendingPathComponent("rls").appendingPathComponent(name))
                return Result(status: .missing, file: file, message: "missing golden file Golden/\(app)/rls/\(name); \(record)")
            }
            try write(actual, file)
            return Result(status: .recorded, file: file, message: "recorded Golden/\(app)/rls/\(name)")
        }
        let expected = String(decoding: data, as: UTF8.self)
        if expected == actual { return Result(status: .matched, file: file, message: "") }
        let message = "Golden/\(app)/rls/\(name) differs:\n" + firstDifference(expected, actual) + "\n" + record
        if mode == .all || mode == .failed {
            try write(actual, file)
            return Result(status: .updated, file: file, message: message)
        }
        try write(actual, artifacts.appendingPathComponent(app).appendingPathComponent("rls").appendingPathComponent(name))
        return Result(status: .mismatch, file: file, message: message)
    }

    /// The first differing line with two lines of context, as `-expected` / `+actual`.
    static func firstDifference(_ a: String, _ b: String) -> String {
        let x = a.components(separatedBy: "\n"), y = b.components(separatedBy: "\n")
        var i = 0
        while i < min(x.count, y.count) && x[i] == y[i] { i += 1 }
        var out = "@@ line \(i + 1) @@"
        for k in max(0, i - 2)..<i { out += "\n " + x[k] }
        for k in i..<min(x.count, i + 3) { out += "\n-" + x[k] }
        for k in i..<min(y.count, i + 3) { out += "\n+" + y[k] }
        return out
    }

    static func write(_ text: String, _ file: URL) throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file, options: .atomic)
    }
}
