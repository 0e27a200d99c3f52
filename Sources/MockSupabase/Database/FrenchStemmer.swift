import Foundation

/// The Snowball French stemmer, which PostgreSQL's `french_stem` dictionary runs
/// (src/backend/snowball/libstemmer/stem_UTF_8_french.c), written from the published algorithm
/// (snowballstem.org/algorithms/french/stemmer.html, version 2: `ë`/`ï` marked `He`/`Hi`).
/// Input is a lower-case word. Marked letters are upper case: `U`, `I`, `Y` where they act as
/// consonants, `H` before a diaeresis vowel; the postlude lower-cases them again.
enum FrenchStemmer {
    static let vowels: Set<Character> = ["a", "e", "i", "o", "u", "y", "â", "à", "ë", "é", "ê", "è", "ï", "î", "ô", "û", "ù"]
    static func isVowel(_ c: Character) -> Bool { vowels.contains(c) }

    /// French stop words (PostgreSQL's tsearch_data/french.stop, the Snowball list).
    static let stopWords: Set<String> = [
        "au", "aux", "avec", "ce", "ces", "dans", "de", "des", "du", "elle", "en", "et", "eux", "il", "je", "la", "le", "leur", "lui",
        "ma", "mais", "me", "même", "mes", "moi", "mon", "ne", "nos", "notre", "nous", "on", "ou", "par", "pas", "pour", "qu", "que",
        "qui", "sa", "se", "ses", "son", "sur", "ta", "te", "tes", "toi", "ton", "tu", "un", "une", "vos", "votre", "vous", "c", "d",
        "j", "l", "à", "m", "n", "s", "t", "y", "été", "étée", "étées", "étés", "étant", "étante", "étants", "étantes", "suis", "es",
        "est", "sommes", "êtes", "sont", "serai", "seras", "sera", "serons", "serez", "seront", "serais", "serait", "serions",
        "seriez", "seraient", "étais", "était", "étions", "étiez", "étaient", "fus", "fut", "fûmes", "fûtes", "furent", "sois",
        "soit", "soyons", "soyez", "soient", "fusse", "fusses", "fût", "fussions", "fussiez", "fussent", "ayant", "ayante",
        "ayantes", "ayants", "eu", "eue", "eues", "eus", "ai", "as", "avons", "avez", "ont", "aurai", "auras", "aura", "aurons",
        "aurez", "auront", "aurais", "aurait", "aurions", "auriez", "auraient", "avais", "avait", "avions", "aviez", "avaient",
        "eut", "eûmes", "eûtes", "eurent", "aie", "aies", "ait", "ayons", "ayez", "aient", "eusse", "eusses", "eût", "eussions",
        "eussiez", "eussent"
    ]

    static func stem(_ input: String) -> String {
        var w = prelude(Array(input))
        let (rv, r1, r2) = regions(w)
        var s = Word(w: w, rv: rv, r1: r1, r2: r2)
        var stepped = false
        // Step 1, then (when it removed nothing, or a `-ment` ending) steps 2a and 2b.
        if s.standardSuffix() == .changed { stepped = true } else { stepped = s.iVerbSuffix() || s.verbSuffix() }
        if stepped {
            // Step 3: a final Y becomes i, a final ç becomes c.
            if s.w.last == "Y" { s.w[s.w.count - 1] = "i" } else if s.w.last == "ç" { s.w[s.w.count - 1] = "c" }
        } else {
            s.residualSuffix()
        }
        s.unDouble()
        s.unAccent()
        w = s.w
        return postlude(w)
    }

    /// Marks `u`/`i` between vowels, `y` next to a vowel and `u` after `q` as consonants, and
    /// `ë`/`ï` as `He`/`Hi`.
    static func prelude(_ input: [Character]) -> [Character] {
        var w = input
        var k = 0
        while k < w.count {
            let c = w[k]
            let prevVowel = k > 0 && isVowel(w[k - 1])
            let nextVowel = k + 1 < w.count && isVowel(w[k + 1])
            if prevVowel && (c == "u" || c == "i") && nextVowel {
                w[k] = c == "u" ? "U" : "I"
            } else if prevVowel && c == "y" {
                w[k] = "Y"
            } else if c == "ë" {
                w[k] = "e"; w.insert("H", at: k); k += 1
            } else if c == "ï" {
                w[k] = "i"; w.insert("H", at: k); k += 1
            } else if c == "y" && nextVowel {
                w[k] = "Y"
            } else if c == "u" && k > 0 && w[k - 1] == "q" {
                w[k] = "U"
            }
            k += 1
        }
        return w
    }

