import Foundation
import MockBinding
import MockSupabase

/// What one fuzz execution costs without instrumentation, per target, over its seed corpus
/// (Tests/Fuzz/<target>-corpus, or <folder>/<target> or <folder>/<target>/corpus of each folder
/// named after `fuzz`, such as a campaign's .fuzz-all): every property on every input
/// (what each execution did before the deep path was sampled) against the fuzz targets' sampled
/// check (parser-level properties on every input, the deep path on one in 32), as inputs per second of this process's CPU time (the machine is shared: wall time would measure
/// the other processes).
func runFuzzBenchmark(folders: [String]) {
    do {
        let backend = try FuzzBackend.make()
        guard let rules = try ClientRules.load(app: "teleportme")?.cache else { throw ClientCacheError.io("no TeleportMe cache rules") }
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-bench-\(getpid())")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        typealias Check = ([UInt8]) -> [String]
        let targets: [(String, full: Check, sampled: Check)] = [
            ("query", { QueryFuzzProperties.violations(ofQuery: $0, backend: backend) }, { QueryFuzzProperties.fuzzViolations(ofQuery: $0, backend: backend) }),
            ("json", { JSONFuzzProperties.violations(ofBody: $0, backend: backend) }, { JSONFuzzProperties.fuzzViolations(ofBody: $0, backend: backend) }),
            ("jwt", { JWTFuzzProperties.violations(of: $0, backend: backend) }, { JWTFuzzProperties.fuzzViolations(of: $0, backend: backend) }),
            ("ws", { WebSocketFuzzProperties.violations(of: $0, backend: backend) }, { WebSocketFuzzProperties.fuzzViolations(of: $0, backend: backend) }),
            ("cache", { CacheFuzzHarness.run(Data($0), rules: rules, base: base) }, { CacheFuzzHarness.fuzzRun(Data($0), rules: rules, base: base) })
        ]
        let root = ContractsLocator.root.appendingPathComponent("Tests/Fuzz")
        for (name, full, sampled) in targets {
            let dirs =
                folders.isEmpty
                ? [root.appendingPathComponent("\(name)-corpus")]
                : folders.map { folder -> URL in
                    // A campaign's state folder (.fuzz-all) keeps its inputs in <target>/corpus.
                    let kept = URL(fileURLWithPath: folder).appendingPathComponent("\(name)/corpus")
                    return FileManager.default.fileExists(atPath: kept.path) ? kept : URL(fileURLWithPath: folder).appendingPathComponent(name)
                }
            var inputs: [[UInt8]] = []
            for dir in dirs {
                for file in ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted() where !file.hasPrefix(".") {
                    if let d = FileManager.default.contents(atPath: dir.appendingPathComponent(file).path) { inputs.append([UInt8](d)) }
                }
            }
            guard !inputs.isEmpty else { continue }
            func rate(_ check: Check) -> Double {
                var rates: [Double] = []
                for _ in 0..<3 {
                    let start = cpuSeconds()
                    for input in inputs { precondition(check(input).isEmpty, "\(name): a corpus input fails") }
                    rates.append(Double(inputs.count) / max(cpuSeconds() - start, 1e-9))
                }
                return median(rates)
            }
            let before = rate(full), after = rate(sampled)
            print(
                "fuzz    \(name): \(inputs.count) inputs, every property on every input \(Int(before))/CPU-s, sampled \(Int(after))/CPU-s (\(String(format: "%.1f", after / before))×)"
            )
        }
    } catch {
        FileHandle.standardError.write(Data("fuzz benchmark failed: \(error)\n".utf8))
        exit(1)
    }
}

/// This process's CPU time so far, in seconds.
func cpuSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}
