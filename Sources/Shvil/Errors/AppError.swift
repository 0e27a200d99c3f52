import Foundation
import MockSupabase
import MockBinding

/// Network failures (`AppError.networkError`).
public enum NetworkError: String, CaseIterable, Sendable, Codable {
    /// No connection.
    case offline
    /// The request timed out.
    case timeout
    /// HTTP 429.
    case rateLimited
    /// HTTP 5xx.
    case server
}

/// Authentication failures (`AppError.authenticationError`).
public enum AuthError: String, CaseIterable, Sendable, Codable {
    /// The access token expired or was rejected.
    case sessionExpired
    /// Wrong email or password.
    case invalidCredentials
    /// No session.
    case notSignedIn
}

/// Core Location failures (`AppError.locationError`).
public enum LocationError: String, CaseIterable, Sendable, Codable {
    /// The user denied location access.
    case permissionDenied
    /// No fix available.
    case unavailable
}

/// Data failures (`AppError.dataCorruption`).
public enum DataError: String, CaseIterable, Sendable, Codable {
    /// A response body could not be decoded.
    case decodingFailed
    /// The on-device cache is damaged.
    case cacheCorrupted
}

/// The app's error type (§Error Handling Strategy): four categories with their payloads.
/// `id` is `category.kind` (`networkError.offline`), the key of Contracts/shvil/errors.json.
public enum AppError: Error, Identifiable, Hashable, Sendable, CustomStringConvertible {
    case networkError(NetworkError)
    case authenticationError(AuthError)
    case locationError(LocationError)
    case dataCorruption(DataError)

    /// `category.kind`.
    public var id: String {
        switch self {
        case .networkError(let e): return "networkError.\(e.rawValue)"
        case .authenticationError(let e): return "authenticationError.\(e.rawValue)"
        case .locationError(let e): return "locationError.\(e.rawValue)"
        case .dataCorruption(let e): return "dataCorruption.\(e.rawValue)"
        }
    }

    public var description: String { id }

    public static var allCases: [AppError] {
        NetworkError.allCases.map(AppError.networkError) + AuthError.allCases.map(AppError.authenticationError)
            + LocationError.allCases.map(AppError.locationError) + DataError.allCases.map(AppError.dataCorruption)
    }

    /// The error of an id, if any.
    public init?(id: String) {
        guard let e = AppError.allCases.first(where: { $0.id == id }) else { return nil }
        self = e
    }
}

/// What a view offers the user (the document's `recoveryAction`).
public enum RecoveryAction: String, CaseIterable, Sendable, Codable {
    /// Try the same thing again.
    case retry
    /// Go to the sign-in screen.
    case signIn
    /// Open the app's page in Settings.
    case openSettings
    /// Discard the local cache and download again.
    case resetCache
}

/// Where an error is handled (§Error Boundaries).
package enum ErrorBoundary: String, CaseIterable, Sendable, Codable {
    /// A view's local error state with a retry action.
    case view
    /// A service's automatic retry with exponential backoff.
    case service
    /// The global handler (sign-out, crash reporting).
    case app
}

/// Exponential backoff of the service boundary.
package struct RetryPolicy: Sendable, Equatable {
    /// Retries after the first failure.
    package var maxRetries: Int
    /// Delay before the first retry, in seconds.
    package var initialDelay: Double
    /// Growth factor between retries.
    package var multiplier: Double
    /// Cap of a single delay, in seconds.
    package var maxDelay: Double

    /// The delay before retry `n` (1-based), or nil when no retry is left.
    package func delay(beforeRetry n: Int) -> Double? {
        guard n >= 1, n <= maxRetries else { return nil }
        return min(initialDelay * pow(multiplier, Double(n - 1)), maxDelay)
    }

    /// Every delay, in order.
    package var schedule: [Double] { (1...max(maxRetries, 1)).compactMap { delay(beforeRetry: $0) } }
}

/// A transport failure (no HTTP response).
package enum TransportFailure: String, Sendable, CaseIterable {
    /// Not connected (URLError.notConnectedToInternet, an injected network fault).
    case offline
    /// Timed out (URLError.timedOut).
    case timeout
}

