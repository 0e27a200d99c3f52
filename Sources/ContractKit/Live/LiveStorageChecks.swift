import Foundation

/// The bucket rules of `Contracts/<app>/storage.json` checked on a live backend: each bucket's
/// settings as Storage reports them (`GET /storage/v1/bucket/{id}`: `public`, `file_size_limit`,
/// `allowed_mime_types`), and Storage enforcing them on uploads as the service role (policies
/// aside): an object of exactly `fileSizeLimit` bytes is stored, one byte more is refused with
/// 413, a type outside `allowedMimeTypes` is refused with 415. Storage answers HTTP 400 with the
/// semantic status in the body's `statusCode` (storage's `renderError`); either form counts.
/// Every probe object is removed again.
package enum LiveStorageChecks {
    /// The rule kind's name.
    package static let kind = "storage"

    /// One result per bucket and rule.
    package static func run(_ backend: LiveBackend) -> [CaseResult] {
        let app = backend.spec.app
        var out: [CaseResult] = []
        let folder = backend.spec.fixtures.personas.first?.id ?? "supacontracts"
        for bucket in backend.spec.buckets {
            guard let id = bucket["id"]?.stringValue else { continue }
            func result(_ rule: String, _ problem: String?) {
                out.append(CaseResult(app: app, kind: kind, name: "\(id) · \(rule)", passed: problem == nil, message: problem ?? ""))
            }
            let allowed = bucket["allowedMimeTypes"]?.arrayValue?.compactMap(\.stringValue)
            // The one storage.json decoder reads the limit, units included ("2MB"), as the mock does.
            let limit = (try? backend.spec.bucketConfigs())?.first { $0.id == id }?.fileSizeLimit
            // Settings.
            do {
                let r = try backend.endpoint.send(HTTPRequest(method: "GET", path: "/storage/v1/bucket/\(id)"), as: "service_role")
                if r.status != 200 {
                    result("bucket exists with storage.json's settings", "GET /storage/v1/bucket/\(id): HTTP \(r.status) \(r.text.prefix(200))")
                } else {
                    var diffs: [String] = []
                    let body = r.jsonBody ?? .null
                    let isPublic = bucket["public"]?.boolValue ?? false
                    if body["public"]?.boolValue != isPublic {
                        diffs.append("public: storage.json \(isPublic), backend \(body["public"].map { $0.serialized() } ?? "absent")")
                    }
                    let gotLimit = body["file_size_limit"]?.doubleValue.map { Int($0) }
                    if gotLimit != limit {
                        diffs.append("file_size_limit: storage.json \(limit.map(String.init) ?? "none"), backend \(gotLimit.map(String.init) ?? "none")")
                    }
                    let gotTypes = body["allowed_mime_types"]?.arrayValue?.compactMap(\.stringValue)
                    if Set(gotTypes ?? []) != Set(allowed ?? []) {
                        diffs.append("allowed_mime_types: storage.json \(allowed ?? []), backend \(gotTypes ?? [])")
                    }
                    result("bucket exists with storage.json's settings", diffs.isEmpty ? nil : diffs.joined(separator: "; "))
                }
            } catch { result("bucket exists with storage.json's settings", "\(error)") }

            let okType = allowed?.first(where: { !$0.contains("*") }) ?? "image/jpeg"
            func upload(_ size: Int, type: String) throws -> (status: Int, semantic: String, text: String) {
                let name = "\(folder)/supacontracts-probe-\(UUID().uuidString.lowercased()).\(type.split(separator: "/").last ?? "bin")"
                let r = try backend.endpoint.send(
                    HTTPRequest(
                        method: "POST", path: "/storage/v1/object/\(id)/\(name)",
                        headers: ["Content-Type": type, "x-upsert": "false"], body: Data(repeating: 0x5A, count: size)),
                    as: "service_role")
                if r.status == 200 {
                    _ = try? backend.endpoint.send(method: "DELETE", path: "/storage/v1/object/\(id)", json: ["prefixes": [.string(name)]], as: "service_role")
                }
                return (r.status, r.jsonBody?["statusCode"]?.stringValue ?? String(r.status), r.text)
            }
            if let limit {
                do {
                    let at = try upload(limit, type: okType)
                    result("an object of exactly fileSizeLimit (\(limit) bytes) is stored", at.status == 200 ? nil : "HTTP \(at.status) \(at.text.prefix(200))")
                    let over = try upload(limit + 1, type: okType)
                    result(
                        "an object of fileSizeLimit + 1 bytes is refused (413)",
                        over.semantic == "413"
                            ? nil : "expected 413 EntityTooLarge, got HTTP \(over.status) (statusCode \(over.semantic)) \(over.text.prefix(160))")
                } catch { result("fileSizeLimit enforced", "\(error)") }
            }
            if let allowed, !allowed.isEmpty {
                let outside = ["text/plain", "application/x-supacontracts-probe"].first { t in
                    !allowed.contains { $0 == t || $0 == "*/*" || ($0.hasSuffix("/*") && t.hasPrefix($0.dropLast())) }
                }
                if let outside {
                    do {
                        let r = try upload(16, type: outside)
                        result(
                            "a type outside allowedMimeTypes (\(outside)) is refused (415)",
                            r.semantic == "415" ? nil : "expected 415 InvalidMimeType, got HTTP \(r.status) (statusCode \(r.semantic)) \(r.text.prefix(160))")
                    } catch { result("allowedMimeTypes enforced", "\(error)") }
                }
            }
        }
        return out
    }
}
