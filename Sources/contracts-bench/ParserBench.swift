import Foundation
import MockBinding
import MockSupabase
import TeleportMe

/// Query-string parsing cost: issue 11's logic tree `or=(or(or(…id.eq.x…)))` nested 3,900 deep
/// (3.4 s of CPU with the old rescanning parser), an alternating `and`/`or` tree 1,000 deep that
/// folding cannot flatten, and a 50-term flat `or` for scale — per request, over `handle`.
func runParserBenchmark() {
    do {
        let backend = try TeleportMeApp.makeBackend(clock: ManualClock(), ids: SeededIDGenerator(seed: 7))
        let headers: HTTPHeaders = ["apikey": backend.serviceRoleKey, "Authorization": "Bearer \(backend.serviceRoleKey)"]
        let chain = "(" + String(repeating: "or(", count: 3_899) + "id.eq.barcelona" + String(repeating: ")", count: 3_899) + ")"
        var alternating = "", close = ""
        for d in 0..<999 { alternating += (d % 2 == 0 ? "and(" : "or(") + "id.neq.x,"; close += ")" }
        alternating = "(" + alternating + "id.eq.barcelona" + close + ")"
        let flat = "(" + (0..<50).map { "id.eq.c\($0)" }.joined(separator: ",") + ")"
        for (name, value) in [("chain 3,900 deep", chain), ("alternating 1,000 deep", alternating), ("flat 50 terms", flat)] {
            let request = HTTPRequest(method: "GET", path: "/rest/v1/cities", query: [("select", "id"), ("or", value)], headers: headers)
            let first = try backend.handle(request)
            precondition(first.status == 200, "\(name): \(first.status) \(first.text.prefix(200))")
            var times: [Double] = []
            for _ in 0..<7 {
                let start = DispatchTime.now().uptimeNanoseconds
                _ = try backend.handle(request)
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
            }
            print("parser  \(name): median \(String(format: "%.2f", median(times))) ms per request (\(value.utf8.count) bytes)")
        }
    } catch {
        FileHandle.standardError.write(Data("parser benchmark failed: \(error)\n".utf8))
        exit(1)
    }
}
