import Foundation

/// Many RLS cases in one round trip to PostgreSQL: a session-local PL/pgSQL function
/// (`pg_temp.supacontracts_cases`) takes a batch of cases as one array of statements and runs
/// each case in a block with an exception handler, that is a subtransaction of its own: the setup steps as the
/// superuser, then the actor's role switch (`set local role`, `set local request.jwt.claims`,
/// the statements `RLSCaseSQL` renders, executed as they are), then the statement. Its outcome
/// (rows affected and the rows, or SQLSTATE and message) is kept in a variable, and the block
/// then raises, so everything the case did is undone, its `set local`s and role included
/// (PostgreSQL reverts a subtransaction's settings when it aborts), before the next case starts
/// from the fixture state. One line of JSON per case comes back, in case order, carrying its
/// index.
///
/// The same statements as one psql script per case (`PostgresTarget.rlsScript`), read into the
/// same outcome: SQLERRM is the primary message psql's `:LAST_ERROR_MESSAGE` holds, and
/// `GET DIAGNOSTICS … ROW_COUNT` the count of `:ROW_COUNT`. What differs: the cases of a batch
/// share one transaction's start time (`now()`), milliseconds apart instead of per case.
package enum PostgresCaseBatch {
    /// The function's definition, run (in the batch's own transaction, rolled back after) before
    /// each call. The cases come as one flat `text[]` (no escaping beyond SQL's own quotes): per
    /// case a header `r:S:A` (`r` when the statement returns rows, else `n`; S setup steps, A
    /// role-switch statements), the S steps, the A statements, then the statement. One
    /// `{"i": index, "n": count, "rows": …}` or `{"i": index, "code": SQLSTATE, "message": …}`
    /// comes back per case.
    package static let function = """
        create or replace function pg_temp.supacontracts_cases(cases text[]) returns setof jsonb language plpgsql as $supacontracts$
        declare
          k int := 1; i int := 0; last int := coalesce(array_length(cases, 1), 0);
          head text; setups int; acts int; s text; j jsonb; n bigint; outcome jsonb;
        begin
          while k <= last loop
            head := cases[k]; setups := split_part(head, ':', 2)::int; acts := split_part(head, ':', 3)::int;
            outcome := null;
            begin
              for m in k + 1 .. k + setups loop execute cases[m]; end loop;
              for m in k + setups + 1 .. k + setups + acts loop execute cases[m]; end loop;
              s := cases[k + setups + acts + 1];
              if split_part(head, ':', 1) = 'r' then execute s into j; else execute s; j := null; end if;
              get diagnostics n = row_count;
              outcome := jsonb_build_object('i', i, 'n', n, 'rows', j);
              raise sqlstate 'SCRB0' using message = 'undo the case';
            exception when others then
              if outcome is null then outcome := jsonb_build_object('i', i, 'code', sqlstate, 'message', sqlerrm); end if;
            end;
            return next outcome;
            k := k + setups + acts + 2; i := i + 1;
          end loop;
        end
        $supacontracts$
        """

    /// The psql script that runs `cases` through `function` in one transaction, rolled back.
    static func script(_ cases: [RLSCaseSQL], function: String) -> String {
        var items: [String] = []
        items.reserveCapacity(cases.count * 5)
        for c in cases {
            items.append("'\(c.returnsRows ? "r" : "n"):\(c.setup.count):\(c.actAs.count)'")
            for text in c.setup + c.actAs + [c.statement] { items.append(text.sqlLiteral) }
        }
        return "begin;\n" + function.trimmingSemicolon + ";\n" + "select pg_temp.supacontracts_cases(array[" + items.joined(separator: ",\n")
            + "]::text[]);\n" + PsqlSession.statusProbe + "rollback;\n"
    }

    /// What went wrong with a batch's answer as a whole (the call failed), so its cases can run
    /// one by one instead.
    struct Failed: Error, CustomStringConvertible {
        var error: PostgresError
        var description: String { "the case batch failed: \(error.code) \(error.message)" }
    }

    /// Each case's outcome from the batch's reply. A line that is not the next case's (a case
    /// missing, answered twice or out of order) makes the cases it leaves unanswered fail,
    /// each named, rather than take another case's outcome.
    static func outcomes(_ reply: [String], cases: [RLSCaseSQL], statuses: PostgRESTStatusTable) throws(Failed) -> [Result<RLSOutcome, any Error>] {
        let (lines, status) = PsqlSession.split(reply)
        if case .failure(let e) = status { throw Failed(error: e) }
        var answers: [Int: JSONValue] = [:]
        var stray: [String] = []
        for (position, line) in lines.enumerated() {
            guard let answer = try? JSONValue.parse(line), let i = answer["i"]?.intValue.map(Int.init), i == position, i < cases.count else {
                stray.append("line \(position + 1): \(line.prefix(120))")
                continue
            }
            answers[i] = answer
        }
        return cases.indices.map { i in
            Result {
                let c = cases[i]
                guard let a = answers[i] else {
                    throw RLSTargetError(
                        "the case batch gave no outcome for \(c.rlsCase.name) (case \(i + 1) of \(cases.count); \(lines.count) lines\(stray.isEmpty ? "" : ", unmatched: " + stray.prefix(2).joined(separator: "; ")))"
                    )
                }
                if let code = a["code"]?.stringValue {
                    return try c.outcome(.failure(PostgresError(code, a["message"]?.stringValue ?? "")), statuses: statuses)
                }
                let rows = a["rows"].flatMap { $0.isNull ? nil : $0 }
                return try c.outcome(.success((Int(a["n"]?.intValue ?? 0), rows)), statuses: statuses)
            }
        }
    }
}
