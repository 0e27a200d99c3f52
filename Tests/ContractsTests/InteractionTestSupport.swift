import XCTest
import MockBinding

/// Replays of one app's documented interaction on a chosen (often deliberately wrong) backend,
/// with the shared engine: the file's start time, over the wire.
enum InteractionTestSupport {
    /// The app's interaction file `name` (`flags-third-flag-hides.json`).
    static func file(_ app: any AppModule.Type, _ name: String) throws -> InteractionFile {
        try XCTUnwrap(try InteractionReplay.load(app: app).first { $0.file.hasSuffix("/\(name)") }, "no file \(name) in Contracts/\(app.name)/interactions")
    }

    /// Replays the file `name` on the backend `make` builds around a clock standing at the file's
    /// start time (`advanceClock` moves it).
    static func replay(_ app: any AppModule.Type, _ name: String, on make: (ManualClock) throws -> MockSupabase) throws -> InteractionResult {
        let f = try file(app, name)
        let clock = ManualClock(f.startTime ?? InteractionReplay.defaultStartTime)
        return InteractionReplay.replay(f, over: InteractionReplay.transport(for: try make(clock)), clock: clock)
    }

    /// Fails unless the replay failed (a mutant backend must be rejected).
    static func assertRejected(_ r: InteractionResult, _ mutant: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(r.passed, "mutant not rejected by \(r.file.file): \(mutant)", file: file, line: line)
    }
}
