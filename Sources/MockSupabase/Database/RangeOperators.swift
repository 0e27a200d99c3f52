import Foundation

extension PGRange {
    /// The range operators PostgREST maps (`sl sr nxr nxl adj cs cd ov`), nil for others.
    static func holds(_ op: FilterOp, _ a: PGRange, _ b: PGRange, _ t: SQLType) -> Bool? {
        switch op {
        case .cs: return PGRange.contains(a, b, t)
        case .cd: return PGRange.contains(b, a, t)
        case .ov: return PGRange.overlaps(a, b, t)
        case .sl: return !a.isEmpty && !b.isEmpty && PGRange.cmpBounds(a.upper, aLower: false, b.lower, bLower: true, t) < 0
        case .sr: return !a.isEmpty && !b.isEmpty && PGRange.cmpBounds(a.lower, aLower: true, b.upper, bLower: false, t) > 0
        case .nxr: return !a.isEmpty && !b.isEmpty && PGRange.cmpBounds(a.upper, aLower: false, b.upper, bLower: false, t) <= 0
        case .nxl: return !a.isEmpty && !b.isEmpty && PGRange.cmpBounds(a.lower, aLower: true, b.lower, bLower: true, t) >= 0
        case .adj: return PGRange.adjacent(a, b, t)
        default: return nil
        }
    }
}
