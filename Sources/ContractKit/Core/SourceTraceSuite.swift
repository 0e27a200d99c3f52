import Foundation

/// The traces of an app's contract files (`SourceTrace`: document, section, quoted words, the
/// members holding the value) and whether each quoted number equals its rule's value.
package enum SourceTraceSuite {
    /// A trace found in a file.
    package struct Found: Sendable {
        /// `Contracts/civicforge/photos.json`.
        package var file: String
        package var trace: SourceTrace
    }

    /// Every trace of every `.json` file under `folder` (at any depth), and every problem: a
    /// trace of the wrong shape, a quoted number no held member equals, a held number the words
    /// do not state. A file that does not parse is skipped (its rule kind reports it).
    package static func scan(folder: URL, display: String) -> (found: [Found], problems: [SpecError]) {
        let fm = FileManager.default
        guard let e = fm.enumerator(at: folder, includingPropertiesForKeys: nil) else { return ([], []) }
        var files: [URL] = []
        for case let url as URL in e where url.pathExtension == "json" { files.append(url) }
        var found: [Found] = [], problems: [SpecError] = []
        let base = folder.standardizedFileURL.path
        for url in files.sorted(by: { $0.path < $1.path }) {
            var rel = url.standardizedFileURL.path
            if rel.hasPrefix(base) { rel = String(rel.dropFirst(base.count)).trimmingCharacters(in: CharacterSet(charactersIn: "/")) }
            let name = display.hasSuffix("/") ? display + rel : display + "/" + rel
            do {
                let node = try SpecNode.load(url, displayName: name)
                let r = SourceTrace.problems(in: node.value, file: name)
                found += r.traces.map { Found(file: name, trace: $0) }
                problems += r.problems
            } catch {
                // A file that does not parse is its own kind's load error, reported there once.
                continue
            }
        }
        return (found, problems)
    }

    /// Verify's cases for an app (kind `app-rules`): one per trace that holds, one per problem.
    package static func cases(app: String, folder: URL) -> [CaseResult] {
        let r = scan(folder: folder, display: "Contracts/\(app)")
        let failing = Set(r.problems.map { "\($0.file)\u{0}\($0.path)" })
        var out: [CaseResult] = []
        for f in r.found where !failing.contains("\(f.file)\u{0}\(f.trace.path)") {
            out.append(
                CaseResult(
                    app: app, kind: AppRulesSuite.kind,
                    name: "trace · \(f.file.split(separator: "/").last ?? "") \(f.trace.path) · \(f.trace.file.prefix(3)) \(f.trace.section)",
                    passed: true))
        }
        for p in r.problems {
            out.append(
                CaseResult(
                    app: app, kind: AppRulesSuite.kind, name: "trace · \(p.file.split(separator: "/").last ?? "") \(p.path)",
                    passed: false, message: p.description))
        }
        return out
    }
}
