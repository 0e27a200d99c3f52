import Foundation
import XCTest

/// Runs `scripts/interop-python`: TeleportMe, Naar's Cars, CivicForge and Aura flows through the official Supabase
/// Python client against `contracts serve`.
///
/// Skips, naming the reason, where python3, venv or PyPI is missing (exit 3 or 4 of the script),
/// or where the `contracts` executable is not built beside the tests — unless the environment sets
/// `SUPACONTRACTS_REQUIRE_INTEROP=1`, which turns every such gap into a failure.
final class InteropPythonTests: XCTestCase {
    private var required: Bool { ProcessInfo.processInfo.environment["SUPACONTRACTS_REQUIRE_INTEROP"] == "1" }

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
