import Foundation

/// The two ways a fuzz target's property runs, shared by the `fuzz-*` executables: once per
/// libFuzzer input (a violation traps, which libFuzzer records as a crash), or over files named on
/// the command line (the replayer an ordinary build makes of the same target).
package enum FuzzDriver {
    /// A property: the violations an input shows (empty when it holds).
    package typealias Property = ([UInt8]) -> [String]

    /// Checks one libFuzzer input; traps naming `what` and every violation.
    package static func check(_ data: UnsafePointer<UInt8>?, _ size: Int, what: String, _ property: Property) -> CInt {
        let input = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
        let problems = property(input)
        if !problems.isEmpty {
            fatalError("\(what) property violated:\n" + problems.joined(separator: "\n"))
        }
        return 0
    }

    /// Whether a fuzz target also sends `input` down its deep path (whole requests through the
    /// mock backend, a Realtime socket, files on disk): true for one input in `oneIn`, chosen by
    /// the FNV-1a hash of its bytes, so the choice is reproducible (a crash input replays the
    /// same way) and spread evenly over what the fuzzer generates. Every input runs the parser's
    /// own properties, which are cheap; the deep ones cost 10–100 times more, and running them on
    /// every input held the targets to a few hundred executions a second.
    package static func takesDeepPath(_ input: [UInt8], oneIn: UInt64) -> Bool {
        let hash = SeededRandom.fnv1a(input)
        return oneIn <= 1 || (hash >> 32) % oneIn == 0 // the high bits: FNV mixes them best
    }

    /// Checks each file at `paths`, printing `ok`/`FAIL` per file; returns the exit status (1 when
    /// a file could not be read or failed).
    package static func replay(_ paths: [String], _ property: Property) -> Int32 {
        var failed = 0
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path) else {
                print("cannot read \(path)")
                failed += 1
                continue
            }
            let problems = property([UInt8](data))
            print("\(problems.isEmpty ? "ok  " : "FAIL") \(path)")
            for p in problems { print("     \(p)") }
            if !problems.isEmpty { failed += 1 }
        }
        return failed == 0 ? 0 : 1
    }
}
