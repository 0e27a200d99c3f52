import Foundation

/// A SQL function as schema.json's top-level `functions` states it, compared with PostgreSQL's
/// catalog (`pg_proc`) by the `postgres` rule kind: input arguments (names, types, how many
/// trailing ones have defaults), result as `pg_get_function_result` prints it, SECURITY DEFINER
/// or INVOKER, and volatility.
/// ```json
/// { "name": "search_cities", "arguments": ["search_term text"], "returns": "SETOF cities",
///   "security": "invoker", "volatility": "stable" }
/// { "name": "civicforge_private.set_updated_at", "arguments": [], "returns": "trigger",
///   "security": "invoker", "volatility": "volatile" }
/// ```
package struct FunctionDefinition: Sendable, Equatable {
    /// How the function runs with respect to its caller's rights.
    package enum Security: String, Sendable, Equatable, CaseIterable {
        /// `SECURITY DEFINER`: with its owner's rights (row-level security of the owner).
        case definer
        /// `SECURITY INVOKER` (PostgreSQL's default): with the caller's rights.
        case invoker
    }
    /// `pg_proc.provolatile`.
    package enum Volatility: String, Sendable, Equatable, CaseIterable {
        /// `IMMUTABLE` (`i`).
        case immutable
        /// `STABLE` (`s`).
        case stable
        /// `VOLATILE` (`v`, PostgreSQL's default).
        case volatile
    }

    /// The name, qualified when the function is not in `public` (`civicforge_private.can_see_post`).
    package var name: String
    /// Input arguments in order, each `name type` as `format_type` prints the type
    /// (`p_stop_ids uuid[]`, `limit_count integer`); `INOUT`/`VARIADIC` prefixed when so declared.
    package var arguments: [String]
    /// How many trailing input arguments have a default (`pronargdefaults`).
    package var defaults: Int
    /// `pg_get_function_result`: `SETOF cities`, `trigger`, `void`, `TABLE(a bigint, b bigint)`.
    package var returns: String
    /// Definer or invoker.
    package var security: Security
    package var volatility: Volatility

    /// `public.search_cities`.
    package var qualifiedName: String { name.contains(".") ? name : "public.\(name)" }
    /// The schema the function lives in.
    package var schema: String { String(qualifiedName.split(separator: ".", maxSplits: 1)[0]) }

    /// `search_cities(search_term text) RETURNS SETOF cities SECURITY INVOKER STABLE`, for messages.
    package var summary: String {
        "\(name)(\(arguments.joined(separator: ", "))\(defaults > 0 ? "; \(defaults) with defaults" : "")) RETURNS \(returns) SECURITY \(security.rawValue.uppercased()) \(volatility.rawValue.uppercased())"
    }

    package init(name: String, arguments: [String], defaults: Int = 0, returns: String, security: Security, volatility: Volatility) {
        self.name = name
        self.arguments = arguments
        self.defaults = defaults
        self.returns = returns
        self.security = security
        self.volatility = volatility
    }
}

extension FunctionDefinition: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable { case name, arguments, defaults, returns, security, volatility, doc, decision }

    /// One function of schema.json's `functions`, checked: a lower-case (qualified) name,
    /// `name type` arguments, `defaults` within the arguments, known security and volatility.
    package init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        guard name.range(of: #"^([a-z_][a-z0-9_]*\.)?[a-z_][a-z0-9_]*$"#, options: .regularExpression) != nil else {
            throw c.fail(.name, "a function name is `name` or `schema.name` in lower case, not '\(name)'")
        }
        arguments = try c.decode([String].self, forKey: .arguments)
        for (i, a) in arguments.enumerated() where a.split(separator: " ").count < 2 {
            throw c.fail([CodingKeys.arguments, AnyKey(intValue: i)!], "an argument is 'name type', not '\(a)'")
        }
        defaults = try c.decodeIfPresent(Int.self, forKey: .defaults) ?? 0
        guard (0...arguments.count).contains(defaults) else {
            throw c.fail(.defaults, "defaults counts trailing arguments with a default: 0 to \(arguments.count), not \(defaults)")
        }
        func oneOf<E: RawRepresentable & CaseIterable>(_ key: CodingKeys, _: E.Type) throws -> E where E.RawValue == String {
            let s = try c.decode(String.self, forKey: key)
            guard let v = E(rawValue: s) else {
                throw c.fail(key, "\(key.stringValue) is \(E.allCases.map { "'\($0.rawValue)'" }.joined(separator: " or ")), not '\(s)'")
            }
            return v
        }
        returns = try c.decode(String.self, forKey: .returns)
        security = try oneOf(.security, Security.self)
        volatility = try oneOf(.volatility, Volatility.self)
    }
}
