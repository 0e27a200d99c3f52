import Foundation
import ContractKit

// The cache-corruption fuzz target: arbitrary bytes become a cache file, or a program of
// operations, against the reference FileCacheManager (see CacheFuzzHarness). Under libFuzzer every
// input's bytes are read as a cache file (pure), and one input in CacheFuzzHarness.deepOneIn also
// runs the on-disk part; the replayer runs every part of every input. Built with
// libFuzzer and AddressSanitizer by scripts/fuzz-cache; in an ordinary build it is a replayer:
// `cache-fuzz FILE…` runs each input once and prints what went wrong.

/// TeleportMe's cache table (the richest: global and per-user entries, TTLs and none).
let fuzzRules: CacheRules = {
    guard let rules = try? ClientRules.load(app: "teleportme")?.cache else {
        fatalError("cache-fuzz: cannot load Contracts/teleportme/client-rules.json (the checkout this binary was built from has no such file)")
    }
    return rules
}()

/// Scratch space: tmpfs when there is one (much faster than a disk).
let fuzzBase: URL = {
    let shm = URL(fileURLWithPath: "/dev/shm", isDirectory: true)
    let root = FileManager.default.fileExists(atPath: shm.path) ? shm : FileManager.default.temporaryDirectory
    let dir = root.appendingPathComponent("cache-fuzz-\(ProcessInfo.processInfo.processIdentifier)", isDirectory: true)
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func cacheFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = data.map { Data(bytes: $0, count: size) } ?? Data()
    let problems = CacheFuzzHarness.fuzzRun(input, rules: fuzzRules, base: fuzzBase)
    if !problems.isEmpty {
        fatalError("cache invariant broken:\n" + problems.joined(separator: "\n"))
    }
    return 0
}

#if !FUZZING
    @main
    struct CacheFuzzReplay {
        static func main() {
            let files = CommandLine.arguments.dropFirst()
            if files.isEmpty {
                print("usage: cache-fuzz FILE…   (replays inputs; scripts/fuzz-cache builds the libFuzzer target)")
                return
            }
            var failed = 0
            for path in files {
                guard let data = FileManager.default.contents(atPath: path) else { print("\(path): cannot read"); failed += 1; continue }
                let problems = CacheFuzzHarness.run(data, rules: fuzzRules, base: fuzzBase)
                print("\(path): \(problems.isEmpty ? "ok" : problems.joined(separator: "; "))")
                if !problems.isEmpty { failed += 1 }
            }
            try? FileManager.default.removeItem(at: fuzzBase)
            exit(failed == 0 ? 0 : 1)
        }
    }
#endif
