import Foundation
import ContractKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `contracts serve --app NAME [--port P] [--idle-timeout S]`: serves an app's mock backend over
/// loopback HTTP/1.1 until SIGINT or SIGTERM.
///
/// Prints the settings a client needs as `KEY=value` lines (URL, anon key, service-role key), then
/// the app's personas, edge functions, database functions and buckets. Exit status 0 after a
/// signal, 2 for bad options or a port in use.
func runServe(_ args: [String]) -> Int32 {
    let options = Options(args)
    let serveUsage = "usage: contracts serve --app NAME [--port P (default 54321; 0 = any free port)] [--idle-timeout SECONDS (default 60)]"
    guard let name = options.values["app"] else {
        return fail("serve: --app is required (one of: \(allApps.map { $0.name }.joined(separator: ", ")))\n\(serveUsage)")
    }
    guard let module = app(named: name) else {
        return fail("serve: unknown app '\(name)' (one of: \(allApps.map { $0.name }.joined(separator: ", ")))")
    }
    let portText = options.values["port"] ?? "54321"
    guard let port = UInt16(portText) else { return fail("serve: --port '\(portText)' is not a port number (0-65535)\n\(serveUsage)") }
    let idleText = options.values["idle-timeout"] ?? "60"
    guard let idle = Double(idleText), idle > 0, idle.isFinite else {
        return fail("serve: --idle-timeout '\(idleText)' is not a positive number of seconds\n\(serveUsage)")
    }
    let unknown = Set(options.values.keys).union(options.flags).subtracting(["app", "port", "idle-timeout"])
    if !unknown.isEmpty || !options.positional.isEmpty {
        return fail("serve: unknown argument(s) \((unknown.sorted().map { "--" + $0 } + options.positional).joined(separator: " "))\n\(serveUsage)")
    }

    let backend: MockSupabase
    do {
        backend = try module.makeBackend()
    } catch {
        return fail("serve: cannot load the \(module.title) contracts: \(error)")
    }
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
    ]
    for p in spec.fixtures.personas {
        lines.append("persona: \(p.name) <\(p.email)> password \(p.password) — \(p.label)")
    }
    lines.append("edge functions: " + (backend.functionNames.isEmpty ? "(none)" : backend.functionNames.joined(separator: ", ")))
    lines.append("database functions: " + (backend.rpcNames.isEmpty ? "(none)" : backend.rpcNames.joined(separator: ", ")))
    let buckets = spec.buckets.compactMap { $0["id"]?.stringValue }
    lines.append("storage buckets: " + (buckets.isEmpty ? "(none)" : buckets.joined(separator: ", ")))
    let c = server.configuration
    lines.append("limits: request head 16 KiB (431), body 10 MiB (413), head within \(Int(c.headTimeout)) s and body within \(Int(c.bodyTimeout)) s (408), idle connections closed after \(idleText) s")
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
            let summary = "contracts serve: stopped (\(stats.requestsHandled) requests on \(stats.connectionsAccepted) connections, \(stats.requestsRejected) rejected)\n"
            FileHandle.standardOutput.write(Data(summary.utf8))
            exit(0)
        }
        source.resume()
        sources.append(source)
    }
    withExtendedLifetime(sources) { dispatchMain() }
}
