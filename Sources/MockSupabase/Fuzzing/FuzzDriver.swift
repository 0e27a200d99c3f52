import Foundation

/// The two ways a fuzz target's property runs, shared by the `fuzz-*` executables: once per
/// libFuzzer input (a violation traps, which libFuzzer records as a crash), or over files named on
/// the command line (the replayer an ordinary build makes of the same target).
public enum FuzzDriver {
    /// A property: the violations an input shows (empty when it holds).
    public typealias Property = ([UInt8]) -> [String]

    /// Checks one libFuzzer input; traps naming `what` and every violation.
    public static func check(_ data: UnsafePointer<UInt8>?, _ size: Int, what: String, _ property: Property) -> CInt {
        let input = size > 0 && data != nil ? Array(UnsafeBufferPointer(start: data, count: size)) : []
        let problems = property(input)
        if !problems.isEmpty {
            fatalError("\(what) property violated:\n" + problems.joined(separator: "\n"))
        }
        return 0
    }

    /// Checks each file at `paths`, printing `ok`/`FAIL` per file; returns the exit status (1 when
    /// a file could not be read or failed).
    public static func replay(_ paths: [String], _ property: Property) -> Int32 {
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
