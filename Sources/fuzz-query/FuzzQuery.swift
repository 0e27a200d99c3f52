// libFuzzer target over PostgREST's query-string parser and the read handlers behind it (`scripts/fuzz-all`, `scripts/fuzz-query`).
//
// Built with `-sanitize=fuzzer,address -DFUZZING`, libFuzzer supplies `main` and calls
// `LLVMFuzzerTestOneInput` with each input. In an ordinary build the same file is a small program
// that checks the files named on its command line, so `swift build` keeps working.
import Foundation
import MockSupabase

/// The backend every input is sent to (built once; no input changes its state).
let fuzzBackend: MockSupabase = {
    do { return try FuzzBackend.make() } catch { fatalError("fuzz-query: cannot build the fuzzing backend: \(error)") }
}()

/// Checks one input; traps (a crash libFuzzer records) on any violated property.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzQueryTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzDriver.check(data, size, what: "PostgREST query") { QueryFuzzProperties.fuzzViolations(ofQuery: $0, backend: fuzzBackend) }
}

#if !FUZZING
    /// Without libFuzzer: checks each file given as an argument.
    @main
    enum FuzzQueryReplay {
        static func main() {
            exit(FuzzDriver.replay(Array(CommandLine.arguments.dropFirst())) { QueryFuzzProperties.violations(ofQuery: $0, backend: fuzzBackend) })
        }
    }
#endif
