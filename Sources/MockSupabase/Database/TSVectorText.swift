import Foundation

/// `tsvector` columns hold the text `PGTSVector` reads and prints; searches read it back.
extension TextSearch {
    /// Searches read positions only: weights (`1A`) do not restrict `@@` without a weighted query.
    static func parseVector(_ s: String) -> Vector? { PGTSVector.parse(s)?.mapValues { $0.map(PGTSVector.position) } }
}
