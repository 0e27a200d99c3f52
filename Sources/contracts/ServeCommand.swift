import Foundation
import ContractKit

func runServe(_ args: [String]) -> Int32 { fail("serve: not built yet") }
