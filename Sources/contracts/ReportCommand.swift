import Foundation
import ContractKit

func runReport(_ args: [String]) -> Int32 { fail("report: not built yet") }