    static func postlude(_ w: [Character]) -> String {
        var out = ""
        var k = 0
        while k < w.count {
            switch w[k] {
            case "I": out.append("i")
            case "U": out.append("u")
            case "Y": out.append("y")
            case "H":
                if k + 1 < w.count, w[k + 1] == "e" { out.append("ë"); k += 1 } else if k + 1 < w.count, w[k + 1] == "i" { out.append("ï"); k += 1 }
            default: out.append(w[k])
            }
            k += 1
        }
        return out
    }

    /// RV, R1 and R2 as start indexes (the word's length when empty).
    static func regions(_ w: [Character]) -> (Int, Int, Int) {
        let n = w.count
        var rv = n
        if n >= 2, isVowel(w[0]), isVowel(w[1]) {
            rv = min(3, n)
        } else if n >= 3, ["par", "col", "tap"].contains(String(w[0..<3])) {
            rv = 3
        } else {
            var k = 1
            while k < n, !isVowel(w[k]) { k += 1 }
            rv = k < n ? k + 1 : n
        }
        func after(_ start: Int) -> Int {
            var k = start
            while k < n, !isVowel(w[k]) { k += 1 }
            while k < n, isVowel(w[k]) { k += 1 }
            return k < n ? k + 1 : n
        }
        let r1 = after(0)
        return (rv, r1, after(r1))
    }

    enum StandardResult { case none, changed, changedThenVerbs }

    struct Word {
        var w: [Character]
        var rv: Int, r1: Int, r2: Int

        func ends(_ s: String) -> Bool {
            let a = Array(s)
            return a.count <= w.count && Array(w[(w.count - a.count)...]) == a
        }
        /// The longest of `suffixes` the word ends with.
        func longest(_ suffixes: [String]) -> String? {
            suffixes.filter { ends($0) }.max { $0.count < $1.count }
        }
        func start(_ s: String) -> Int { w.count - s.count }
        mutating func replace(_ s: String, with r: String) { w.removeLast(s.count); w += Array(r) }

        static let standard: [String] = [
            "ance", "iqUe", "isme", "able", "iste", "eux", "ances", "iqUes", "ismes", "ables", "istes",
            "atrice", "ateur", "ation", "atrices", "ateurs", "ations", "logie", "logies", "usion", "ution", "usions", "utions",
            "ence", "ences", "ement", "ements", "ité", "ités", "if", "ive", "ifs", "ives", "eaux", "aux", "euse", "euses",
            "issement", "issements", "amment", "emment", "ment", "ments"
        ]

        /// Step 1. The longest suffix decides; when its condition fails nothing is removed.
        mutating func standardSuffix() -> StandardResult {
            guard let suf = longest(Self.standard) else { return .none }
            let p = start(suf)
            switch suf {
            case "ance", "iqUe", "isme", "able", "iste", "eux", "ances", "iqUes", "ismes", "ables", "istes":
                guard p >= r2 else { return .none }
                w.removeLast(suf.count)
            case "atrice", "ateur", "ation", "atrices", "ateurs", "ations":
                guard p >= r2 else { return .none }
                w.removeLast(suf.count)
                if ends("ic") { if start("ic") >= r2 { w.removeLast(2) } else { replace("ic", with: "iqU") } }
            case "logie", "logies":
                guard p >= r2 else { return .none }
                replace(suf, with: "log")
            case "usion", "ution", "usions", "utions":
                guard p >= r2 else { return .none }
                replace(suf, with: "u")
            case "ence", "ences":
                guard p >= r2 else { return .none }
                replace(suf, with: "ent")
            case "ement", "ements":
                guard p >= rv else { return .none }
                w.removeLast(suf.count)
                if ends("iv") {
                    if start("iv") >= r2 {
                        w.removeLast(2)
                        if ends("at"), start("at") >= r2 { w.removeLast(2) }
                    }
                } else if ends("eus") {
                    if start("eus") >= r2 { w.removeLast(3) } else if start("eus") >= r1 { replace("eus", with: "eux") }
                } else if ends("abl") || ends("iqU") {
                    if w.count - 3 >= r2 { w.removeLast(3) }
                } else if ends("ièr") || ends("Ièr") {
                    if w.count - 3 >= rv { w.removeLast(3); w.append("i") }
                }
            case "ité", "ités":
                guard p >= r2 else { return .none }
                w.removeLast(suf.count)
                if ends("abil") {
                    if start("abil") >= r2 { w.removeLast(4) } else { replace("abil", with: "abl") }
                } else if ends("ic") {
                    if start("ic") >= r2 { w.removeLast(2) } else { replace("ic", with: "iqU") }
                } else if ends("iv") {
                    if start("iv") >= r2 { w.removeLast(2) }
                }
            case "if", "ive", "ifs", "ives":
                guard p >= r2 else { return .none }
                w.removeLast(suf.count)
                if ends("at"), start("at") >= r2 {
                    w.removeLast(2)
                    if ends("ic") { if start("ic") >= r2 { w.removeLast(2) } else { replace("ic", with: "iqU") } }
                }
            case "eaux":
                replace(suf, with: "eau")
            case "aux":
                guard p >= r1 else { return .none }
                replace(suf, with: "al")
            case "euse", "euses":
                if p >= r2 { w.removeLast(suf.count) } else if p >= r1 { replace(suf, with: "eux") } else { return .none }
            case "issement", "issements":
                guard p >= r1, p > 0, !FrenchStemmer.isVowel(w[p - 1]) else { return .none }
                w.removeLast(suf.count)
            case "amment":
                guard p >= rv else { return .none }
                replace(suf, with: "ant")
                return .changedThenVerbs
            case "emment":
                guard p >= rv else { return .none }
                replace(suf, with: "ent")
                return .changedThenVerbs
            case "ment", "ments":
                guard p >= 1, FrenchStemmer.isVowel(w[p - 1]), p - 1 >= rv else { return .none }
                w.removeLast(suf.count)
                return .changedThenVerbs
            default: return .none
            }
            return .changed
        }

