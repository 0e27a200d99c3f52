// libFuzzer target over the loopback server's request parser (`scripts/fuzz-http`).
//
// Built with `-sanitize=fuzzer,address -DFUZZING`, libFuzzer supplies `main` and calls
// `LLVMFuzzerTestOneInput` with each input. In an ordinary build the same file is a small program
// that checks the files named on its command line, so `swift build` keeps working.
import Foundation
import MockSupabase

/// Checks one input under the default and the small limits; traps (a crash libFuzzer records) on
/// any violated property.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
    for limits in [HTTPParserLimits(), HTTPParserProperties.smallLimits] {
        let problems = HTTPParserProperties.violations(of: input, limits: limits, seed: UInt64(size))
        if !problems.isEmpty {
            fatalError("HTTP parser property violated:\n" + problems.joined(separator: "\n"))
        }
    }
    return 0
}

#if !FUZZING
/// Without libFuzzer: checks each file given as an argument.
@main
enum FuzzHTTPReplay {
    static func main() {
        var failed = 0
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else {
                print("cannot read \(path)")
                failed += 1
                continue
            }
            let input = [UInt8](data)
            let problems = [HTTPParserLimits(), HTTPParserProperties.smallLimits].flatMap {
                HTTPParserProperties.violations(of: input, limits: $0, seed: UInt64(input.count))
            }
            print("\(problems.isEmpty ? "ok  " : "FAIL") \(path)")
            for p in problems { print("     \(p)") }
            if !problems.isEmpty { failed += 1 }
        }
        exit(failed == 0 ? 0 : 1)
    }
}
#endif
