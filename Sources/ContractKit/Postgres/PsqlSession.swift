import Foundation
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One long-lived `psql` process: scripts go to its stdin, results come back on its stdout as
/// unaligned, tuples-only text. Each script ends with an `\echo` of an end marker, so a reply is
/// everything printed before it. Errors are read from psql's own variables (`:ERROR`,
/// `:SQLSTATE`, `:LAST_ERROR_MESSAGE`) rather than from stderr, so parsing never depends on how
/// stdout and stderr interleave.
///
/// Thread-safe: scripts run one at a time.
package final class PsqlSession: @unchecked Sendable {
    /// The end-of-reply marker line.
    static let endMarker = "@@supacontracts-end@@"
    /// The error line prefix: `@@supacontracts-error@@ SQLSTATE message`.
    static let errorMarker = "@@supacontracts-error@@"
    /// The success line prefix: `@@supacontracts-ok@@ ROW_COUNT`.
    static let okMarker = "@@supacontracts-ok@@"

    /// The session settings every psql this package starts passes in `PGOPTIONS`: notices off
    /// (`client_min_messages=warning`), and JIT compilation off. The catalog query and the
    /// policies' plans cost more than `jit_above_cost`, and LLVM then spends seconds compiling
    /// each of them (3-4 s per catalog read on a loaded 2-core machine, against 20 ms without);
    /// the answers are the same either way. A `set` only of this session: a team's server
    /// (`--database URL`) keeps its own configuration.
    package static let sessionOptions = "-c client_min_messages=warning -c jit=off"

    /// The psql lines that report the outcome of the statement just before them.
    package static let statusProbe = "\\if :ERROR\n\\echo \(errorMarker) :SQLSTATE :LAST_ERROR_MESSAGE\n\\else\n\\echo \(okMarker) :ROW_COUNT\n\\endif\n"

    private let process: Process
    private let input: Int32
    private let output: Int32
    private var buffer: [UInt8] = []
    private let lock = NSLock()
    private var closed = false
    package let database: String

    /// Starts `psql` connected to a database of a cluster (unix socket folder `host`).
    package convenience init(installation: PostgresInstallation, host: String, database: String, user: String = "postgres") throws {
        try self.init(installation: installation, connection: ["-h", host, "-U", user, "-d", database], database: database)
    }

    /// Starts `psql` connected by a libpq connection string or URL
    /// (`postgresql://postgres:postgres@127.0.0.1:54322/postgres`); `name` is how errors name it.
    package convenience init(installation: PostgresInstallation, connectionString: String, name: String) throws {
        try self.init(installation: installation, connection: ["-d", connectionString], database: name)
    }

    private init(installation: PostgresInstallation, connection: [String], database: String) throws {
        signal(SIGPIPE, SIG_IGN)
        self.database = database
        let p = Process()
        p.executableURL = installation.psql
        p.arguments = ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=0", "-P", "pager=off"] + connection
        var env = ProcessInfo.processInfo.environment
        env["PGTZ"] = "UTC"
        env["PGOPTIONS"] = PsqlSession.sessionOptions
        p.environment = env
        let inPipe = Pipe(), outPipe = Pipe()
        p.standardInput = inPipe
        p.standardOutput = outPipe
        p.standardError = FileHandle.nullDevice
        try p.run()
        process = p
        input = inPipe.fileHandleForWriting.fileDescriptor
        output = outPipe.fileHandleForReading.fileDescriptor
        // Keep the pipe objects' descriptors alive for the session's lifetime.
        pipes = (inPipe, outPipe)
        let hello = try run("select 'ready';")
        guard hello == ["ready"] else { throw PostgresUnavailable("psql could not connect to \(database): \(hello)") }
    }

    private var pipes: (Pipe, Pipe)?

    deinit { close() }

    /// Ends the psql process.
    package func close() {
        lock.lock(); defer { lock.unlock() }
        if closed { return }
        closed = true
        if let (i, _) = pipes { try? i.fileHandleForWriting.close() }
        if process.isRunning { process.waitUntilExit() }
        pipes = nil
    }

    /// Sends a script and returns the lines it printed (the end marker excluded).
    package func run(_ script: String) throws -> [String] {
        lock.lock(); defer { lock.unlock() }
        guard !closed else { throw PostgresUnavailable("psql session to \(database) is closed") }
        var text = script
        if !text.hasSuffix("\n") { text += "\n" }
        text += "\\echo \(PsqlSession.endMarker)\n"
        try writeAll(Array(text.utf8))
        var lines: [String] = []
        while true {
            guard let line = try readLine() else {
                throw PostgresUnavailable("psql ended unexpectedly (database \(database)); output so far: \(lines.suffix(5))")
            }
            if line == PsqlSession.endMarker { return lines }
            lines.append(line)
        }
    }

    /// Sends many scripts at once and returns each one's lines (what `run` would return for it),
    /// in order. psql executes its stdin one script after another exactly as if they came one by
    /// one, so every script keeps its own statements, transaction and outcome; what changes is
    /// that nobody waits for a reply before sending the next script (a pipeline: one stream of
    /// scripts in, one stream of replies out, instead of a round trip each). A writer thread
    /// feeds stdin while this thread reads, so neither side blocks on a full pipe.
    package func runPipelined(_ scripts: [String]) throws -> [[String]] {
        if scripts.isEmpty { return [] }
        if scripts.count == 1 { return [try run(scripts[0])] }
        lock.lock(); defer { lock.unlock() }
        guard !closed else { throw PostgresUnavailable("psql session to \(database) is closed") }
        var text = ""
        for s in scripts {
            text += s
            if !s.hasSuffix("\n") { text += "\n" }
            text += "\\echo \(PsqlSession.endMarker)\n"
        }
        let bytes = Array(text.utf8)
        let writer = DispatchGroup()
        let failure = WriteFailure()
        writer.enter()
        DispatchQueue.global().async { [self] in
            defer { writer.leave() }
            do { try writeAll(bytes) } catch { failure.error = error }
        }
        defer { writer.wait() }
        var replies: [[String]] = []
        replies.reserveCapacity(scripts.count)
        var lines: [String] = []
        while replies.count < scripts.count {
            guard let line = try readLine() else {
                writer.wait()
                throw failure.error
                    ?? PostgresUnavailable(
                        "psql ended unexpectedly (database \(database)) after \(replies.count) of \(scripts.count) scripts; output so far: \(lines.suffix(5))")
            }
            if line == PsqlSession.endMarker { replies.append(lines); lines = [] } else { lines.append(line) }
        }
        return replies
    }

    /// The writer thread's error, read after it finished.
    private final class WriteFailure: @unchecked Sendable { var error: Error? }

    /// Runs one statement and returns its output (one line per row); a failure throws its
    /// `PostgresError` (SQLSTATE and message).
    package func query(_ sql: String) throws -> [String] {
        var s = sql.trimmingCharacters(in: .whitespacesAndNewlines)
        if !s.hasSuffix(";") { s += ";" }
        let lines = try run(s + "\n" + PsqlSession.statusProbe)
        let (rows, status) = PsqlSession.split(lines)
        if case .failure(let e) = status { throw e }
        return rows
    }

    /// Runs one statement returning a single JSON value (e.g. `select jsonb_agg(…)`).
    package func queryJSON(_ sql: String) throws -> JSONValue {
        let rows = try query(sql)
        guard let first = rows.first, rows.count == 1 else {
            throw PostgresUnavailable("expected one JSON line from: \(sql.prefix(200))… got \(rows.count) lines")
        }
        return first.isEmpty ? .null : try JSONValue.parse(first)
    }

    /// Splits a reply into the rows printed before the status probe's line and the status it
    /// reported (rows affected, or the error).
    package static func split(_ lines: [String]) -> (rows: [String], status: Result<Int, PostgresError>) {
        var rows: [String] = []
        var i = 0
        while i < lines.count {
            let l = lines[i]
            if l.hasPrefix(okMarker) {
                return (rows, .success(Int(l.dropFirst(okMarker.count + 1)) ?? 0))
            }
            if l.hasPrefix(errorMarker) {
                let rest = l.dropFirst(errorMarker.count + 1)
                let code = String(rest.prefix(5))
                var message = String(rest.dropFirst(6))
                // A multi-line message continues on the following lines.
                for more in lines[(i + 1)...] where !more.hasPrefix("@@supacontracts-") { message += "\n" + more }
                return (rows, .failure(PostgresError(code, message)))
            }
            rows.append(l)
            i += 1
        }
        return (rows, .failure(PostgresError("XX000", "no status line in psql reply: \(lines.suffix(3))")))
    }

    private func writeAll(_ bytes: [UInt8]) throws {
        var off = 0
        while off < bytes.count {
            let n = bytes[off...].withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw PostgresUnavailable("writing to psql failed (errno \(errno)); is the server still running?")
            }
            off += n
        }
    }

    private func readLine() throws -> String? {
        while true {
            if let nl = buffer[bufferStart...].firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[bufferStart..<nl], as: UTF8.self)
                bufferStart = nl + 1
                return line
            }
            // Drop what was consumed before reading more (a pipelined reply is megabytes of lines).
            if bufferStart > 0 { buffer.removeSubrange(..<bufferStart); bufferStart = 0 }
            let n = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw PostgresUnavailable("reading from psql failed (errno \(errno))")
            }
            if n == 0 { return nil }
            buffer.append(contentsOf: chunk[..<n])
        }
    }

    /// Where the unread part of `buffer` starts.
    private var bufferStart = 0
    /// The read buffer's chunk, reused.
    private var chunk = [UInt8](repeating: 0, count: 65536)
}

extension String {
    /// The string as a SQL literal (`'it''s'`), for standard_conforming_strings = on.
    var sqlLiteral: String { "'" + replacingOccurrences(of: "'", with: "''") + "'" }
    /// The string as a quoted SQL identifier (`"name"`).
    var sqlIdentifier: String { "\"" + replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
}