        static let iVerb: [String] = [
            "îmes", "ît", "îtes", "i", "ie", "ies", "ir", "ira", "irai", "iraIent", "irais", "irait", "iras", "irent", "irez", "iriez",
            "irions", "irons", "iront", "is", "issaIent", "issais", "issait", "issant", "issante", "issantes", "issants", "isse",
            "issent", "isses", "issez", "issiez", "issions", "issons", "it"
        ]

        /// Step 2a: an i-verb ending in RV after a consonant (not `H`) that is in RV too.
        mutating func iVerbSuffix() -> Bool {
            guard let suf = longest(Self.iVerb.filter { w.count - $0.count >= rv }) else { return false }
            let p = start(suf)
            guard p - 1 >= rv, w[p - 1] != "H", !FrenchStemmer.isVowel(w[p - 1]) else { return false }
            w.removeLast(suf.count)
            return true
        }

        static let verbDelete: [String] = [
            "é", "ée", "ées", "és", "èrent", "er", "era", "erai", "eraIent", "erais", "erait", "eras",
            "erez", "eriez", "erions", "erons", "eront", "ez", "iez"
        ]
        static let verbDeleteE: [String] = [
            "âmes", "ât", "âtes", "a", "ai", "aIent", "ais", "ait", "ant", "ante", "antes", "ants",
            "as", "asse", "assent", "asses", "assiez", "assions"
        ]

        /// Step 2b: other verb endings in RV (`ions` in R2; after the `a…` endings an `e` in RV goes too).
        mutating func verbSuffix() -> Bool {
            guard let suf = longest((["ions"] + Self.verbDelete + Self.verbDeleteE).filter { w.count - $0.count >= rv }) else { return false }
            let p = start(suf)
            if suf == "ions" {
                guard p >= r2 else { return false }
                w.removeLast(4)
                return true
            }
            w.removeLast(suf.count)
            if Self.verbDeleteE.contains(suf), w.last == "e", w.count - 1 >= rv { w.removeLast() }
            return true
        }

        /// Step 4: a final `s` not after a, i, o, u, è or s goes; then in RV `ion` after s/t (in
        /// R2), `ier`/`ière` become i, a final `e` goes.
        mutating func residualSuffix() {
            if w.count >= 2, w.last == "s" {
                let prev = w[w.count - 2]
                let hi = w.count >= 3 && w[w.count - 3] == "H" && prev == "i"
                if hi || !"aiouès".contains(prev) { w.removeLast() }
            }
            guard let suf = longest(["ion", "ier", "ière", "Ier", "Ière", "e"].filter { w.count - $0.count >= rv }) else { return }
            let p = start(suf)
            switch suf {
            case "ion":
                if p >= r2, p - 1 >= rv, w[p - 1] == "s" || w[p - 1] == "t" { w.removeLast(3) }
            case "ier", "ière", "Ier", "Ière":
                replace(suf, with: "i")
            default:
                w.removeLast()
            }
        }

        /// Step 5: `enn`, `onn`, `ett`, `ell`, `eill` lose their last letter.
        mutating func unDouble() {
            if ["enn", "onn", "ett", "ell", "eill"].contains(where: { ends($0) }) { w.removeLast() }
        }

        /// Step 6: `é`/`è` before one or more final consonants loses its accent.
        mutating func unAccent() {
            var k = w.count - 1
            while k >= 0, !FrenchStemmer.isVowel(w[k]) { k -= 1 }
            guard k < w.count - 1, k >= 0, w[k] == "é" || w[k] == "è" else { return }
            w[k] = "e"
        }
    }
}
