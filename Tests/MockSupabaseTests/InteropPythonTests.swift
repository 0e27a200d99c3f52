import Foundation
import XCTest

/// Runs `scripts/interop-python`: TeleportMe, Naar's Cars, CivicForge and Aura flows through the official Supabase
/// Python client against `contracts serve`.
///
/// Runs only when asked or when its environment already exists, so `swift test` needs no network:
/// with `SUPACONTRACTS_INTEROP=1` (installs the pinned client from PyPI into .build/venv-interop on
/// first use), with `SUPACONTRACTS_REQUIRE_INTEROP=1` (CI: every gap is a failure), or when
/// .build/venv-interop already holds the pinned client (a previous run installed it). Otherwise it
/// skips, saying how to run it. Also skips, naming the reason, where python3, venv or PyPI is
/// missing (exit 3 or 4 of the script) or the `contracts` executable is not built beside the tests.
final class InteropPythonTests: XCTestCase {
    private var required: Bool { ProcessInfo.processInfo.environment["SUPACONTRACTS_REQUIRE_INTEROP"] == "1" }
    private var asked: Bool { required || ProcessInfo.processInfo.environment["SUPACONTRACTS_INTEROP"] == "1" }

    /// Whether the venv holds exactly the pinned requirements (the script's stamp file).
    private var environmentReady: Bool {
        let stamp = packageRoot.appendingPathComponent(".build/venv-interop/.requirements")
        let pinned = packageRoot.appendingPathComponent("Tests/Interop/requirements.txt")
        guard let a = try? Data(contentsOf: stamp), let b = try? Data(contentsOf: pinned) else { return false }
        return a == b
    }

    private func skipOrFail(_ reason: String) throws {
        if required {
            XCTFail("SUPACONTRACTS_REQUIRE_INTEROP=1 but \(reason)")
        } else {
            throw XCTSkip(reason)
        }
    }

    private var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The `contracts` executable of the same build as this test bundle.
    private func contractsExecutable() -> URL? {
        var dirs = [Bundle(for: Self.self).bundleURL.deletingLastPathComponent()]
        if let argv0 = CommandLine.arguments.first {
            dirs.append(URL(fileURLWithPath: argv0).deletingLastPathComponent())
        }
        return dirs.map { $0.appendingPathComponent("contracts") }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    func testOfficialPythonClientFlows() throws {
        guard asked || environmentReady else {
            throw XCTSkip(
                "the official Python client's interop runs when asked: SUPACONTRACTS_INTEROP=1 swift test --filter InteropPythonTests (installs supabase from PyPI into .build/venv-interop once), or scripts/interop-python"
            )
        }
        guard let contracts = contractsExecutable() else {
            return try skipOrFail("the contracts executable is not built beside the test bundle (run `swift build` first)")
        }
        let script = packageRoot.appendingPathComponent("scripts/interop-python")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["bash", script.path]
        var environment = ProcessInfo.processInfo.environment
        environment["CONTRACTS_BIN"] = contracts.path
        process.environment = environment
        process.currentDirectoryURL = packageRoot
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Bounded: the script stops its own server; this guards against a hung interpreter.
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 900, execute: watchdog)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        let text = String(decoding: data, as: UTF8.self)
        print(text)

        switch process.terminationStatus {
        case 3, 4:
            let reason = text.split(separator: "\n").last(where: { $0.hasPrefix("interop-python:") }).map(String.init) ?? "exit \(process.terminationStatus)"
            return try skipOrFail(reason)
        default:
            break
        }
        let closing = text.split(separator: "\n").last { $0.range(of: #"^\d+ passed, \d+ failed"#, options: .regularExpression) != nil }
        guard let closing else {
            return XCTFail("no closing 'N passed, M failed' line (exit \(process.terminationStatus)):\n\(text.suffix(3000))")
        }
        let numbers = closing.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        let failures = text.split(separator: "\n").filter { $0.hasPrefix("FAIL ") }.joined(separator: "\n")
        XCTAssertEqual(numbers.count >= 2 ? numbers[1] : -1, 0, "flows failed:\n\(failures)")
        XCTAssertGreaterThan(numbers.first ?? 0, 0, "no flow passed: \(closing)")
        XCTAssertEqual(process.terminationStatus, 0, "scripts/interop-python exit status")
    }
}