/// Contracts/shvil/errors.json: messages, recoveries, boundaries, retry policy and how HTTP
/// responses become `AppError`s.
package struct ErrorCatalog: Sendable, Equatable {
    /// One error's entry.
    package struct Entry: Sendable, Equatable {
        /// The recovery a view offers.
        package var recovery: RecoveryAction
        /// Where it is handled.
        package var boundary: ErrorBoundary
        /// Whether the service level retries it automatically.
        package var retryable: Bool
        /// userMessage by language code.
        package var messages: [String: String]
    }

    /// One response-mapping rule.
    package struct Rule: Sendable, Equatable {
        /// Lowest matching status.
        package var statusFrom: Int
        /// Highest matching status.
        package var statusTo: Int
        /// Error codes one of which the body must carry (`code`, `error_code` or `error`); empty matches any body.
        package var bodyCodes: [String]
        package var error: AppError
    }

    /// Supported languages; the first is the fallback.
    package var languages: [String]
    /// Entries by error id.
    package var entries: [String: Entry]
    /// The service-level backoff.
    package var retry: RetryPolicy
    package var transport: [TransportFailure: AppError]
    /// Response rules, first match wins.
    package var rules: [Rule]
    /// The error of a body that cannot be decoded.
    package var undecodableBody: AppError
    /// What a client does on a refused access token (`session`).
    package var session: SessionRefreshRule

    /// Loads errors.json.
    package static func load(folder: URL = ContractsLocator.app(ShvilApp.name)) throws -> ErrorCatalog {
        try SpecNode.decode(ErrorCatalog.self, from: folder.appendingPathComponent("errors.json"), displayName: "Contracts/shvil/errors.json")
    }

    /// The localized message (the first language when `language` has none).
    package func userMessage(_ error: AppError, language: String) -> String {
        let e = entries[error.id]
        return e?.messages[language] ?? languages.first.flatMap { e?.messages[$0] } ?? error.id
    }

    /// The recovery a view offers.
    package func recovery(_ error: AppError) -> RecoveryAction? { entries[error.id]?.recovery }

    /// The delays before automatic retries of `error` (empty when it is not retried).
    package func retrySchedule(_ error: AppError) -> [Double] { entries[error.id]?.retryable == true ? retry.schedule : [] }

    package func error(for failure: TransportFailure) -> AppError? { transport[failure] }

    /// The error of an HTTP response, or nil for a success. A 2xx whose body does not decode as
    /// `expecting` gives `undecodableBody`.
    package func error<T: Decodable>(status: Int, body: Data, expecting: T.Type, decoder: JSONDecoder = PostgresRowCoding.decoder()) -> AppError? {
        if (200..<300).contains(status) {
            if body.isEmpty || T.self == JSONValue.self { return nil }
            return (try? decoder.decode(T.self, from: body)) == nil ? undecodableBody : nil
        }
        let json = try? JSONValue.parse(body)
        let codes = ["code", "error_code", "error"].compactMap { json?[$0]?.stringValue }
        for r in rules where (r.statusFrom...r.statusTo).contains(status) {
            if r.bodyCodes.isEmpty || r.bodyCodes.contains(where: codes.contains) { return r.error }
        }
        return nil
    }
}

public enum ShvilErrorCatalogConformance {
    /// Every `AppError` has an entry with a non-empty message in every language, no entry is
    /// unknown, retryable errors are handled at the service or view level and the backoff grows
    /// and is capped.
    package static func violations(of catalog: ErrorCatalog) -> [String] {
        var out: [String] = []
        for e in AppError.allCases {
            guard let entry = catalog.entries[e.id] else { out.append("\(e.id): no entry"); continue }
            for l in catalog.languages where (entry.messages[l] ?? "").trimmingCharacters(in: .whitespaces).isEmpty {
                out.append("\(e.id): no \(l) message")
            }
            if entry.boundary == .service && !entry.retryable { out.append("\(e.id): handled by the service boundary but not retryable") }
        }
        for id in catalog.entries.keys where AppError(id: id) == nil { out.append("\(id): not an AppError") }
        let s = catalog.retry.schedule
        if s.count != catalog.retry.maxRetries { out.append("retry: \(s.count) delays for maxRetries \(catalog.retry.maxRetries)") }
        for (a, b) in zip(s, s.dropFirst()) where b < a { out.append("retry: delays shrink (\(s))") }
        if let m = s.max(), m > catalog.retry.maxDelay { out.append("retry: delay \(m) above the cap") }
        return out
    }
}

/// An `AppError` named by its id (`network.offline`) in errors.json.
private struct AppErrorID: Decodable {
    var value: AppError
    init(from decoder: Decoder) throws {
        let s = try decoder.singleValueContainer().decode(String.self)
        guard let e = AppError(id: s) else { throw decoder.fail("'\(s)' is not an AppError (category.kind)") }
        value = e
    }
}

