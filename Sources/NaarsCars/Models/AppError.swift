import Foundation
import MockBinding

/// FR-040's user-facing errors. The messages live in `Contracts/naarscars/errors.json`
/// (`AppErrorCatalog`), not in code.
package enum AppError: Error, LocalizedError, Equatable, Sendable, CustomStringConvertible {
    /// No connection (FR-040).
    case networkUnavailable
    /// The server failed (5xx); the detail is its message.
    case serverError(String)
    /// Wrong email or password (FR-040).
    case invalidCredentials
    /// The access token expired.
    case sessionExpired
    /// No valid session.
    case notAuthenticated
    /// The invite code is unknown or used.
    case invalidInviteCode
    /// Something (the detail) does not exist or is not visible.
    case notFound(String)
    /// RLS, a trigger or a function refused the caller.
    case unauthorized
    /// Anything else; the detail is the backend's message.
    case unknown(String)

    /// The case names FR-040 lists, in its order.
    package static let caseNames = [
        "networkUnavailable", "serverError", "invalidCredentials", "sessionExpired",
        "notAuthenticated", "invalidInviteCode", "notFound", "unauthorized", "unknown"
    ]

    /// The case name (`notFound`).
    package var caseName: String {
        switch self {
        case .networkUnavailable: return "networkUnavailable"
        case .serverError: return "serverError"
        case .invalidCredentials: return "invalidCredentials"
        case .sessionExpired: return "sessionExpired"
        case .notAuthenticated: return "notAuthenticated"
        case .invalidInviteCode: return "invalidInviteCode"
        case .notFound: return "notFound"
        case .unauthorized: return "unauthorized"
        case .unknown: return "unknown"
        }
    }

    /// The associated string, for the cases that carry one.
    package var detail: String? {
        switch self {
        case .serverError(let s), .notFound(let s), .unknown(let s): return s
        default: return nil
        }
    }

    /// Builds a case from its name and detail (nil for an unknown name or a missing detail).
    package init?(caseName: String, detail: String?) {
        switch caseName {
        case "networkUnavailable": self = .networkUnavailable
        case "invalidCredentials": self = .invalidCredentials
        case "sessionExpired": self = .sessionExpired
        case "notAuthenticated": self = .notAuthenticated
        case "invalidInviteCode": self = .invalidInviteCode
        case "unauthorized": self = .unauthorized
        case "serverError": guard let detail else { return nil }; self = .serverError(detail)
        case "notFound": guard let detail else { return nil }; self = .notFound(detail)
        case "unknown": guard let detail else { return nil }; self = .unknown(detail)
        default: return nil
        }
    }

    /// The user-friendly message from the catalog.
    package func message(in catalog: AppErrorCatalog) -> String { catalog.message(for: self) }

    /// The message from the bundled catalog (errors.json).
    package var errorDescription: String? { message(in: AppErrorCatalog.bundled) }

    package var description: String { errorDescription ?? caseName }
}

/// What the client saw when a call failed: the transport outcome or an HTTP answer.
package struct ErrorObservation: Sendable, Equatable {
    /// True when the request never got an answer (no connection).
    package var offline: Bool
    /// HTTP status.
    package var status: Int?
    /// PostgREST `code` (SQLSTATE or PGRST…).
    package var code: String?
    /// GoTrue `error_code`.
    package var errorCode: String?
    /// The message (`message`, `msg`, `error_description` or `error`).
    package var message: String?

    /// An observation from its parts.
    package init(offline: Bool = false, status: Int? = nil, code: String? = nil, errorCode: String? = nil, message: String? = nil) {
        self.offline = offline
        self.status = status
        self.code = code
        self.errorCode = errorCode
        self.message = message
    }

    /// Reads an HTTP response in PostgREST, GoTrue or edge-function error shape.
    package init(response: HTTPResponse) {
        let body = response.jsonBody
        func str(_ k: String) -> String? { body?[k]?.stringValue ?? body?[k]?.intValue.map { String($0) } }
        self.init(
            status: response.status, code: str("code"), errorCode: str("error_code"),
            message: str("message") ?? str("msg") ?? str("error_description") ?? str("error"))
    }
}

