import XCTest
import MockBinding

/// The command-line parser: everything not declared is a usage error before any work.
final class CommandSpecTests: XCTestCase {
    let spec = CommandSpec(
        name: "verify", summary: "runs things",
        options: [
            .value("app", "NAME", repeatable: true, "an app"),
            .value("format", "FORMAT", "text, json or junit"),
            .flag("no-progress", "quiet")
        ], environment: [("SUPACONTRACTS_ROOT", "the root")], hints: ["json": "--format json"])

    func testAcceptsDeclaredOptionsInBothSpellings() throws {
        let p = try spec.parse(["--app", "aura", "--app=shvil", "--format", "junit", "--no-progress"])
        XCTAssertEqual(p.values["app"], ["aura", "shvil"])
        XCTAssertEqual(p.value("format"), "junit")
        XCTAssertEqual(p.flags, ["no-progress"])
        XCTAssertFalse(p.help)
    }

    func testEveryMisuseOfTheIssueIsAUsageError() {
        func message(_ args: [String]) -> String? {
            do { _ = try spec.parse(args); return nil } catch { return error.message }
        }
        XCTAssertEqual(message(["--apps", "aura"]), "unknown option '--apps' (did you mean --app?)")
        XCTAssertEqual(message(["--json"]), "unknown option '--json' (did you mean --format json?)")
        XCTAssertEqual(message(["--app"]), "option --app needs a value (NAME)")
        XCTAssertEqual(message(["--app", "--format", "json"]), "option --app needs a value (NAME)")
        XCTAssertEqual(message(["--app="]), "option --app needs a value (NAME), got an empty one")
        XCTAssertEqual(message(["--format", "json", "--format", "junit"]), "option --format given twice (it takes one FORMAT)")
        XCTAssertEqual(message(["--no-progress=yes"]), "option --no-progress takes no value")
        XCTAssertEqual(message(["stray"]), "unexpected argument 'stray'")
        XCTAssertEqual(message(["-x"]), "unknown option '-x'")
    }

    func testRequiredOptionsAndPositionals() throws {
        let serve = CommandSpec(name: "report", summary: "", positionals: ["rls"], options: [.value("out", "DIR", required: true, "the folder")])
        XCTAssertEqual(serve.usageLine, "usage: contracts report rls --out DIR")
        XCTAssertThrowsError(try serve.parse([])) { XCTAssertEqual(($0 as? UsageError)?.message, "missing rls") }
        XCTAssertThrowsError(try serve.parse(["rls"])) { XCTAssertEqual(($0 as? UsageError)?.message, "--out DIR is required: the folder") }
        XCTAssertEqual(try serve.parse(["rls", "--out", "x"]).value("out"), "x")
    }

    func testHelpWinsAndListsEveryOptionAndVariable() throws {
        XCTAssertTrue(try spec.parse(["--apps", "-h"]).help, "-h anywhere asks for help, even after a mistake")
        XCTAssertTrue(try spec.parse(["--help"]).help)
        for needle in ["--app NAME", "--format FORMAT", "--no-progress", "-h, --help", "SUPACONTRACTS_ROOT", "(repeatable)"] {
            XCTAssertTrue(spec.help.contains(needle), "help lacks \(needle):\n\(spec.help)")
        }
    }

    func testUsageErrorTextNamesCommandUsageAndHelp() {
        let e = spec.usage("boom")
        XCTAssertEqual("\(e)", "contracts verify: boom\n\(spec.usageLine)\n(contracts verify --help lists every option)")
    }
}
