import AppRegistry
import Foundation
import MockBinding
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

let serveSpec = CommandSpec(
    name: "serve",
    summary: """
        Serves an app's mock backend (PostgREST, GoTrue, Functions, Storage) over loopback HTTP/1.1 on
        127.0.0.1 until Ctrl-C (SIGINT) or SIGTERM. Prints SUPABASE_URL, SUPABASE_ANON_KEY and
        SUPABASE_SERVICE_ROLE_KEY as KEY=value lines, then the app's personas, functions and buckets.
        """,
    options: [
        .value("app", "NAME", required: true, "the app to serve (required; one of: \(appList); case-insensitive)"),
        .value("port", "P", "TCP port on 127.0.0.1 (default 54321; 0 = any free port, printed in SUPABASE_URL)"),
        .value("idle-timeout", "SECONDS", "close a keep-alive connection idle this long (default 60)"),
        .flag(
            "no-admin",
            "answer /__admin/reset and /__admin/inbox 404 as a real Supabase project does (to try verify --target's restore by differences, or a suite meant for a hosted project)"
        ),
        .value(
            "contracts", "DIR",
            "serve this contracts folder instead of the bundled one: a folder holding <app>/ (like Contracts/) or the app's folder itself (holding schema.json); the app's functions stay the bundled ones"
        )
    ],
    environment: commonEnvironment,
    exitStatus: [(0, "stopped by a signal"), (2, "usage error, contracts that do not load, or the port is in use")])

/// `contracts serve --app NAME [--port P] [--idle-timeout S]`: serves an app's mock backend over
/// loopback HTTP/1.1 until SIGINT or SIGTERM.
///
/// Prints the settings a client needs as `KEY=value` lines (URL, anon key, service-role key), then
/// the app's personas, edge functions, database functions and buckets. Exit status 0 after a
/// signal, 2 for bad options, contracts that do not load, or a port in use.
func runServe(_ args: [String]) -> Int32 {
    var status: Int32 = 0
    guard let options = parse(serveSpec, args, status: &status) else { return status }
    guard let name = options.value("app") else {
        return usageFail(serveSpec.usage("--app NAME is required (one of: \(appList))"))
    }
    guard let module = resolveApps([name], command: serveSpec)?.first else { return 2 }
    let portText = options.value("port") ?? "54321"
    guard let port = UInt16(portText) else { return usageFail(serveSpec.usage("--port '\(portText)' is not a port number (0-65535)")) }
    let idleText = options.value("idle-timeout") ?? "60"
    guard let idle = Double(idleText), idle > 0, idle.isFinite else {
        return usageFail(serveSpec.usage("--idle-timeout '\(idleText)' is not a positive number of seconds"))
    }
    // Every problem of the contracts, once, before serving anything: a missing policies.json
    // would otherwise serve every row to anyone.
    var folder = ContractsLocator.app(module.name)
    if let dir = options.value("contracts") {
        let url = URL(fileURLWithPath: dir)
        let own = url.appendingPathComponent(module.name)
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("schema.json").path) {
            folder = url
        } else if FileManager.default.fileExists(atPath: own.appendingPathComponent("schema.json").path) {
            folder = own
        } else {
            return usageFail(serveSpec.usage("--contracts \(dir): neither \(dir)/schema.json nor \(dir)/\(module.name)/schema.json exists"))
        }
    }
    let problems = ContractFolderCheck.problems(module, folder: folder)
    if !problems.isEmpty {
        return fail("serve: the \(module.title) contracts do not load:\n" + problems.map { "  " + $0 }.joined(separator: "\n"))
    }

    let backend: MockSupabase
    do {
        guard let app = module as? any ContractApp.Type else { return fail("serve: \(module.title) has no mock backend") }
        backend = try app.makeBackend(folder: folder)
    } catch {
        return fail("serve: cannot load the \(module.title) contracts: \(error)")
    }
    if options.flags.contains("no-admin") { backend.adminRoutesEnabled = false }
    let server = HTTPServer(backend: backend, configuration: HTTPServer.Configuration(port: port, idleTimeout: idle))
    do {
        try server.start()
    } catch {
        return fail("serve: \(error)")
    }

    let spec = backend.configuration.spec
    var lines = [
        "contracts serve: \(module.title) (\(module.name)) mock on loopback HTTP/1.1; Ctrl-C stops it.",
        "SUPABASE_URL=\(server.url.absoluteString)",
        "SUPABASE_ANON_KEY=\(backend.anonKey)",
        "SUPABASE_SERVICE_ROLE_KEY=\(backend.serviceRoleKey)",
        "contracts: \(folder.path)"
    ]
    lines.append(
        backend.adminRoutesEnabled
            ? "admin (service role only): POST /__admin/reset (back to the fixtures), GET /__admin/inbox?email=ADDRESS (e-mails sent, newest first)"
            : "admin: none (--no-admin: /__admin routes answer 404, as on a real Supabase project)")
    for p in spec.fixtures.personas {
        lines.append("persona: \(p.name) <\(p.email)> password \(p.password) — \(p.label)")
    }
    lines.append("edge functions: " + (backend.functionNames.isEmpty ? "(none)" : backend.functionNames.joined(separator: ", ")))
    lines.append("database functions: " + (backend.rpcNames.isEmpty ? "(none)" : backend.rpcNames.joined(separator: ", ")))
    let buckets = spec.buckets.compactMap { $0["id"]?.stringValue }
    lines.append("storage buckets: " + (buckets.isEmpty ? "(none)" : buckets.joined(separator: ", ")))
    let c = server.configuration
    lines.append(
        "limits: request head 16 KiB (431), body 10 MiB (413), head within \(Int(c.headTimeout)) s and body within \(Int(c.bodyTimeout)) s (408), idle connections closed after \(idleText) s"
    )
    // Written unbuffered: a parent process reads these lines from a pipe while the server runs.
    FileHandle.standardOutput.write(Data((lines.joined(separator: "\n") + "\n").utf8))

    // Stop on SIGINT / SIGTERM: close the listener and every connection, then exit.
    var sources: [DispatchSourceSignal] = []
    for sig in [SIGINT, SIGTERM] {
        signal(sig, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: sig, queue: .main)
        source.setEventHandler {
            server.stop()
            let stats = server.statistics
            let summary =
                "contracts serve: stopped (\(stats.requestsHandled) requests on \(stats.connectionsAccepted) connections, \(stats.requestsRejected) rejected)\n"
            FileHandle.standardOutput.write(Data(summary.utf8))
            exit(0)
        }
        source.resume()
        sources.append(source)
    }
    withExtendedLifetime(sources) { dispatchMain() }
}