extension RetryPolicy: Decodable {
    enum CodingKeys: String, CodingKey { case maxRetries, initialDelay = "initialDelaySeconds", multiplier, maxDelay = "maxDelaySeconds" }
}

extension ErrorCatalog.Rule: Decodable {
    enum CodingKeys: String, CodingKey { case status, statusFrom, statusTo, bodyCodes, error }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let status = try c.decodeIfPresent(Int.self, forKey: .status)
        statusFrom = try status ?? c.decode(Int.self, forKey: .statusFrom)
        statusTo = try status ?? c.decode(Int.self, forKey: .statusTo)
        bodyCodes = try c.decodeIfPresent([String].self, forKey: .bodyCodes) ?? []
        error = try c.decode(AppErrorID.self, forKey: .error).value
    }
}

/// `categories` of errors.json: each kind becomes the entry of `category.kind`.
private struct Category: Decodable {
    var entries: [(id: String, entry: ErrorCatalog.Entry)] = []
    enum CodingKeys: String, CodingKey { case `case`, type, kinds }
    enum KindKeys: String, CodingKey { case `case`, recovery, boundary, message, retryable }
    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let category = try c.decode(String.self, forKey: .case)
        let before = decoder.contractState?.values["errors.ids"] as? Set<String> ?? []
        _ = try c.decode(String.self, forKey: .type)
        var kinds = try c.nestedUnkeyedContainer(forKey: .kinds)
        while !kinds.isAtEnd {
            let k = try kinds.nestedContainer(keyedBy: KindKeys.self)
            let id = "\(category).\(try k.decode(String.self, forKey: .case))"
            guard AppError(id: id) != nil else { throw k.fail(.case, "'\(id)' is not an AppError case") }
            guard !before.contains(id) && !entries.contains(where: { $0.id == id }) else { throw k.fail(.case, "duplicate '\(id)'") }
            let r = try k.decode(String.self, forKey: .recovery), b = try k.decode(String.self, forKey: .boundary)
            guard let recovery = RecoveryAction(rawValue: r) else { throw k.fail(.recovery, "unknown recovery '\(r)'") }
            guard let boundary = ErrorBoundary(rawValue: b) else { throw k.fail(.boundary, "unknown boundary '\(b)'") }
            let messages = try k.decode([String: String].self, forKey: .message)
            entries.append(
                (id, ErrorCatalog.Entry(recovery: recovery, boundary: boundary, retryable: try k.decode(Bool.self, forKey: .retryable), messages: messages)))
        }
        decoder.contractState?.values["errors.ids"] = before.union(entries.map(\.id))
    }
}

/// `mapping` of errors.json.
private struct Mapping: Decodable {
    var transport: [TransportFailure: AppError] = [:]
    var rules: [ErrorCatalog.Rule]
    var undecodableBody: AppError
    enum CodingKeys: String, CodingKey, CaseIterable { case decision, transport, rules, undecodableBody }
    init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        for (k, n) in try c.decode([String: SpecNode].self, forKey: .transport).sorted(by: { $0.key < $1.key }) {
            guard let f = TransportFailure(rawValue: k) else { throw n.fail("unknown transport failure '\(k)'") }
            transport[f] = try n.decode(AppErrorID.self).value
        }
        rules = try c.decode([ErrorCatalog.Rule].self, forKey: .rules)
        undecodableBody = try c.decode(AppErrorID.self, forKey: .undecodableBody).value
    }
}

/// `handling` of errors.json: words for people only.
private struct Handling: Decodable { var decision: String? }

extension ErrorCatalog: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case app, source, decisions, handling, session, languages, categories, retry, mapping }
    /// errors.json; an id that is not an `AppError` case is an error naming its path.
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        _ = try c.decodeIfPresent(Handling.self, forKey: .handling)
        session = try c.decode(SessionRefreshRule.self, forKey: .session)
        languages = try c.decode([String].self, forKey: .languages)
        entries = [:]
        for category in try c.decode([Category].self, forKey: .categories) {
            for (id, e) in category.entries { entries[id] = e }
        }
        retry = try c.decode(RetryPolicy.self, forKey: .retry)
        let m = try c.decode(Mapping.self, forKey: .mapping)
        (transport, rules, undecodableBody) = (m.transport, m.rules, m.undecodableBody)
    }
}
