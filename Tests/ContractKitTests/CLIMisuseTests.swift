import XCTest
import MockBinding

/// The `contracts` executable, run as a newcomer would misuse it: every mistake of the issue
/// fails fast (usage error, exit 2) with a message that says what to do, before any work.
final class CLIMisuseTests: XCTestCase {
    /// The `contracts` executable of the same build as this test bundle.
    private func executable() throws -> URL {
        var dirs = [Bundle(for: Self.self).bundleURL.deletingLastPathComponent()]
        if let argv0 = CommandLine.arguments.first { dirs.append(URL(fileURLWithPath: argv0).deletingLastPathComponent()) }
        guard let url = dirs.map({ $0.appendingPathComponent("contracts") }).first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw XCTSkip("the contracts executable is not built beside the test bundle (swift build builds it)")
        }
        return url
    }

    private func run(_ args: [String], environment: [String: String] = [:]) throws -> (status: Int32, out: String, err: String, seconds: Double) {
        let p = Process()
        p.executableURL = try executable()
        p.arguments = args
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        p.standardInput = FileHandle.nullDevice
        let start = Date()
        try p.run()
        let watchdog = DispatchWorkItem { if p.isRunning { p.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: watchdog)
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        watchdog.cancel()
        return (p.terminationStatus, String(decoding: o, as: UTF8.self), String(decoding: e, as: UTF8.self), Date().timeIntervalSince(start))
    }

    func testUsageErrorsExitTwoBeforeAnyWork() throws {
        let cases: [([String], String)] = [
            (["verify", "--apps", "aura"], "unknown option '--apps' (did you mean --app?)"),
            (["verify", "--json"], "unknown option '--json' (did you mean --format json?)"),
            (["verify", "--app"], "option --app needs a value (NAME)"),
            (["verify", "--app", "nope"], "unknown app 'nope' (one of: teleportme, naarscars, civicforge, aura, shvil)"),
            (["verify", "--kind", "postgress"], "unknown rule kind 'postgress'"),
            (["verify", "--format", "xml"], "--format 'xml' is not one of text, json, junit"),
            (["verify", "--require", "nope"], "--require: unknown rule kind 'nope'"),
            (["verify", "--max-failures", "-3"], "--max-failures '-3' is not a count (0 = all)"),
            (["serve"], "--app NAME is required"),
            (["serve", "--app", "aura", "--port", "99999"], "--port '99999' is not a port number"),
            (["serve", "--app", "aura", "--verbose"], "unknown option '--verbose'"),
            (["goldens", "--app"], "option --app needs a value (NAME)"),
            (["report", "rls", "--out", "/etc/passwd"], "--out /etc/passwd is a file, not a folder"),
            (["report", "rls", "--out", "/etc/passwd/pages"], "cannot create the folder /etc/passwd/pages: /etc/passwd is a file, not a folder"),
            (["verify", "--junit", "/nonexistent-folder/v.xml"], "--junit /nonexistent-folder/v.xml: cannot write there: no such folder /nonexistent-folder"),
            (["report", "rls"], "--out DIR is required"),
            (["report"], "missing rls"),
            (["frobnicate"], "unknown command 'frobnicate'"),
            (["verify", "--target", "127.0.0.1:54321"], "--target '127.0.0.1:54321' is not an http(s) URL"),
            (["verify", "--target", "http://127.0.0.1:54321"], "--target needs the anon key: --anon-key KEY or SUPABASE_ANON_KEY"),
            (["verify", "--target", "http://127.0.0.1:54321", "--anon-key", "a"], "--target needs the service-role key"),
            (["verify", "--target", "http://127.0.0.1:1", "--database", "postgresql:///x"], "--target and --database exclude each other"),
            (["verify", "--no-seed"], "--no-seed goes with --target URL"),
            (["verify", "--database", "postgresql:///x", "--kind", "rls"], "--kind applies to the embedded mock only, not with --database"),
            (
                ["verify", "--target", "http://127.0.0.1:1", "--anon-key", "a", "--service-role-key", "s", "--kind", "models"],
                "--kind models does not run with --target"
            ),
            (["verify", "--migrations", "/nonexistent-folder"], "--migrations /nonexistent-folder: not a folder")
        ]
        for (args, message) in cases {
            let r = try run(args, environment: ["SUPABASE_ANON_KEY": "", "SUPABASE_SERVICE_ROLE_KEY": ""])
            XCTAssertEqual(r.status, 2, "\(args): exit \(r.status)\n\(r.err)")
            XCTAssertTrue(r.err.contains(message), "\(args): \(r.err)")
            XCTAssertEqual(r.out, "", "\(args): nothing on standard output")
            XCTAssertFalse(r.err.contains("Error Domain="), "\(args): no NSError dump")
            XCTAssertLessThan(r.seconds, 30, "\(args): failed fast")
        }
    }

    func testHelpOnEveryCommandListsEveryOptionAndVariable() throws {
        let expected: [String: [String]] = [
            "verify": [
                "--app NAME", "--kind KIND", "--require KIND", "--format FORMAT", "--max-failures N", "--check-coverage FILE",
                "--write-coverage FILE", "--junit FILE", "--no-progress", "SUPACONTRACTS_ROOT", "PG_BIN", "SUPACONTRACTS_REQUIRE_POSTGRES",
                "SUPACONTRACTS_SEED", "SUPACONTRACTS_RECORD", "NO_COLOR"
            ],
            "serve": ["--app NAME", "--port P", "--idle-timeout SECONDS", "SUPACONTRACTS_ROOT"],
            "goldens": ["--update", "--app NAME", "SUPACONTRACTS_RECORD", "SUPACONTRACTS_ROOT"],
            "report": ["--out DIR", "--app NAME", "--no-flips", "SUPACONTRACTS_ROOT"]
        ]
        for (command, needles) in expected {
            for flag in ["--help", "-h"] {
                let r = try run([command, flag])
                XCTAssertEqual(r.status, 0, "\(command) \(flag)")
                for n in needles { XCTAssertTrue(r.out.contains(n), "\(command) \(flag) lacks \(n):\n\(r.out)") }
            }
        }
        let v = try run(["--version"])
        XCTAssertEqual(v.status, 0)
        XCTAssertTrue(v.out.hasPrefix("contracts "), v.out)
    }

    func testAppNamesAreCaseInsensitive() throws {
        // A usage error after the app name shows the name was accepted (no work is done).
        let r = try run(["verify", "--app", "Shvil", "--format", "nope"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.err.contains("--format 'nope'"), r.err)
    }

    /// Without PostgreSQL the postgres kind is a visible skipped row naming the fix: verify passes
    /// on a developer's machine, `--require postgres` (CI) fails, and a run of only skipped kinds
    /// says no case ran.
    func testMissingPostgresIsAVisibleSkip() throws {
        let env = ["PG_BIN": "/nonexistent-pg-bin", "SUPACONTRACTS_REQUIRE_POSTGRES": "0"]
        let dev = try run(["verify", "--app", "shvil", "--kind", "app-rules,postgres", "--no-progress"], environment: env)
        XCTAssertEqual(dev.status, 0, dev.out + dev.err)
        XCTAssertTrue(dev.out.contains("skipped: PG_BIN=/nonexistent-pg-bin holds no initdb/pg_ctl/psql; install PostgreSQL"), dev.out)
        XCTAssertTrue(dev.out.contains("1 rule kind skipped (postgres)"), dev.out)
        let ci = try run(["verify", "--app", "shvil", "--kind", "app-rules,postgres", "--require", "postgres", "--no-progress"], environment: env)
        XCTAssertEqual(ci.status, 1, ci.out)
        XCTAssertTrue(ci.out.contains("required (--require postgres) but skipped"), ci.out)
        let only = try run(["verify", "--app", "shvil", "--kind", "postgres", "--no-progress"], environment: env)
        XCTAssertEqual(only.status, 1, only.out)
        XCTAssertTrue(only.out.contains("no case ran"), only.out)
        let junit = try run(["verify", "--app", "shvil", "--kind", "app-rules,postgres", "--format", "junit"], environment: env)
        XCTAssertTrue(junit.out.hasPrefix("<?xml"), junit.out)
        XCTAssertTrue(junit.out.contains("<skipped message=\"PG_BIN=/nonexistent-pg-bin"), junit.out)
        XCTAssertEqual(junit.err, "", "no progress lines when standard error is not a terminal")
    }

    func testMissingPoliciesIsALoadErrorAndServeRefuses() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("cli-misuse-\(UUID().uuidString)")
        let contracts = root.appendingPathComponent("Contracts")
        try FileManager.default.createDirectory(at: contracts, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.copyItem(at: ContractsLocator.app("shvil"), to: contracts.appendingPathComponent("shvil"))
        try FileManager.default.copyItem(at: ContractsLocator.contracts.appendingPathComponent("FORMAT.md"), to: contracts.appendingPathComponent("FORMAT.md"))
        try FileManager.default.removeItem(at: contracts.appendingPathComponent("shvil/policies.json"))
        let serve = try run(["serve", "--app", "shvil", "--port", "0"], environment: ["SUPACONTRACTS_ROOT": root.path])
        XCTAssertEqual(serve.status, 2)
        XCTAssertTrue(serve.err.contains("Contracts/shvil/policies.json: missing file"), serve.err)
        let verify = try run(["verify", "--app", "shvil", "--kind", "rls", "--no-progress"], environment: ["SUPACONTRACTS_ROOT": root.path])
        XCTAssertEqual(verify.status, 1)
        XCTAssertEqual(verify.out.components(separatedBy: "policies.json: missing file").count - 1, 1, verify.out)
        XCTAssertTrue(verify.out.contains("not run: the app's contracts did not load"), verify.out)
    }
}
