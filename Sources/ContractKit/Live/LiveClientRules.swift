import Foundation

/// The part of `client-rules.json` that talks to a backend, checked on a live one: what the
/// app's cache-then-network loader fetches (`loader.resources`: each request, as its persona,
/// must answer what the contracts' mock answers from the fixtures — generated ids and
/// timestamps matched by shape) and the optimistic save/unsave (`optimistic.resource`: the
/// persona inserts a row naming an item it has not saved and deletes one it has, as the app's
/// service sends them, each answered 2xx and visible or gone afterwards). The rest of the file —
/// cache TTLs and stores, rate limits, realtime limits, timeouts, images — checks client
/// components against faults injected into the in-process mock: not a backend's behaviour.
package enum LiveClientRules {
    /// The rule kind's name (the same as the in-process suite's).
    package static let kind = "client-rules"

    /// Why the rest of the file does not run over a URL.
    package static let clientSideReason =
        "cache stores and TTLs, rate limits, realtime limits, timeouts and image presets check client components with faults and a clock injected into the in-process mock; no backend takes part"

    /// Whether an app's rules have anything that talks to a backend.
    package static func applies(_ rules: ClientRules?) -> Bool {
        !(rules?.loader?.resources.isEmpty ?? true) || rules?.optimistic != nil
    }

    /// One result per loader resource and optimistic step. `reference` answers a request as the
    /// contracts do (the app's mock with its fixtures, in process).
    package static func run(_ backend: LiveBackend, rules: ClientRules, reference: any BackendUnderTest) -> [CaseResult] {
        let app = backend.spec.app
        var out: [CaseResult] = []
        let shapes = GeneratedValueShapes(fixtures: backend.spec.fixtures)
        func persona(_ name: String) -> Persona? { backend.spec.fixtures.personas.first { $0.name == name } }
        func referenceAnswer(_ path: String, _ query: String, as name: String) throws -> HTTPResponse {
            guard let p = persona(name) else { throw LiveBackendError("client-rules.json names persona '\(name)', which fixtures.json lacks") }
            let items = query.split(separator: "&").map { kv -> (String, String) in
                let parts = kv.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
                return (parts[0], parts.count > 1 ? parts[1] : "")
            }
            return try InProcessSender(backend: reference).send(WireRequest(method: "GET", path: path, query: .items(items), actor: .persona(p.name)))
        }
        for r in rules.loader?.resources ?? [] {
            let name = "\(r.id) · GET \(r.path)?\(r.query) as \(r.persona) answers as the contracts do"
            do {
                let live = try backend.endpoint.send(method: "GET", path: r.path, query: r.query, as: r.persona)
                let want = try referenceAnswer(r.path, r.query, as: r.persona)
                var problems: [String] = []
                if live.status != want.status {
                    problems.append("HTTP \(live.status), the contracts answer \(want.status): \(live.text.prefix(200))")
                } else if let a = live.jsonBody, let e = want.jsonBody {
                    problems += JSONMatch.differences(expected: shapes.relax(e), actual: a).prefix(5)
                } else if live.jsonBody == nil {
                    problems.append("not JSON: \(live.text.prefix(200))")
                }
                out.append(CaseResult(app: app, kind: kind, name: name, passed: problems.isEmpty, message: problems.joined(separator: "\n")))
            } catch {
                out.append(CaseResult(app: app, kind: kind, name: name, passed: false, message: "\(error)"))
            }
        }
        if let o = rules.optimistic?.resource {
            out += optimistic(backend, o)
        }
        return out
    }

    /// The optimistic resource's two writes, as its persona: save an item not saved yet, unsave
    /// one saved (both taken from the fixtures), each followed by a read of the persona's list.
    static func optimistic(_ backend: LiveBackend, _ o: OptimisticResource) -> [CaseResult] {
        let app = backend.spec.app
        var out: [CaseResult] = []
        func result(_ step: String, _ problem: String?) {
            out.append(CaseResult(app: app, kind: kind, name: "\(o.id) · \(step) as \(o.persona)", passed: problem == nil, message: problem ?? ""))
        }
        guard let p = backend.spec.fixtures.personas.first(where: { $0.name == o.persona }) else {
            result("persona", "client-rules.json names persona '\(o.persona)', which fixtures.json lacks"); return out
        }
        let rows = backend.spec.fixtures.tables.first { $0.0 == o.table }?.1.compactMap(\.objectValue) ?? []
        let mine = rows.filter { $0[o.ownerColumn]?.stringValue == p.id }
        let saved = Set(mine.compactMap { $0[o.itemColumn]?.stringValue })
        // The items are the rows of the table the item column refers to.
        let itemTable = backend.spec.schema.table(o.table)?.foreignKeys.first { $0.columns == [o.itemColumn] }?.refTable
        let items = itemTable.flatMap { t in backend.spec.fixtures.tables.first { $0.0 == t || "public." + $0.0 == t }?.1 } ?? []
        let fresh = items.compactMap { $0["id"]?.stringValue }.first { !saved.contains($0) }
        func list() throws -> Set<String> {
            let r = try backend.endpoint.send(
                method: "GET", path: "/rest/v1/\(o.table)", query: "select=\(o.itemColumn)&\(o.ownerColumn)=eq.\(p.id)", as: o.persona)
            return Set(r.jsonBody?.arrayValue?.compactMap { $0[o.itemColumn]?.stringValue } ?? [])
        }
        do {
            defer { try? backend.restore() }
            if let fresh {
                let r = try backend.endpoint.send(
                    method: "POST", path: "/rest/v1/\(o.table)",
                    json: [o.ownerColumn: .string(p.id), o.itemColumn: .string(fresh)], as: o.persona)
                let now = try list()
                result(
                    "save \(fresh)",
                    r.status == 201 && now.contains(fresh)
                        ? nil : "POST /rest/v1/\(o.table): HTTP \(r.status) \(r.text.prefix(200)); saved afterwards: \(now.contains(fresh))")
            } else {
                result("save", "the fixtures leave no item the persona has not saved")
            }
            if let old = saved.sorted().first {
                let r = try backend.endpoint.send(
                    method: "DELETE", path: "/rest/v1/\(o.table)", query: "\(o.ownerColumn)=eq.\(p.id)&\(o.itemColumn)=eq.\(old)", as: o.persona)
                let now = try list()
                result(
                    "unsave \(old)",
                    (200...299).contains(r.status) && !now.contains(old)
                        ? nil : "DELETE /rest/v1/\(o.table): HTTP \(r.status) \(r.text.prefix(200)); still saved afterwards: \(now.contains(old))")
            } else {
                result("unsave", "the fixtures give the persona no saved item")
            }
        } catch {
            result("save and unsave", "\(error)")
        }
        return out
    }
}
