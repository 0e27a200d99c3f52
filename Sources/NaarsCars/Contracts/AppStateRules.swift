import Foundation
import ContractKit

/// FR-035's `AuthState` and FR-039's navigation order.
public enum AuthState: String, Sendable, CaseIterable {
    case loading, unauthenticated, pendingApproval, authenticated
}

/// FR-035/FR-039 as data (`Contracts/naarscars/app-state.json`): the auth state a client's
/// `AppState` shows for each documented situation (loading, no profile, a persona's profile),
/// and the order navigation moves through them. A conformance check takes the implementation
/// under test.
public struct AppStateRules: Sendable {
    /// One documented situation.
    public struct Case: Sendable, Equatable {
        /// `isLoading`.
        public var loading: Bool
        /// The persona whose profile row (fixtures.json) is `currentUser`, nil for none.
        public var persona: String?
        /// The state FR-035 gives.
        public var state: AuthState
    }

    /// The cases.
    public var cases: [Case]
    /// FR-039: loading → login/signup → pending → main tabs.
    public var navigation: [AuthState]

    /// Reads app-state.json strictly.
    public static func load(folder: URL = ContractsLocator.app(NaarsCarsApp.name)) throws -> AppStateRules {
        let root = try SpecNode.load(folder.appendingPathComponent("app-state.json"), displayName: "Contracts/naarscars/app-state.json")
        func state(_ n: SpecNode) throws -> AuthState {
            guard let s = AuthState(rawValue: try n.string()) else {
                throw n.fail("unknown state (\(AuthState.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            return s
        }
        return try root.object { o in
            _ = o.optional("app"); _ = o.optional("source"); _ = o.optional("decisions")
            let cases = try o.required("cases").array().map { c in
                try c.object { co in
                    _ = co.optional("doc")
                    return Case(loading: try co.required("loading").bool(), persona: try co.optional("persona")?.string(),
                                state: try state(try co.required("state")))
                }
            }
            let nav = try o.required("navigation").array().map(state)
            if Set(nav) != Set(AuthState.allCases) || nav.count != AuthState.allCases.count {
                throw try o.required("navigation").fail("must list every state once")
            }
            return AppStateRules(cases: cases, navigation: nav)
        }
    }

    /// The reference: FR-035's `authState` over `isLoading` and the profile row.
    public static func authState(isLoading: Bool, profile: [String: JSONValue]?) -> AuthState {
        if isLoading { return .loading }
        guard let profile else { return .unauthenticated }
        return profile["approved"] == .bool(true) ? .authenticated : .pendingApproval
    }

    /// Every case the implementation answers differently, with the persona's profile row from
    /// the fixtures; a persona without a profile row is a violation of the file.
    public func violations(_ authState: (_ isLoading: Bool, _ profile: [String: JSONValue]?) -> AuthState, spec: AppSpec) -> [String] {
        var out: [String] = []
        for c in cases {
            var profile: [String: JSONValue]?
            if let name = c.persona {
                guard let p = spec.fixtures.persona(name),
                      let row = spec.fixtures.rows("profiles").first(where: { $0["id"]?.stringValue == p.id })?.objectValue else {
                    out.append("persona '\(name)' has no profile row in fixtures.json")
                    continue
                }
                profile = row
            }
            let got = authState(c.loading, profile)
            if got != c.state {
                out.append("isLoading \(c.loading), \(c.persona.map { "\($0)'s profile" } ?? "no profile"): \(got.rawValue), FR-035 gives \(c.state.rawValue)")
            }
        }
        return out
    }
}