/// errors.json: FR-040's messages and the rules that map backend answers to `AppError`.
package struct AppErrorCatalog: Sendable {
    /// One mapping rule: every given condition must hold.
    package struct Rule: Sendable {
        /// `transport: offline`.
        package var offline: Bool?
        /// Exact status.
        package var status: Int?
        /// Lowest status (inclusive).
        package var minStatus: Int?
        /// PostgREST code.
        package var code: String?
        /// GoTrue error_code.
        package var errorCode: String?
        /// Case-insensitive substring of the message.
        package var messageContains: String?
        /// The resulting case.
        package var error: String
        /// Fixed detail for cases with one (else the observed message).
        package var detail: String?

        func matches(_ o: ErrorObservation) -> Bool {
            if let offline, offline != o.offline { return false }
            if let status, o.status != status { return false }
            if let minStatus, (o.status ?? 0) < minStatus { return false }
            if let code, o.code != code { return false }
            if let errorCode, o.errorCode != errorCode { return false }
            if let m = messageContains, !(o.message ?? "").lowercased().contains(m.lowercased()) { return false }
            return true
        }
    }

    /// Message template per case name (`{detail}` placeholder).
    package var messages: [String: String]
    /// Cases that carry a detail string.
    package var withDetail: Set<String>
    /// Mapping rules in order.
    package var rules: [Rule]

    /// The catalog in `Contracts/naarscars/errors.json` (empty if it cannot be read; the gate
    /// test loads the file strictly and fails on any error).
    package static let bundled: AppErrorCatalog = (try? NaarsCarsContracts.load().errors) ?? AppErrorCatalog(messages: [:], withDetail: [], rules: [])

    package func message(for error: AppError) -> String {
        guard let t = messages[error.caseName] else { return error.caseName }
        return RuleError.fill(t, ["detail": error.detail ?? ""])
    }

    /// The error the first matching rule gives.
    package func map(_ o: ErrorObservation) -> AppError {
        for r in rules where r.matches(o) {
            let detail = r.detail ?? o.message ?? (o.status.map { "HTTP \($0)" } ?? "unknown error")
            if let e = AppError(caseName: r.error, detail: withDetail.contains(r.error) ? detail : nil) { return e }
        }
        return .unknown(o.message ?? "unknown error")
    }
}

/// An `AppError` case named in errors.json.
private struct CaseName: Decodable {
    var value: String
    init(from decoder: Decoder) throws {
        value = try decoder.singleValueContainer().decode(String.self)
        guard AppError.caseNames.contains(value) else { throw decoder.fail("unknown AppError case '\(value)'") }
    }
}

/// One entry of `appErrors`.
private struct ErrorMessage: Decodable {
    var `case`: CaseName, message: String, detail: Bool?, source: String?, decision: String?
}

/// The `when` of a mapping rule.
private struct When: Decodable {
    var transport: String?, status: Int?, minStatus: Int?, code: String?, errorCode: String?, messageContains: String?
}

extension AppErrorCatalog.Rule: Decodable {
    enum CodingKeys: String, CodingKey { case when, error, detail }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let whenNode = try c.decode(SpecNode.self, forKey: .when)
        self.init(error: try c.decode(CaseName.self, forKey: .error).value, detail: try c.decodeIfPresent(String.self, forKey: .detail))
        let w = try whenNode.decode(When.self)
        if let t = w.transport {
            guard t == "offline" else { throw c.fail([CodingKeys.when, AnyKey("transport")], "expected \"offline\"") }
            offline = true
        }
        (status, minStatus, code, errorCode, messageContains) = (w.status, w.minStatus, w.code, w.errorCode, w.messageContains)
    }
}

extension AppErrorCatalog: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case app, source, decisions, appErrors, mapping }
    /// errors.json: every FR-040 case needs a message; rules name known cases.
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let list = try c.decode([ErrorMessage].self, forKey: .appErrors)
        var messages: [String: String] = [:]
        for m in list { messages[m.case.value] = m.message }
        for name in AppError.caseNames where messages[name] == nil { throw c.fail(.appErrors, "missing AppError case '\(name)' (FR-040)") }
        self.init(
            messages: messages, withDetail: Set(list.filter { $0.detail == true }.map(\.case.value)),
            rules: try c.decode([Rule].self, forKey: .mapping))
    }
}
