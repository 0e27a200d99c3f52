/// SQL's three-valued logic (nil is unknown) over lazily evaluated operands, short-circuiting:
/// AND stops at the first false, OR at the first true; otherwise an unknown operand makes the
/// result unknown.
package enum Kleene {
    @inlinable package static func all(_ count: Int, _ operand: (Int) -> Bool?) -> Bool? { combine(count, decisive: false, operand) }

    @inlinable package static func any(_ count: Int, _ operand: (Int) -> Bool?) -> Bool? { combine(count, decisive: true, operand) }

    @inlinable package static func combine(_ count: Int, decisive: Bool, _ operand: (Int) -> Bool?) -> Bool? {
        var unknown = false
        for i in 0..<count {
            guard let v = operand(i) else { unknown = true; continue }
            if v == decisive { return decisive }
        }
        return unknown ? nil : !decisive
    }
}
