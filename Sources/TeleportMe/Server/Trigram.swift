import Foundation

/// pg_trgm's trigram similarity, as `similarity(a, b)` computes it with the extension's default
/// build (IGNORECASE, KEEPONLYALNUM).
package enum Trigram {
    /// The set of trigrams of a text: lower-cased, split into words at every character that is not
    /// a letter or digit, each word padded with two spaces in front and one behind.
    package static func trigrams(_ text: String) -> Set<String> {
        var out = Set<String>()
        var word: [Character] = []
        func flush() {
            guard !word.isEmpty else { return }
            let padded: [Character] = [" ", " "] + word + [" "]
            for i in 0...(padded.count - 3) { out.insert(String(padded[i..<i + 3])) }
            word.removeAll(keepingCapacity: true)
        }
        for ch in text.lowercased() {
            if ch.isLetter || ch.isNumber { word.append(ch) } else { flush() }
        }
        flush()
        return out
    }

    /// shared / (|a| + |b| - shared), in single precision as pg_trgm computes it; 0 when either
    /// side has no trigrams.
    package static func similarity(_ a: Set<String>, _ b: Set<String>) -> Float {
        guard !a.isEmpty, !b.isEmpty else { return 0 }
        let shared = a.count < b.count ? a.filter(b.contains).count : b.filter(a.contains).count
        return Float(shared) / Float(a.count + b.count - shared)
    }

    /// `similarity(a, b)`.
    package static func similarity(_ a: String, _ b: String) -> Float { similarity(trigrams(a), trigrams(b)) }
}
