import Foundation

/// When golden files are (re)written, from `SUPACONTRACTS_RECORD`.
package enum GoldenRecordMode: String, Sendable, CaseIterable {
    /// Rewrite every golden file (after reviewing the diff: `contracts goldens --update`).
    case all
    /// Write only golden files that do not exist yet.
    case missing
    /// Write missing golden files and rewrite those that differ.
    case failed
    /// Never write; a missing or different file fails (CI, and the default).
    case never

    package static let environmentKey = "SUPACONTRACTS_RECORD"

    /// The mode of an environment (the CLI and the tests pass theirs; the library reads none):
    /// unset or empty is `never`; any other value must be a mode name.
    package static func from(environment env: [String: String]) throws -> GoldenRecordMode {
        guard let raw = env[environmentKey]?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return .never }
        guard let mode = GoldenRecordMode(rawValue: raw.lowercased()) else { throw GoldenError.invalidMode(raw) }
        return mode
    }
}

/// A golden-file operation that could not be carried out.
package enum GoldenError: Error, CustomStringConvertible, Sendable, Equatable {
    /// `SUPACONTRACTS_RECORD` holds an unknown value.
    case invalidMode(String)
    /// A file could not be written.
    case writeFailed(path: String, reason: String)
    /// A case name or suite name would leave its folder.
    case invalidName(String)

    package var description: String {
        switch self {
        case .invalidMode(let v):
            return
                "\(GoldenRecordMode.environmentKey)='\(v)' is not a record mode (one of: \(GoldenRecordMode.allCases.map(\.rawValue).joined(separator: ", ")))"
        case .writeFailed(let p, let r): return "cannot write \(p): \(r)"
        case .invalidName(let n): return "'\(n)' is not a valid golden name (letters, digits, '-', '_', '.'; not starting with '.')"
        }
    }
}

/// What checking one golden file found or did.
package enum GoldenStatus: String, Sendable, Equatable {
    /// The file equals the output.
    case matched
    /// The file did not exist and was written.
    case recorded
    /// The file differed and was rewritten.
    case updated
    /// The file differs (not rewritten).
    case mismatch
    /// The file does not exist (not written).
    case missing

    /// Whether the check passes: nothing is left different on disk.
    package var passed: Bool { self == .matched || self == .recorded || self == .updated }
}

/// The outcome of checking one golden file.
package struct GoldenResult: Sendable, Equatable {
    package var status: GoldenStatus
    package var file: URL
    /// The unified diff from the file to the output (empty when equal or missing).
    package var diff: String
    /// Where the actual output was written on a mismatch (beside `<case>.expected.json`).
    package var artifact: URL?
}

/// Golden files `<root>/<app>/<suite>/<case>.json`: JSON pretty-printed with sorted keys and a
/// final newline. A mismatch writes the actual output to `<artifacts>/<app>/<suite>/<case>.json`
/// beside a copy of the expected file (`<case>.expected.json`).
package struct GoldenStore: Sendable {
    /// `Golden/`.
    package var root: URL
    /// `artifacts/golden/`.
    package var artifacts: URL
    /// How paths are shown in messages: relative to this folder when under it.
    package var displayBase: URL

    /// A store; defaults to the package's `Golden/` and `artifacts/golden/`.
    package init(
        root: URL = ContractsLocator.golden,
        artifacts: URL = ContractsLocator.root.appendingPathComponent("artifacts/golden"),
        displayBase: URL = ContractsLocator.root
    ) {
        self.root = root
        self.artifacts = artifacts
        self.displayBase = displayBase
    }

    package static func text(_ value: JSONValue) -> String { value.serialized(.pretty) + "\n" }

    static func validName(_ s: String) -> Bool {
        !s.isEmpty && !s.hasPrefix(".") && s.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0) }
    }

    /// The file of a case.
    package func url(app: String, suite: String, name: String) throws -> URL {
        for n in [app, suite, name] where !GoldenStore.validName(n) { throw GoldenError.invalidName(n) }
        return root.appendingPathComponent(app).appendingPathComponent(suite).appendingPathComponent(name + ".json")
    }

    /// A path for messages.
    package func display(_ url: URL) -> String {
        let base = displayBase.standardizedFileURL.path
        let p = url.standardizedFileURL.path
        return p.hasPrefix(base + "/") ? String(p.dropFirst(base.count + 1)) : p
    }

    /// Compares `actual` with the golden file under `mode`, writing what the mode allows.
    package func check(app: String, suite: String, name: String, actual: JSONValue, mode: GoldenRecordMode) throws -> GoldenResult {
        let file = try url(app: app, suite: suite, name: name)
        let text = GoldenStore.text(actual)
        let fm = FileManager.default
        guard let data = fm.contents(atPath: file.path) else {
            if mode == .never {
                return GoldenResult(status: .missing, file: file, diff: "", artifact: try writeArtifact(app, suite, name, actual: text, expected: nil))
            }
            try write(text, to: file)
            return GoldenResult(status: .recorded, file: file, diff: "")
        }
        let expected = String(decoding: data, as: UTF8.self)
        if expected == text { return GoldenResult(status: .matched, file: file, diff: "") }
        let diff = LineDiff.unified(from: expected, to: text, fromLabel: display(file), toLabel: "actual")
        if mode == .all || mode == .failed {
            try write(text, to: file)
            return GoldenResult(status: .updated, file: file, diff: diff)
        }
        let artifact = try writeArtifact(app, suite, name, actual: text, expected: expected)
        return GoldenResult(status: .mismatch, file: file, diff: diff, artifact: artifact)
    }

    /// Golden files of a suite on disk (case names), sorted.
    package func existingCases(app: String, suite: String) -> [String] {
        let dir = root.appendingPathComponent(app).appendingPathComponent(suite)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.sorted()
    }

    /// Removes a golden file (an orphan whose case no longer exists).
    package func remove(app: String, suite: String, name: String) throws {
        try FileManager.default.removeItem(at: try url(app: app, suite: suite, name: name))
    }

    func write(_ text: String, to file: URL) throws {
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file, options: .atomic)
        } catch {
            throw GoldenError.writeFailed(path: display(file), reason: FileErrorText.describe(error: error, path: file.path, writing: true))
        }
    }

    func writeArtifact(_ app: String, _ suite: String, _ name: String, actual: String, expected: String?) throws -> URL {
        let dir = artifacts.appendingPathComponent(app).appendingPathComponent(suite)
        let file = dir.appendingPathComponent(name + ".json")
        try write(actual, to: file)
        let copy = dir.appendingPathComponent(name + ".expected.json")
        if let expected { try write(expected, to: copy) } else { try? FileManager.default.removeItem(at: copy) }
        return file
    }
}
