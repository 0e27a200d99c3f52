import Foundation
import MockSupabase
import MockBinding

/// Where a failed operation ended, as a client's error handler routes it (errors.json `handling`).
public struct HandledError: Sendable, Equatable, CustomStringConvertible {
    public var error: AppError
    /// The boundary that took it.
    package var boundary: ErrorBoundary
    /// The recovery offered (view) or performed (app); nil at the service boundary.
    public var recovery: RecoveryAction?
    public var description: String { "\(error.id) at \(boundary.rawValue)\(recovery.map { " (\($0.rawValue))" } ?? "")" }
}

/// A client's error handler: runs an operation, retrying and routing its failures. The
/// implementation under test of `ShvilErrorHandlingConformance`.
public protocol AppErrorHandler {
    /// Runs `attempt` until it succeeds or the handler gives up; `sleep` is called with each
    /// backoff delay. Returns nil on success, else where the error went.
    func run(_ attempt: () throws -> Void, sleep: (Double) -> Void) -> HandledError?
}

/// The reference handler: errors.json's catalog, literally.
package struct CatalogErrorHandler: AppErrorHandler {
    package var catalog: ErrorCatalog
    package init(catalog: ErrorCatalog) { self.catalog = catalog }

    /// Retries retryable kinds on `retry.schedule`, then routes to the kind's boundary.
    package func run(_ attempt: () throws -> Void, sleep: (Double) -> Void) -> HandledError? {
        var retry = 0
        while true {
            do { try attempt(); return nil } catch {
                let e = error as? AppError ?? catalog.undecodableBody
                retry += 1
                if catalog.entries[e.id]?.retryable == true, let d = catalog.retry.delay(beforeRetry: retry) {
                    sleep(d)
                    continue
                }
                let entry = catalog.entries[e.id]
                let boundary = entry?.boundary ?? .app
                return HandledError(error: e, boundary: boundary, recovery: boundary == .service ? nil : entry?.recovery)
            }
        }
    }
}

/// The conformance suite of an `AppErrorHandler` and of a response mapper, from errors.json.
public enum ShvilErrorHandlingConformance {
    /// For every AppError: an operation that always fails with it is attempted exactly
    /// 1 + maxRetries times when retryable (1 otherwise), with the schedule's delays, and ends at
    /// the entry's boundary with its recovery; an operation that first succeeds on the last
    /// permitted attempt ends without error (the boundary value), one that would succeed a
    /// retry later does not.
    package static func violations(of handler: some AppErrorHandler, catalog: ErrorCatalog) -> [String] {
        var out: [String] = []
        for e in AppError.allCases {
            guard let entry = catalog.entries[e.id] else { out.append("\(e.id): no catalog entry"); continue }
            let schedule = entry.retryable ? catalog.retry.schedule : []
            var attempts = 0, delays: [Double] = []
            let result = handler.run(
                {
                    attempts += 1; throw e
                }, sleep: { delays.append($0) })
            if attempts != 1 + schedule.count {
                out.append("\(e.id): \(attempts) attempts, expected \(1 + schedule.count)\(entry.retryable ? "" : " (not retryable)")")
            }
            if delays != schedule { out.append("\(e.id): waited \(delays), expected \(schedule)") }
            let expected = HandledError(error: e, boundary: entry.boundary, recovery: entry.boundary == .service ? nil : entry.recovery)
            if result != expected { out.append("\(e.id): ended as \(result.map(\.description) ?? "success"), expected \(expected)") }
            guard entry.retryable else { continue }
            // Boundary: success on the last permitted attempt, then one attempt too late.
            for (succeedOn, shouldSucceed) in [(1 + schedule.count, true), (2 + schedule.count, false)] {
                var n = 0
                let r = handler.run(
                    {
                        n += 1; if n < succeedOn { throw e }
                    }, sleep: { _ in })
                if (r == nil) != shouldSucceed {
                    out.append(
                        "\(e.id): an operation succeeding on attempt \(succeedOn) ended as \(r.map(\.description) ?? "success"), expected \(shouldSucceed ? "success" : "\(expected)")"
                    )
                }
            }
        }
        return out
    }

    /// A response mapper under test: the AppError of an HTTP status and body, nil for none.
    public typealias Mapper = (Int, Data) -> AppError?

    /// Every mapping rule at and around its bounds (statusFrom - 1, statusFrom, statusTo,
    /// statusTo + 1), with a body carrying one of its codes and one carrying none: the first
    /// matching rule's error, nil where no rule matches, nil for 2xx with a decodable body.
    package static func mappingViolations(of map: Mapper, catalog: ErrorCatalog) -> [String] {
        var out: [String] = []
        func expected(_ status: Int, _ codes: [String]) -> AppError? {
            if (200..<300).contains(status) { return nil }
            return catalog.rules.first {
                ($0.statusFrom...$0.statusTo).contains(status) && ($0.bodyCodes.isEmpty || $0.bodyCodes.contains(where: codes.contains))
            }?.error
        }
        var probes: [(Int, [String])] = [(200, []), (204, [])]
        for r in catalog.rules {
            for s in [r.statusFrom - 1, r.statusFrom, r.statusTo, r.statusTo + 1] {
                probes.append((s, []))
                if let c = r.bodyCodes.first { probes.append((s, [c])) }
            }
        }
        for (status, codes) in probes {
            var body: [String: JSONValue] = ["message": "probe"]
            if let c = codes.first { body["error_code"] = .string(c) }
            let got = map(status, JSONValue.object(body).data())
            let want = expected(status, codes)
            if got != want {
                out.append("status \(status)\(codes.isEmpty ? "" : " with \(codes[0])"): \(got?.id ?? "no error"), expected \(want?.id ?? "no error")")
            }
        }
        return out
    }
}
