import MockBinding
import Foundation
import MockSupabase
import XCTest

/// Naar's Cars FR-049/FR-050 and CivicForge §3 (`RealtimeSuite`) run against a manager whose
/// channels are real subscriptions on the mock's Realtime: every join and leave the suite sees
/// also goes over a WebSocket as `phx_join` (postgres_changes on a published table, as a persona)
/// and `phx_leave`, and after the run the channels the server holds must be exactly the ones the
/// suite saw joined.
final class RealtimeManagerOverSocketTests: GateTestCase {
    /// Joins and leaves on the server as well as in the suite's recording transport. Channel
    /// `realtime:channel-N` becomes `realtime:<prefix>-channel-N` on the server.
    final class SocketTransport: RealtimeTransport, @unchecked Sendable {
        let recording: RecordingRealtimeTransport
        let client: RealtimeClient
        let prefix: String
        let token: String
        let table: String
        /// Leaves only in the recording, not on the server: a manager whose view of its channels
        /// drifts from the server's (the cross-check must reject it).
        let forgetsServerLeave: Bool
        private let lock = NSLock()
        private var problems: [String] = []

        init(recording: RecordingRealtimeTransport, client: RealtimeClient, prefix: String, token: String, table: String, forgetsServerLeave: Bool) {
            self.recording = recording; self.client = client; self.prefix = prefix; self.token = token; self.table = table
            self.forgetsServerLeave = forgetsServerLeave
        }

        func serverTopic(_ channel: String) -> String { "realtime:\(prefix)-" + channel.replacingOccurrences(of: "realtime:", with: "") }

        func join(_ channel: String) async {
            await recording.join(channel)
            let name = String(serverTopic(channel).dropFirst("realtime:".count))
            do {
                let reply = try client.join(name, accessToken: token, postgresChanges: [["event": "*", "schema": "public", "table": .string(table)]])
                if reply?.payload["status"] != .string("ok") { note("join \(channel) refused: \(String(describing: reply?.payload))") }
                let system = try client.next { $0.event == "system" && $0.topic == "realtime:" + name }
                if system?.payload["status"] != .string("ok") { note("join \(channel) not subscribed: \(String(describing: system?.payload))") }
            } catch { note("join \(channel): \(error)") }
        }

        func leave(_ channel: String) async {
            await recording.leave(channel)
            guard !forgetsServerLeave else { return }
            do {
                let ref = client.push(topic: serverTopic(channel), event: "phx_leave", payload: .object([:]))
                if try client.reply(to: ref)?.payload["status"] != .string("ok") { note("leave \(channel) not acknowledged") }
            } catch { note("leave \(channel): \(error)") }
        }

        func note(_ s: String) { lock.lock(); problems.append(s); lock.unlock() }
        var notes: [String] { lock.lock(); defer { lock.unlock() }; return problems }
    }

    /// Runs the suite with managers made by `make` over sockets; returns the report and the
    /// server-side disagreements (channels held by the server that the suite does not see
    /// joined, or the reverse, and refused joins).
    func run(
        make: @escaping @Sendable (RealtimeRules, any RealtimeTransport, any ActionScheduler) -> any RealtimeSubscriptionManaging,
        app: String = "naarscars", persona: String = "bob", table: String = "messages",
        forgetsServerLeave: Bool = false
    ) async throws -> (SuiteReport, [String]) {
        let rules = try XCTUnwrap(try ClientRules.load(app: app)?.realtime)
        let (backend, server) = try RealtimeGate.serve(app)
        defer { server.stop() }
        let token = try XCTUnwrap(backend.accessToken(persona: persona))
        let port = server.port, anon = backend.anonKey
        let made = Made()
        let report = await RealtimeSuite.run(rules) { env in
            let prefix = "m\(made.count)"
            let client = try! RealtimeClient(port: port, apikey: anon)
            let t = SocketTransport(
                recording: env.transport, client: client, prefix: prefix, token: token, table: table, forgetsServerLeave: forgetsServerLeave)
            made.add(t)
            return make(rules, t, env.scheduler)
        }
        var problems: [String] = []
        let held = backend.realtime.joinedTopics
        for t in made.all {
            problems += t.notes
            let onServer = held.filter { $0.hasPrefix("realtime:\(t.prefix)-") }.sorted()
            let seen = t.recording.joined.map(t.serverTopic).sorted()
            if onServer != seen { problems.append("\(t.prefix): the server holds \(onServer), the suite saw \(seen) joined") }
        }
        return (report, problems)
    }

    final class Made: @unchecked Sendable {
        private let lock = NSLock()
        private var list: [SocketTransport] = []
        func add(_ t: SocketTransport) { lock.lock(); list.append(t); lock.unlock() }
        var count: Int { lock.lock(); defer { lock.unlock() }; return list.count }
        var all: [SocketTransport] { lock.lock(); defer { lock.unlock() }; return list }
    }

    func testReferenceManagerHoldsAtMostThreeSubscriptionsOnTheServer() async throws {
        let (report, problems) = try await run { rules, transport, scheduler in RealtimeManager(rules: rules, transport: transport, scheduler: scheduler) }
        XCTAssertTrue(report.passed, "\(report)")
        XCTAssertEqual(problems, [])
    }

    func testCivicForgeBoardManagerOnTheServer() async throws {
        let (report, problems) = try await run(
            make: { rules, transport, scheduler in RealtimeManager(rules: rules, transport: transport, scheduler: scheduler) },
            app: "civicforge", persona: "ben", table: "posts")
        XCTAssertTrue(report.passed, "\(report)")
        XCTAssertEqual(problems, [])
    }

    func testAManagerWithoutTheLimitIsRejected() async throws {
        let (report, _) = try await run { rules, transport, scheduler in
            MutantRealtimeManager(max: rules.maxSubscriptions, delay: rules.backgroundDropAfter, transport: transport, scheduler: scheduler, flaw: .noLimit)
        }
        XCTAssertTrue(report.violated("realtime.max-subscriptions"), "\(report)")
    }

    func testAManagerThatNeverLeavesOnTheServerIsRejected() async throws {
        let (report, problems) = try await run(
            make: { rules, transport, scheduler in RealtimeManager(rules: rules, transport: transport, scheduler: scheduler) },
            forgetsServerLeave: true)
        XCTAssertTrue(report.passed, "the recording alone cannot see it: \(report)")
        XCTAssertFalse(problems.isEmpty, "the server still holds the channels it should have left")
    }
}
