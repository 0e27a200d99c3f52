import Foundation
import MockBinding

extension TeleportMeApp {
    /// TeleportMe's own rule files and the rule kinds that read and check them: the report's
    /// weights and its golden cases by `goldens` (every case's output compared and replayed), the
    /// edge functions' rules by `interactions` (their documented calls replayed over the wire).
    package static var contractFiles: [ContractFile] {
        [
            ContractFile("report.json", kind: "goldens"),
            ContractFile("report-cases.json", kind: "goldens"),
            ContractFile("functions.json", kind: "interactions")
        ]
    }
}
