// libFuzzer target over the loopback server's request parser (`scripts/fuzz-http`).
//
// Built with `-sanitize=fuzzer,address -DFUZZING`, libFuzzer supplies `main` and calls
// `LLVMFuzzerTestOneInput` with each input. In an ordinary build the same file is a small program
// that checks the files named on its command line, so `swift build` keeps working.
import Foundation
import MockSupabase

/// The parser's properties under the default and the small limits.
func httpParserViolations(_ input: [UInt8]) -> [String] {
    [HTTPParserLimits(), HTTPParserProperties.smallLimits].flatMap {
        HTTPParserProperties.violations(of: input, limits: $0, seed: UInt64(input.count))
    }
}

/// Checks one input under the default and the small limits; traps (a crash libFuzzer records) on
/// any violated property.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    FuzzDriver.check(data, size, what: "HTTP parser", httpParserViolations)
}

#if !FUZZING
    /// Without libFuzzer: checks each file given as an argument.
    @main
    enum FuzzHTTPReplay {
        static func main() {
            exit(FuzzDriver.replay(Array(CommandLine.arguments.dropFirst()), httpParserViolations))
        }
    }
#endif
