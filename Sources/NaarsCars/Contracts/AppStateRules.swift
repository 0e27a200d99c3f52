import Foundation
import MockBinding

/// FR-035's `AuthState` and FR-039's navigation order.
package enum AuthState: String, Sendable, CaseIterable {
    case loading, unauthenticated, pendingApproval, authenticated
}

/// FR-035/FR-039 as data (`Contracts/naarscars/app-state.json`): the auth state a client's
/// `AppState` shows for each documented situation (loading, no profile, a persona's profile),
/// and the order navigation moves through them. A conformance check takes the implementation
/// under test.
package struct AppStateRules: Sendable {
    /// One documented situation.
    package struct Case: Sendable, Equatable {
        /// `isLoading`.
        package var loading: Bool
        /// The persona whose profile row (fixtures.json) is `currentUser`, nil for none.
        package var persona: String?
        /// The state FR-035 gives.
        package var state: AuthState
    }

    package var cases: [Case]
    /// FR-039: loading → login/signup → pending → main tabs.
    package var navigation: [AuthState]

    /// Reads app-state.json strictly.
    package static func load(folder: URL = ContractsLocator.app(NaarsCarsApp.name)) throws -> AppStateRules {
        try SpecNode.decode(AppStateRules.self, from: folder.appendingPathComponent("app-state.json"), displayName: "Contracts/naarscars/app-state.json")
    }

    /// The reference: FR-035's `authState` over `isLoading` and the profile row.
    package static func authState(isLoading: Bool, profile: [String: JSONValue]?) -> AuthState {
        if isLoading { return .loading }
        guard let profile else { return .unauthenticated }
        return profile["approved"] == .bool(true) ? .authenticated : .pendingApproval
    }

    /// Every case the implementation answers differently, with the persona's profile row from
    /// the fixtures; a persona without a profile row is a violation of the file.
    package func violations(_ authState: (_ isLoading: Bool, _ profile: [String: JSONValue]?) -> AuthState, spec: AppSpec) -> [String] {
        var out: [String] = []
        for c in cases {
            var profile: [String: JSONValue]?
            if let name = c.persona {
                guard let p = spec.fixtures.persona(name),
                    let row = spec.fixtures.rows("profiles").first(where: { $0["id"]?.stringValue == p.id })?.objectValue
                else {
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

extension AuthState: Decodable {
    package init(from decoder: Decoder) throws {
        let s = try decoder.singleValueContainer().decode(String.self)
        guard let v = AuthState(rawValue: s) else { throw decoder.fail("unknown state (\(AuthState.allCases.map(\.rawValue).joined(separator: ", ")))") }
        self = v
    }
}

extension AppStateRules.Case: Decodable {}

extension AppStateRules: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case app, source, decisions, cases, navigation }
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        cases = try c.decode([Case].self, forKey: .cases)
        navigation = try c.decode([AuthState].self, forKey: .navigation)
        if Set(navigation) != Set(AuthState.allCases) || navigation.count != AuthState.allCases.count {
            throw c.fail(.navigation, "must list every state once")
        }
    }
}
