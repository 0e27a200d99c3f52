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
    FuzzDriver.check(data, size, what: "JWT") { JWTFuzzProperties.fuzzViolations(of: $0, backend: fuzzBackend) }
}

#if !FUZZING
    /// Without libFuzzer: checks each file given as an argument.
    @main
    enum FuzzJWTReplay {
        static func main() {
            exit(FuzzDriver.replay(Array(CommandLine.arguments.dropFirst())) { JWTFuzzProperties.violations(of: $0, backend: fuzzBackend) })
        }
    }
#endif
