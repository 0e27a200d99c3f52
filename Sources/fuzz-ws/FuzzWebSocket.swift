// libFuzzer target over the WebSocket frame parser and Realtime's Phoenix message handling
// (`scripts/fuzz-all SECONDS ws`).
//
// Built with `-sanitize=fuzzer,address -DFUZZING`, libFuzzer supplies `main` and calls
// `LLVMFuzzerTestOneInput` with each input. In an ordinary build the same file is a small program
// that checks the files named on its command line, so `swift build` keeps working.
import Foundation
import MockSupabase

/// The backend whose Realtime service the client messages go to (built once).
let fuzzBackend: MockSupabase = {
    do { return try FuzzBackend.make() } catch { fatalError("fuzz-ws: cannot build the fuzzing backend: \(error)") }
}()

/// Checks one input; traps (a crash libFuzzer records) on any violated property.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebSocketTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzDriver.check(data, size, what: "WebSocket") { WebSocketFuzzProperties.fuzzViolations(of: $0, backend: fuzzBackend) }
}

#if !FUZZING
    /// Without libFuzzer: checks each file given as an argument.
    @main
    enum FuzzWebSocketReplay {
        static func main() {
            exit(FuzzDriver.replay(Array(CommandLine.arguments.dropFirst())) { WebSocketFuzzProperties.violations(of: $0, backend: fuzzBackend) })
        }
    }
#endif
