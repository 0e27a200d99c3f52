import Foundation

/// A fault the mock injects into matching requests, to test client failure handling.
public struct InjectedFault: Sendable {
    /// Which requests (method and path prefix) it applies to; nil matches any.
    package var method: String?
    /// Path prefix, e.g. `/rest/v1/saved_cities`.
    package var pathPrefix: String
    /// What happens.
    package var kind: Kind
    /// How many matching requests it affects (nil: until cleared).
    package var remaining: Int?

    /// What a fault does.
    public enum Kind: Sendable {
        /// The transport fails (URLError.notConnectedToInternet through URLProtocol).
        case networkError
        /// The server answers with this response instead.
        case response(HTTPResponse)
    }

    public init(method: String? = nil, pathPrefix: String, kind: Kind, remaining: Int? = nil) {
        self.method = method
        self.pathPrefix = pathPrefix
        self.kind = kind
        self.remaining = remaining
    }
}

/// Thrown by `handle` when an injected network fault matches: transports turn it into a
/// connection failure.
public struct InjectedNetworkError: Error, Sendable {
    package init() {}
}
