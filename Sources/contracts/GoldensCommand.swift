import Foundation
import ContractKit

func runGoldens(_ args: [String]) -> Int32 { fail("goldens: not built yet") }
