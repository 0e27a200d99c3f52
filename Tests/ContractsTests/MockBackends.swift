import MockBinding

extension BackendUnderTest {
    /// The mock behind a backend the gate built (every app's backend is one).
    var mock: MockSupabase { self as! MockSupabase }
}

extension AppModule {
    /// The app's mock backend, for tests that reach past the wire.
    static func makeMock() throws -> MockSupabase {
        try makeBackendUnderTest(clock: SystemClock(), ids: SystemIDGenerator(), folder: nil).mock
    }
}
