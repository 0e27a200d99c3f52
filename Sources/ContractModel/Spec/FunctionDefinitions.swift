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
    /// Volatility.
    package var volatility: Volatility

    /// `public.search_cities`.
    package var qualifiedName: String { name.contains(".") ? name : "public.\(name)" }
    /// The schema the function lives in.
    package var schema: String { String(qualifiedName.split(separator: ".", maxSplits: 1)[0]) }

    /// `search_cities(search_term text) RETURNS SETOF cities SECURITY INVOKER STABLE`, for messages.
    package var summary: String {
        "\(name)(\(arguments.joined(separator: ", "))\(defaults > 0 ? "; \(defaults) with defaults" : "")) RETURNS \(returns) SECURITY \(security.rawValue.uppercased()) \(volatility.rawValue.uppercased())"
    }

    /// A function.
    package init(name: String, arguments: [String], defaults: Int = 0, returns: String, security: Security, volatility: Volatility) {
        self.name = name
        self.arguments = arguments
        self.defaults = defaults
        self.returns = returns
        self.security = security
        self.volatility = volatility
    }

    static func decode(_ node: SpecNode) throws -> FunctionDefinition {
        try node.object { o in
            let nameNode = try o.required("name")
            let name = try nameNode.string()
            guard name.range(of: #"^([a-z_][a-z0-9_]*\.)?[a-z_][a-z0-9_]*$"#, options: .regularExpression) != nil else {
                throw nameNode.fail("a function name is `name` or `schema.name` in lower case, not '\(name)'")
            }
            let argsNode = try o.required("arguments")
            let args = try argsNode.strings()
            for (i, a) in args.enumerated() where a.split(separator: " ").count < 2 {
                throw SpecNode(value: .string(a), file: node.file, path: "\(argsNode.path)[\(i)]").fail("an argument is 'name type', not '\(a)'")
            }
            let defaultsNode = o.optional("defaults")
            let defaults = try defaultsNode?.int() ?? 0
            if let defaultsNode, defaults < 0 || defaults > args.count {
                throw defaultsNode.fail("defaults counts trailing arguments with a default: 0 to \(args.count), not \(defaults)")
            }
            func oneOf<E: RawRepresentable & CaseIterable>(_ key: String, _: E.Type) throws -> E where E.RawValue == String {
                let n = try o.required(key)
                let s = try n.string()
                guard let v = E(rawValue: s) else {
                    throw n.fail("\(key) is \(E.allCases.map { "'\($0.rawValue)'" }.joined(separator: " or ")), not '\(s)'")
                }
                return v
            }
            _ = o.optional("doc")
            _ = o.optional("decision")
            return FunctionDefinition(
                name: name, arguments: args, defaults: defaults, returns: try o.required("returns").string(),
                security: try oneOf("security", Security.self), volatility: try oneOf("volatility", Volatility.self))
        }
    }
}
