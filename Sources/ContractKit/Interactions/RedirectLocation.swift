import Foundation

/// A redirect's `Location` split for captures: `$.location.url` (without query and fragment),
/// `$.location.query.NAME` and `$.location.fragment.NAME` (form-decoded, `+` as a space), so a
/// step can capture the `code` GoTrue puts on `redirect_to?code=…` or the `access_token` of
/// `#access_token=…`.
enum RedirectLocation {
    /// A capture: a JSONPath, optionally followed by `?NAME`, which reads the string found there
    /// as a URL and takes its query item NAME (`$.body.signedURL?token`).
    static func capture(_ path: String, in root: JSONValue) throws -> JSONValue? {
        guard let q = path.firstIndex(of: "?") else { return try JSONPath.value(at: path, in: root) }
        let item = String(path[path.index(after: q)...])
        guard let url = try JSONPath.value(at: String(path[..<q]), in: root)?.stringValue else { return nil }
        return parse(url)["query"]?[item]
    }

    static func parse(_ location: String) -> JSONValue {
        func items(_ s: Substring) -> JSONValue {
            var o: [String: JSONValue] = [:]
            for part in s.split(separator: "&") where !part.isEmpty {
                let kv = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let dec = { (x: Substring) in HTTPRequest.percentDecoded(Substring(x.replacingOccurrences(of: "+", with: " "))) }
                let k = dec(kv[0])
                if o[k] == nil { o[k] = .string(kv.count > 1 ? dec(kv[1]) : "") }
            }
            return .object(o)
        }
        let hashSplit = location.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let qSplit = hashSplit[0].split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        return [
            "url": .string(String(qSplit[0])),
            "query": qSplit.count > 1 ? items(qSplit[1]) : [:],
            "fragment": hashSplit.count > 1 ? items(hashSplit[1]) : [:]
        ]
    }
}
