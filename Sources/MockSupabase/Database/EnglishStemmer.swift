import Foundation

/// The Snowball English ("Porter2") stemmer, which PostgreSQL's `english_stem` dictionary runs
/// (src/backend/snowball/libstemmer/stem_UTF_8_english.c), written from the published algorithm
/// (snowballstem.org/algorithms/english/stemmer.html). Input is a lower-case ASCII word.
enum EnglishStemmer {
    static let exceptions1: [String: String] = [
        "skis": "ski", "skies": "sky", "dying": "die", "lying": "lie", "tying": "tie", "idly": "idl", "gently": "gentl",
        "ugly": "ugli", "early": "earli", "only": "onli", "singly": "singl", "sky": "sky", "news": "news", "howe": "howe",
        "atlas": "atlas", "cosmos": "cosmos", "bias": "bias", "andes": "andes"
    ]
    static let exceptions2: Set<String> = ["inning", "outing", "canning", "herring", "earring", "proceed", "exceed", "succeed"]

    static func isVowel(_ c: Character) -> Bool { "aeiouy".contains(c) }

    static func stem(_ input: String) -> String {
        if input.count <= 2 { return input }
        if let e = exceptions1[input] { return e }
        var w = Array(input)
        if w.first == "'" { w.removeFirst() }
        // Y for consonant-like y.
        for k in w.indices where w[k] == "y" && (k == 0 || isVowel(w[k - 1])) { w[k] = "Y" }
        let r1 = region1(w)
        let r2 = region(after: r1, w)
        var s = Stem(w: w, r1: r1, r2: r2)
        s.step0()
        s.step1a()
        if exceptions2.contains(String(s.w)) { return String(s.w) }
        s.step1b()
        s.step1c()
        s.step2()
        s.step3()
        s.step4()
        s.step5()
        return String(s.w).replacingOccurrences(of: "Y", with: "y")
    }

    static func region(after start: Int, _ w: [Character]) -> Int {
        var k = start
        while k + 1 < w.count {
            if isVowel(w[k]) && !isVowel(w[k + 1]) { return k + 2 }
            k += 1
        }
        return w.count
    }

    static func region1(_ w: [Character]) -> Int {
        let s = String(w)
        for p in ["gener", "commun", "arsen"] where s.hasPrefix(p) { return p.count }
        return region(after: 0, w)
    }

    struct Stem {
        var w: [Character]
        let r1: Int
        let r2: Int

        func ends(_ suffix: String) -> Bool { w.count >= suffix.count && String(w.suffix(suffix.count)) == suffix }
        func inR1(_ suffix: String) -> Bool { w.count - suffix.count >= r1 }
        func inR2(_ suffix: String) -> Bool { w.count - suffix.count >= r2 }
        mutating func replace(_ suffix: String, _ with: String) { w.removeLast(suffix.count); w += Array(with) }
        /// The longest of `suffixes` the word ends with.
        func longest(_ suffixes: [String]) -> String? { suffixes.filter(ends).max { $0.count < $1.count } }

        func hasVowel(_ upTo: Int) -> Bool { w[..<upTo].contains { EnglishStemmer.isVowel($0) } }

        /// A short syllable ending at index `end` (exclusive).
        func shortSyllable(endingAt end: Int) -> Bool {
            let v = EnglishStemmer.isVowel
            if end == 2 { return v(w[0]) && !v(w[1]) }
            guard end >= 3 else { return false }
            let a = w[end - 3], b = w[end - 2], c = w[end - 1]
            return !v(a) && v(b) && !v(c) && !"wxY".contains(c)
        }

        var isShort: Bool { r1 >= w.count && shortSyllable(endingAt: w.count) }

        mutating func step0() {
            if let s = longest(["'s'", "'s", "'"]) { w.removeLast(s.count) }
        }

        mutating func step1a() {
            guard let s = longest(["sses", "ied", "ies", "us", "ss", "s"]) else { return }
            switch s {
            case "sses": replace(s, "ss")
            case "ied", "ies": replace(s, w.count - s.count > 1 ? "i" : "ie")
            case "s":
                // Delete if the preceding part holds a vowel not immediately before the s.
                if w.count >= 3 && hasVowel(w.count - 2) { w.removeLast() }
            default: break
            }
        }

        mutating func step1b() {
            guard let s = longest(["eed", "eedly", "ed", "edly", "ing", "ingly"]) else { return }
            if s == "eed" || s == "eedly" {
                if inR1(s) { replace(s, "ee") }
                return
            }
            guard hasVowel(w.count - s.count) else { return }
            w.removeLast(s.count)
            if ends("at") || ends("bl") || ends("iz") {
                w.append("e")
            } else if let d = ["bb", "dd", "ff", "gg", "mm", "nn", "pp", "rr", "tt"].first(where: ends) {
                _ = d
                w.removeLast()
            } else if isShort {
                w.append("e")
            }
        }

        mutating func step1c() {
            guard let last = w.last, last == "y" || last == "Y", w.count > 2, !EnglishStemmer.isVowel(w[w.count - 2]) else { return }
            w[w.count - 1] = "i"
        }

        static let step2Rules: [(String, String)] = [
            ("tional", "tion"), ("enci", "ence"), ("anci", "ance"), ("abli", "able"), ("entli", "ent"),
            ("izer", "ize"), ("ization", "ize"), ("ational", "ate"), ("ation", "ate"), ("ator", "ate"),
            ("alism", "al"), ("aliti", "al"), ("alli", "al"), ("fulness", "ful"), ("ousli", "ous"), ("ousness", "ous"),
            ("iveness", "ive"), ("iviti", "ive"), ("biliti", "ble"), ("bli", "ble"), ("ogi", "og"), ("fulli", "ful"),
            ("lessli", "less"), ("li", "")
        ]

        mutating func step2() {
            guard let s = longest(Stem.step2Rules.map(\.0)), inR1(s) else { return }
            let to = Stem.step2Rules.first { $0.0 == s }!.1
            switch s {
            case "ogi": if w.count > 3 && w[w.count - 4] == "l" { replace(s, to) }
            case "li": if w.count > 2 && "cdeghkmnrt".contains(w[w.count - 3]) { w.removeLast(2) }
            default: replace(s, to)
            }
        }

        static let step3Rules: [(String, String)] = [
            ("tional", "tion"), ("ational", "ate"), ("alize", "al"), ("icate", "ic"), ("iciti", "ic"), ("ical", "ic"),
            ("ful", ""), ("ness", ""), ("ative", "")
        ]

        mutating func step3() {
            guard let s = longest(Stem.step3Rules.map(\.0)), inR1(s) else { return }
            if s == "ative" { if inR2(s) { w.removeLast(s.count) }; return }
            replace(s, Stem.step3Rules.first { $0.0 == s }!.1)
        }

        mutating func step4() {
            let suffixes = [
                "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "ism", "ate",
                "iti", "ous", "ive", "ize", "ion"
            ]
            guard let s = longest(suffixes), inR2(s) else { return }
            if s == "ion" {
                if w.count > 3, "st".contains(w[w.count - 4]) { w.removeLast(3) }
                return
            }
            w.removeLast(s.count)
        }

        mutating func step5() {
            if ends("e") {
                if inR2("e") || (inR1("e") && !shortSyllable(endingAt: w.count - 1)) { w.removeLast() }
            } else if ends("l") {
                if inR2("l") && w.count > 1 && w[w.count - 2] == "l" { w.removeLast() }
            }
        }
    }
}
