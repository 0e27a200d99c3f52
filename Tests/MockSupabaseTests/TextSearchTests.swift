import XCTest
@testable import MockSupabase

/// The English stemmer and the text-search pieces PostgREST's fts operators reach.
final class TextSearchTests: XCTestCase {
    /// Words and the lexeme PostgreSQL 15's `to_tsvector('english', word)` gave for each.
    static let lexemes: [(String, String)] = [
        ("impossible", "imposs"),
        ("possibly", "possibl"),
        ("possible", "possibl"),
        ("running", "run"),
        ("runs", "run"),
        ("quickly", "quick"),
        ("launched", "launch"),
        ("launches", "launch"),
        ("rockets", "rocket"),
        ("designing", "design"),
        ("designed", "design"),
        ("happiness", "happi"),
        ("happily", "happili"),
        ("generously", "generous"),
        ("communication", "communic"),
        ("cats", "cat"),
        ("dogs", "dog"),
        ("enjoyed", "enjoy"),
        ("enjoying", "enjoy"),
        ("parks", "park"),
        ("hopping", "hop"),
        ("hoped", "hope"),
        ("hoping", "hope"),
        ("caresses", "caress"),
        ("ponies", "poni"),
        ("ties", "tie"),
        ("cries", "cri"),
        ("gaps", "gap"),
        ("kiwis", "kiwi"),
        ("skies", "sky"),
        ("dying", "die"),
        ("national", "nation"),
        ("rational", "ration"),
        ("relational", "relat"),
        ("conditional", "condit"),
        ("organization", "organ"),
        ("organizer", "organ"),
        ("hopeful", "hope"),
        ("hopefulness", "hope"),
        ("goodness", "good"),
        ("electrical", "electr"),
        ("electricity", "electr"),
        ("formative", "format"),
        ("formality", "formal"),
        ("adjustable", "adjust"),
        ("adjustment", "adjust"),
        ("dependent", "depend"),
        ("controlled", "control"),
        ("rolling", "roll"),
        ("filing", "file"),
        ("fitting", "fit"),
        ("sized", "size"),
        ("crying", "cri"),
        ("flying", "fli"),
        ("played", "play"),
        ("studies", "studi"),
        ("studied", "studi"),
        ("agreed", "agre"),
        ("cannings", "canning"),
        ("abilities", "abil"),
        ("sensibility", "sensibl"),
        ("analogous", "analog"),
        ("biology", "biolog"),
        ("gently", "gentl"),
        ("ugly", "ugli"),
        ("early", "earli"),
        ("singly", "singl"),
        ("fluently", "fluentli"),
        ("helplessly", "helpless"),
        ("reasonably", "reason"),
        ("beautiful", "beauti"),
        ("beautifully", "beauti"),
        ("effective", "effect"),
        ("effectiveness", "effect"),
        ("activation", "activ"),
        ("consolidate", "consolid"),
        ("consolidated", "consolid"),
        ("amusant", "amus"),
        ("faire", "fair"),
        ("eine", "ein")
    ]

    func testStemmerAgreesWithPostgreSQL() {
        for (w, l) in Self.lexemes { XCTAssertEqual(EnglishStemmer.stem(w), l, w) }
    }

    /// A stemmer that skips the suffix steps (a plausible mistake) disagrees on most words.
    func testTheTableRejectsANaiveStemmer() {
        func naive(_ w: String) -> String { w.hasSuffix("s") ? String(w.dropLast()) : w }
        let wrong = Self.lexemes.filter { naive($0.0) != $0.1 }.count
        XCTAssertGreaterThan(wrong, Self.lexemes.count / 2)
    }

    /// `ts_lexize('french_stem', word)` on PostgreSQL 15 (checked on 2,275 generated forms).
    static let frenchLexemes: [(String, String)] = [
        ("activités", "activ"), ("aimable", "aimabl"), ("chantâmes", "chant"), ("courir", "cour"), ("créatrice", "créatric"),
        ("ennuyer", "ennui"), ("finissaient", "fin"), ("gardions", "gardion"), ("heureuses", "heureux"), ("jouissement", "jou"),
        ("parlerions", "parl"), ("payer", "pai"), ("rapidement", "rapid"), ("venderaient", "vend"), ("évidemment", "évident"),
        ("amusant", "amus"), ("impossible", "impossibl"), ("très", "tres"), ("jardins", "jardin")
    ]

    func testFrenchStemmerAgreesWithPostgreSQL() {
        for (w, l) in Self.frenchLexemes { XCTAssertEqual(FrenchStemmer.stem(w), l, w) }
    }

    /// Lower-casing alone (the mock's earlier `french`) disagrees on most of the table.
    func testTheFrenchTableRejectsLowerCasingOnly() {
        XCTAssertGreaterThan(Self.frenchLexemes.filter { $0.0.lowercased() != $0.1 }.count, Self.frenchLexemes.count / 2)
    }

    func testVectorPositionsCountStopWords() {
        let v = TextSearch.vector("The rockets were launched", "english")
        XCTAssertEqual(v, ["rocket": [2], "launch": [4]])
        XCTAssertEqual(TextSearch.vector("Self-driving cars", "english"), ["self-driv": [1], "self": [2], "drive": [3], "car": [4]])
    }

    func testQuerySyntaxErrorIsPostgreSQLs() {
        XCTAssertThrowsError(try TextSearch.query(.fts, "a b", "english")) { e in
            XCTAssertEqual((e as? PostgresError)?.code, "42601")
        }
        XCTAssertNil(try TextSearch.query(.fts, "the", "english"))
    }
}
