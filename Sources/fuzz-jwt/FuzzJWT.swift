// libFuzzer target over the JWT verifier and the bearer-token paths (`scripts/fuzz-all`, `scripts/fuzz-jwt`).
//
// Built with `-sanitize=fuzzer,address -DFUZZING`, libFuzzer supplies `main` and calls
// `LLVMFuzzerTestOneInput` with each input. In an ordinary build the same file is a small program
// that checks the files named on its command line, so `swift build` keeps working.
import Foundation
import MockSupabase

/// The backend every input is sent to (built once; no input changes its state).
let fuzzBackend: MockSupabase = {
    do { return try FuzzBackend.make() } catch { fatalError("fuzz-jwt: cannot build the fuzzing backend: \(error)") }
}()

/// Checks one input; traps (a crash libFuzzer records) on any violated property.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJWTTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
    let problems = JWTFuzzProperties.violations(of: input, backend: fuzzBackend)
    if !problems.isEmpty {
        fatalError("JWT property violated:\n" + problems.joined(separator: "\n"))
    }
    return 0
}

#if !FUZZING
/// Without libFuzzer: checks each file given as an argument.
@main
enum FuzzJWTReplay {
    static func main() {
        var failed = 0
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                print("cannot read \(path)")
                failed += 1
                continue
            }
            let problems = JWTFuzzProperties.violations(of: [UInt8](data), backend: fuzzBackend)
            print("\(problems.isEmpty ? "ok  " : "FAIL") \(path)")
            for p in problems { print("     \(p)") }
            if !problems.isEmpty { failed += 1 }
        }
        exit(failed == 0 ? 0 : 1)
    }
}
#endif
