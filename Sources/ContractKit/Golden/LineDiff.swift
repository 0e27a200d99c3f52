import Foundation

/// A line diff (Myers' O(ND) algorithm) and its unified-format rendering, for golden files.
package enum LineDiff {
    /// One line of an edit script.
    package enum Edit: Equatable, Sendable {
        /// In both texts.
        case same(String)
        /// Only in the old text.
        case delete(String)
        /// Only in the new text.
        case insert(String)
    }

    /// The lines of a text; a final newline does not start an empty last line.
    package static func lines(_ text: String) -> [String] {
        if text.isEmpty { return [] }
        var out = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if text.hasSuffix("\n") { out.removeLast() }
        return out
    }

    /// The most differing lines searched for a shortest script; beyond it (texts with nothing in
    /// common) the middle is shown as one block replaced, keeping time and memory bounded.
    package static let maxSearchedDifferences = 2_000

    /// A shortest edit script turning `a` into `b` (deletions before insertions within a change).
    package static func edits(_ a: [String], _ b: [String]) -> [Edit] {
        // Common prefix and suffix cost nothing and shrink the search.
        var lo = 0
        while lo < a.count && lo < b.count && a[lo] == b[lo] { lo += 1 }
        var hiA = a.count, hiB = b.count
        while hiA > lo && hiB > lo && a[hiA - 1] == b[hiB - 1] { hiA -= 1; hiB -= 1 }
        let middle = myers(Array(a[lo..<hiA]), Array(b[lo..<hiB]))
        return a[..<lo].map(Edit.same) + middle + a[hiA...].map(Edit.same)
    }

    /// Myers' greedy algorithm with a trace of the furthest-reaching paths, then a backtrack.
    static func myers(_ a: [String], _ b: [String]) -> [Edit] {
        let n = a.count, m = b.count
        if n == 0 { return b.map(Edit.insert) }
        if m == 0 { return a.map(Edit.delete) }
        let maxD = n + m
        // Texts without a line in common need no search.
        if maxD > maxSearchedDifferences, Set(a).isDisjoint(with: b) { return a.map(Edit.delete) + b.map(Edit.insert) }
        let offset = maxD + 1
        var v = [Int](repeating: 0, count: 2 * maxD + 3)
        var trace: [[Int]] = [] // trace[d] = v[-d...d] before step d
        var finalD = -1
        search: for d in 0...min(maxD, maxSearchedDifferences) {
            trace.append(Array(v[(offset - d)...(offset + d)]))
            for k in stride(from: -d, through: d, by: 2) {
                var x: Int
                if k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1]) {
                    x = v[offset + k + 1]
                } else {
                    x = v[offset + k - 1] + 1
                }
                var y = x - k
                while x < n && y < m && a[x] == b[y] { x += 1; y += 1 }
                v[offset + k] = x
                if x >= n && y >= m { finalD = d; break search }
            }
        }
        if finalD < 0 { return a.map(Edit.delete) + b.map(Edit.insert) }
        var out: [Edit] = []
        var x = n, y = m
        for d in stride(from: finalD, through: 0, by: -1) {
            let row = trace[d]
            func at(_ k: Int) -> Int { row[k + d] }
            let k = x - y
            let prevK: Int
            if d == 0 {
                prevK = 0
            } else if k == -d || (k != d && at(k - 1) < at(k + 1)) {
                prevK = k + 1
            } else {
                prevK = k - 1
            }
            let prevX = d == 0 ? 0 : at(prevK)
            let prevY = prevX - prevK
            while x > prevX && y > prevY { out.append(.same(a[x - 1])); x -= 1; y -= 1 }
            if d > 0 {
                if x == prevX { out.append(.insert(b[y - 1])); y -= 1 } else { out.append(.delete(a[x - 1])); x -= 1 }
            }
        }
        return out.reversed()
    }

    /// A unified diff (`--- from`, `+++ to`, `@@ -l,n +l,n @@` hunks with `context` lines around
    /// each change); empty when the texts are equal.
    package static func unified(from old: String, to new: String, fromLabel: String = "expected", toLabel: String = "actual", context: Int = 3) -> String {
        if old == new { return "" }
        let a = lines(old), b = lines(new)
        let script = edits(a, b)
        var out = "--- \(fromLabel)\n+++ \(toLabel)\n"
        if !script.contains(where: {
            if case .same = $0 { return false }; return true
        }) {
            return out + "@@ the texts differ only in their final newline @@\n"
        }
        // Positions (old line, new line) before each edit.
        var pos: [(Int, Int)] = []
        var i = 0, j = 0
        for e in script {
            pos.append((i, j))
            switch e {
            case .same: i += 1; j += 1
            case .delete: i += 1
            case .insert: j += 1
            }
        }
        let changed = script.indices.filter {
            if case .same = script[$0] { return false }; return true
        }
        var hunks: [(Int, Int)] = [] // ranges of script indices
        for c in changed {
            let start = max(0, c - context), end = min(script.count - 1, c + context)
            if let last = hunks.last, start <= last.1 + 1 { hunks[hunks.count - 1].1 = max(last.1, end) } else { hunks.append((start, end)) }
        }
        for (s, e) in hunks {
            let slice = script[s...e]
            let oldLen = slice.filter {
                if case .insert = $0 { return false }; return true
            }.count
            let newLen = slice.filter {
                if case .delete = $0 { return false }; return true
            }.count
            let oldStart = oldLen == 0 ? pos[s].0 : pos[s].0 + 1
            let newStart = newLen == 0 ? pos[s].1 : pos[s].1 + 1
            out += "@@ -\(oldStart),\(oldLen) +\(newStart),\(newLen) @@\n"
            for ed in slice {
                switch ed {
                case .same(let l): out += " \(l)\n"
                case .delete(let l): out += "-\(l)\n"
                case .insert(let l): out += "+\(l)\n"
                }
            }
        }
        return out
    }
}
