import Foundation
import ContractKit

/// FR-040's user-facing errors. The messages live in `Contracts/naarscars/errors.json`
/// (`AppErrorCatalog`), not in code.
public enum AppError: Error, LocalizedError, Equatable, Sendable, CustomStringConvertible {
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
    public static let caseNames = ["networkUnavailable", "serverError", "invalidCredentials", "sessionExpired",
                                   "notAuthenticated", "invalidInviteCode", "notFound", "unauthorized", "unknown"]

    /// The case name (`notFound`).
    public var caseName: String {
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
    public var detail: String? {
        switch self {
        case .serverError(let s), .notFound(let s), .unknown(let s): return s
        default: return nil
        }
    }

    /// Builds a case from its name and detail (nil for an unknown name or a missing detail).
    public init?(caseName: String, detail: String?) {
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
    public func message(in catalog: AppErrorCatalog) -> String { catalog.message(for: self) }

    /// The message from the bundled catalog (errors.json).
    public var errorDescription: String? { message(in: AppErrorCatalog.bundled) }

    public var description: String { errorDescription ?? caseName }
}

/// What the client saw when a call failed: the transport outcome or an HTTP answer.
public struct ErrorObservation: Sendable, Equatable {
    /// True when the request never got an answer (no connection).
    public var offline: Bool
    /// HTTP status.
    public var status: Int?
    /// PostgREST `code` (SQLSTATE or PGRST…).
    public var code: String?
    /// GoTrue `error_code`.
    public var errorCode: String?
    /// The message (`message`, `msg`, `error_description` or `error`).
    public var message: String?

    /// An observation from its parts.
    public init(offline: Bool = false, status: Int? = nil, code: String? = nil, errorCode: String? = nil, message: String? = nil) {
        self.offline = offline
        self.status = status
        self.code = code
        self.errorCode = errorCode
        self.message = message
    }

    /// Reads an HTTP response in PostgREST, GoTrue or edge-function error shape.
    public init(response: HTTPResponse) {
        let body = response.jsonBody
        func str(_ k: String) -> String? { body?[k]?.stringValue ?? body?[k]?.intValue.map { String($0) } }
        self.init(status: response.status, code: str("code"), errorCode: str("error_code"),
                  message: str("message") ?? str("msg") ?? str("error_description") ?? str("error"))
    }
}

/// errors.json: FR-040's messages and the rules that map backend answers to `AppError`.
public struct AppErrorCatalog: Sendable {
    /// One mapping rule: every given condition must hold.
    public struct Rule: Sendable {
        /// `transport: offline`.
        public var offline: Bool?
        /// Exact status.
        public var status: Int?
        /// Lowest status (inclusive).
        public var minStatus: Int?
        /// PostgREST code.
        public var code: String?
        /// GoTrue error_code.
        public var errorCode: String?
        /// Case-insensitive substring of the message.
        public var messageContains: String?
        /// The resulting case.
        public var error: String
        /// Fixed detail for cases with one (else the observed message).
        public var detail: String?

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
    public var messages: [String: String]
    /// Cases that carry a detail string.
    public var withDetail: Set<String>
    /// Mapping rules in order.
    public var rules: [Rule]

    /// The catalog in `Contracts/naarscars/errors.json` (empty if it cannot be read; the gate
    /// test loads the file strictly and fails on any error).
    public static let bundled: AppErrorCatalog = (try? NaarsCarsContracts.load().errors) ?? AppErrorCatalog(messages: [:], withDetail: [], rules: [])

    /// The message of an error.
    public func message(for error: AppError) -> String {
        guard let t = messages[error.caseName] else { return error.caseName }
        return RuleError.fill(t, ["detail": error.detail ?? ""])
    }

    /// The error the first matching rule gives.
    public func map(_ o: ErrorObservation) -> AppError {
        for r in rules where r.matches(o) {
            let detail = r.detail ?? o.message ?? (o.status.map { "HTTP \($0)" } ?? "unknown error")
            if let e = AppError(caseName: r.error, detail: withDetail.contains(r.error) ? detail : nil) { return e }
        }
        return .unknown(o.message ?? "unknown error")
    }

    /// Decodes errors.json: every FR-040 case needs a message; rules name known cases.
    public static func decode(_ root: SpecNode) throws -> AppErrorCatalog {
        try root.object { o in
            _ = o.optional("app"); _ = o.optional("source"); _ = o.optional("decisions")
            var messages: [String: String] = [:]
            var withDetail: Set<String> = []
            let list = try o.required("appErrors")
            for e in try list.array() {
                try e.object { eo in
                    let n = try eo.required("case")
                    let name = try n.string()
                    guard AppError.caseNames.contains(name) else { throw n.fail("unknown AppError case '\(name)'") }
                    messages[name] = try eo.required("message").string()
                    if try eo.optional("detail")?.bool() == true { withDetail.insert(name) }
                    _ = eo.optional("source"); _ = eo.optional("decision")
                }
            }
            for c in AppError.caseNames where messages[c] == nil { throw list.fail("missing AppError case '\(c)' (FR-040)") }
            let rules = try o.required("mapping").array().map { r in
                try r.object { ro -> Rule in
                    let when = try ro.required("when")
                    let e = try ro.required("error")
                    guard AppError.caseNames.contains(try e.string()) else { throw e.fail("unknown AppError case '\(try e.string())'") }
                    return try when.object { w in
                        var rule = Rule(error: try e.string(), detail: try ro.optional("detail")?.string())
                        if let t = w.optional("transport") {
                            guard try t.string() == "offline" else { throw t.fail("expected \"offline\"") }
                            rule.offline = true
                        }
                        rule.status = try w.optional("status")?.int()
                        rule.minStatus = try w.optional("minStatus")?.int()
                        rule.code = try w.optional("code")?.string()
                        rule.errorCode = try w.optional("errorCode")?.string()
                        rule.messageContains = try w.optional("messageContains")?.string()
                        return rule
                    }
                }
            }
            return AppErrorCatalog(messages: messages, withDetail: withDetail, rules: rules)
        }
    }
}
