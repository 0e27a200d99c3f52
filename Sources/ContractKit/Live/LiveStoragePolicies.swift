import Foundation

/// The policies of `storage.json`'s buckets (who may upload where — folder ownership, approval
/// checks — and who may read what) checked on a live backend, differentially: every persona
/// uploads a small probe object into its own folder and into another persona's folder, and every
/// persona (and the anon key) then reads each probe both stored; each answer's status (the
/// semantic one Storage puts in the body's `statusCode`, else the HTTP status) must equal the
/// answer of the contracts' own mock, in process, with the fixtures, to the same request.
/// Probes are deleted from both with the service role.
package enum LiveStoragePolicies {
    /// The semantic status of a Storage answer: the body's `statusCode` (Storage answers many
    /// errors HTTP 400 with the real status there: storage's `renderError`), else the HTTP status.
    static func code(_ r: HTTPResponse) -> String { r.jsonBody?["statusCode"]?.stringValue ?? String(r.status) }

    /// One result per bucket, upload and read.
    package static func run(_ backend: LiveBackend, reference: any BackendUnderTest) -> [CaseResult] {
        let app = backend.spec.app
        let personas = backend.spec.fixtures.personas
        var out: [CaseResult] = []
        func ref(_ method: String, _ path: String, _ headers: HTTPHeaders, _ body: Data, as actor: Persona?) throws -> HTTPResponse {
            try InProcessSender(backend: reference).send(
                WireRequest(
                    method: method, path: path, headers: headers, body: body,
                    actor: actor.map { .persona($0.name) } ?? .anon))
        }
        for bucket in backend.spec.buckets {
            guard let id = bucket["id"]?.stringValue, bucket["policies"] != nil else { continue }
            let type = bucket["allowedMimeTypes"]?.arrayValue?.compactMap(\.stringValue).first { !$0.contains("*") } ?? "image/jpeg"
            let ext = type.split(separator: "/").last.map(String.init) ?? "bin"
            var stored: [(name: String, uploader: Persona)] = [], strays: [JSONValue] = []
            for (i, uploader) in personas.enumerated() {
                let other = personas[(i + 1) % max(personas.count, 1)]
                for owner in [uploader, other] where personas.count > 0 {
                    let name = "\(owner.id)/supacontracts-probe-\(UUID().uuidString.lowercased()).\(ext)"
                    let whose = owner.name == uploader.name ? "its own folder" : "\(owner.name)'s folder"
                    let rule = "\(id) · upload into \(whose) as \(uploader.name)"
                    do {
                        let path = "/storage/v1/object/\(id)/\(name)", body = Data(repeating: 0xFF, count: 16)
                        let live = try backend.endpoint.send(
                            HTTPRequest(method: "POST", path: path, headers: ["Content-Type": type], body: body), as: uploader.name)
                        let want = try ref("POST", path, ["Content-Type": type], body, as: uploader)
                        // Reads are compared for probes both sides stored (a probe the contracts
                        // refused fails its upload case; its reads would only repeat that).
                        if live.status == 200 && want.status == 200 { stored.append((name, uploader)) }
                        if live.status == 200 && want.status != 200 { strays.append(JSONValue.string(name)) }
                        out.append(
                            CaseResult(
                                app: app, kind: LiveStorageChecks.kind, name: rule, passed: code(live) == code(want),
                                message: code(live) == code(want)
                                    ? "" : "the backend answers \(code(live)) (HTTP \(live.status) \(live.text.prefix(160))), the contracts \(code(want))"))
                    } catch {
                        out.append(CaseResult(app: app, kind: LiveStorageChecks.kind, name: rule, passed: false, message: "\(error)"))
                    }
                }
            }
            for (name, uploader) in stored {
                let path = "/storage/v1/object/authenticated/\(id)/\(name)"
                for reader in personas.map(Optional.some) + [nil] {
                    let rule =
                        "\(id) · read \(uploader.name)'s \(name.hasPrefix(uploader.id) ? "own-folder" : "other-folder") probe as \(reader?.name ?? "anon")"
                    do {
                        let live = try backend.endpoint.send(HTTPRequest(method: "GET", path: path), as: reader?.name ?? "anon")
                        let want = try ref("GET", path, [:], Data(), as: reader)
                        out.append(
                            CaseResult(
                                app: app, kind: LiveStorageChecks.kind, name: rule, passed: code(live) == code(want),
                                message: code(live) == code(want) ? "" : "the backend answers \(code(live)) (HTTP \(live.status)), the contracts \(code(want))")
                        )
                    } catch {
                        out.append(CaseResult(app: app, kind: LiveStorageChecks.kind, name: rule, passed: false, message: "\(error)"))
                    }
                }
            }
            let probes = stored.map { JSONValue.string($0.name) } + strays
            if !probes.isEmpty {
                _ = try? backend.endpoint.send(method: "DELETE", path: "/storage/v1/object/\(id)", json: ["prefixes": .array(probes)], as: "service_role")
            }
        }
        return out
    }
}
