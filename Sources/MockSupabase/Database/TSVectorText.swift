import Foundation

/// `tsvector` columns hold the text `PGTSVector` reads and prints; searches read it back.
extension TextSearch {
    static func parseVector(_ s: String) -> Vector? { PGTSVector.parse(s) }
    static func formatVector(_ v: Vector) -> String { PGTSVector.format(v) }
}
