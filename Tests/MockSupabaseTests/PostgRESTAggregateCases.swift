import XCTest
@testable import MockSupabase

// AggregateFunctionsSpec.hs replayed on the spec tables with `"aggregatesEnabled": true` (its
// `db-aggregates-enabled`); its `disallowed` block is in the sweep files (aggregates off, the
// default). Left out: the RPC case (`rpc/getallprojects`), the backwards-compatible
// `projects(count)'` (its target ends in a stray quote), and the two hoisted-aggregate cases
// whose groups tie on the order (`supervisor_id` with two categories, and the embed without an
// order): their order among equal keys is the planner's choice, not PostgREST's.

extension PostgRESTCaseCorpusTests {
    static let aggregateCases: [Case] = {
        func agg(_ name: String, _ target: String, status: Int = 200, _ body: String, exact: Bool = false) -> Case {
            Case(
                name: "Aggregate " + name, target: target, status: status, expect: exact ? .exact(body) : .json(body),
                expectHeaders: ["Content-Type": "application/json; charset=utf-8"], onSpecTables: true, settings: #""aggregatesEnabled": true"#)
        }
        return [
            agg("count()", "entities?select=count()", #"[{"count":4}]"#),
            agg("count() alias", "entities?select=cnt:count()", #"[{"cnt":4}]"#),
            agg("count() cast", "entities?select=count()::text", #"[{"count":"4"}]"#),
            agg(
                "count() grouped", "projects?select=c:count(),client_id&order=client_id.desc",
                #"[{"c":1,"client_id":null},{"c":2,"client_id":2},{"c":2,"client_id":1}]"#),
            agg("count column compat", "entities?select=count", #"[{"count":4}]"#),
            agg("sum", "project_invoices?select=invoice_total.sum()", #"[{"sum":8800}]"#),
            agg("avg", "project_invoices?select=invoice_total.avg()", #"[{"avg":1100.0000000000000000}]"#, exact: true),
            agg("min", "project_invoices?select=invoice_total.min()", #"[{"min":100}]"#),
            agg("max", "project_invoices?select=invoice_total.max()", #"[{"max":4000}]"#),
            agg("count", "project_invoices?select=invoice_total.count()", #"[{"count":8}]"#),
            agg(
                "grouped", "project_invoices?select=invoice_total.sum(),invoice_total.max(),invoice_total.min(),project_id&order=project_id.desc",
                #"[{"sum":4100,"max":4000,"min":100,"project_id":4},{"sum":3200,"max":2000,"min":1200,"project_id":3},{"sum":1200,"max":700,"min":500,"project_id":2},{"sum":300,"max":200,"min":100,"project_id":1}]"#
            ),
            agg(
                "grouped alias", "project_invoices?select=invoice_total.sum(),invoice_total.max(),invoice_total.min(),pid:project_id&order=project_id.desc",
                #"[{"sum":4100,"max":4000,"min":100,"pid":4},{"sum":3200,"max":2000,"min":1200,"pid":3},{"sum":1200,"max":700,"min":500,"pid":2},{"sum":300,"max":200,"min":100,"pid":1}]"#
            ),
            agg(
                "aggregate alias", "project_invoices?select=total_charged:invoice_total.sum(),project_id&order=project_id.desc",
                #"[{"total_charged":4100,"project_id":4},{"total_charged":3200,"project_id":3},{"total_charged":1200,"project_id":2},{"total_charged":300,"project_id":1}]"#
            ),
            agg(
                "result cast", "project_invoices?select=total_charged:invoice_total.sum()::text,project_id&order=project_id.desc",
                #"[{"total_charged":"4100","project_id":4},{"total_charged":"3200","project_id":3},{"total_charged":"1200","project_id":2},{"total_charged":"300","project_id":1}]"#
            ),
            agg("input cast", "trash_details?select=jsonb_col->>key::integer.sum()", #"[{"sum":24}]"#),
            agg("alias and both casts", "trash_details?select=s:jsonb_col->>key::integer.sum()::text", #"[{"s":"24"}]"#),
            agg(
                "grouped by embed", "project_invoices?select=project_id,total:invoice_total.sum(),projects(name)&order=project_id",
                #"[{"project_id":1,"total":300,"projects":{"name":"Windows 7"}},{"project_id":2,"total":1200,"projects":{"name":"Windows 10"}},{"project_id":3,"total":3200,"projects":{"name":"IOS"}},{"project_id":4,"total":4100,"projects":{"name":"OSX"}}]"#
            ),
            agg(
                "embedded sum", "projects?select=name,project_invoices(invoice_total.sum())",
                #"[{"name":"Windows 7","project_invoices":[{"sum":300}]},{"name":"Windows 10","project_invoices":[{"sum":1200}]},{"name":"IOS","project_invoices":[{"sum":3200}]},{"name":"OSX","project_invoices":[{"sum":4100}]},{"name":"Orphan","project_invoices":[{"sum":null}]}]"#
            ),
            agg(
                "embedded max", "projects?select=name,project_invoices(invoice_total.max())",
                #"[{"name":"Windows 7","project_invoices":[{"max":200}]},{"name":"Windows 10","project_invoices":[{"max":700}]},{"name":"IOS","project_invoices":[{"max":2000}]},{"name":"OSX","project_invoices":[{"max":4000}]},{"name":"Orphan","project_invoices":[{"max":null}]}]"#
            ),
            agg(
                "embedded avg", "projects?select=name,project_invoices(invoice_total.avg())",
                #"[{"name":"Windows 7","project_invoices":[{"avg":150.0000000000000000}]},{"name":"Windows 10","project_invoices":[{"avg":600.0000000000000000}]},{"name":"IOS","project_invoices":[{"avg":1600.0000000000000000}]},{"name":"OSX","project_invoices":[{"avg":2050.0000000000000000}]},{"name":"Orphan","project_invoices":[{"avg":null}]}]"#
            ),
            agg(
                "embedded min", "projects?select=name,project_invoices(invoice_total.min())",
                #"[{"name":"Windows 7","project_invoices":[{"min":100}]},{"name":"Windows 10","project_invoices":[{"min":500}]},{"name":"IOS","project_invoices":[{"min":1200}]},{"name":"OSX","project_invoices":[{"min":100}]},{"name":"Orphan","project_invoices":[{"min":null}]}]"#
            ),
            agg(
                "embedded all at once",
                "projects?select=name,project_invoices(invoice_total.max(),invoice_total.min(),invoice_total.avg(),invoice_total.sum(),invoice_total.count())",
                #"[{"name":"Windows 7","project_invoices":[{"avg":150.0000000000000000,"max":200,"min":100,"sum":300,"count":2}]},{"name":"Windows 10","project_invoices":[{"avg":600.0000000000000000,"max":700,"min":500,"sum":1200,"count":2}]},{"name":"IOS","project_invoices":[{"avg":1600.0000000000000000,"max":2000,"min":1200,"sum":3200,"count":2}]},{"name":"OSX","project_invoices":[{"avg":2050.0000000000000000,"max":4000,"min":100,"sum":4100,"count":2}]},{"name":"Orphan","project_invoices":[{"avg":null,"max":null,"min":null,"sum":null,"count":0}]}]"#
            ),
            // Aggregates inside to-one spreads, hoisted into the parent's grouping.
            agg(
                "to-one spread with parent aggregate",
                "budget_expenses?select=total_expenses:expense_amount.sum(),...budget_categories(budget_owner,total_budget:budget_amount.sum())&order=budget_categories(budget_owner)",
                #"[{"total_expenses":600.52,"budget_owner":"Brian Smith","total_budget":2000.42},{"total_expenses":100.22,"budget_owner":"Jane Clarkson","total_budget":7000.41},{"total_expenses":900.27,"budget_owner":"Sally Hughes","total_budget":500.23}]"#
            ),
            agg(
                "to-one spread only aggregates", "budget_expenses?select=...budget_categories(total_budget:budget_amount.sum())",
                #"[{"total_budget":9501.06}]"#),
            agg(
                "to-one spread grouped by another spread",
                "processes?select=...process_costs(cost.sum()),...process_categories(name)&order=process_categories(name)",
                #"[{"sum":400.00,"name":"Batch"},{"sum":350.00,"name":"Mass"}]"#, exact: false),
            agg(
                "to-one spread grouped by another spread aliased",
                "processes?select=...process_costs(cost_sum:cost.sum()),...process_categories(category:name)&order=process_categories(category)",
                #"[{"cost_sum":400.00,"category":"Batch"},{"cost_sum":350.00,"category":"Mass"}]"#),
            agg(
                "nested to-one spreads", "process_supervisor?select=...processes(factory_id,...process_costs(cost.sum()))&order=processes(factory_id).desc",
                #"[{"factory_id":3,"sum":110.00},{"factory_id":2,"sum":500.00},{"factory_id":1,"sum":350.00}]"#),
            agg(
                "nested to-one spreads aliased",
                "process_supervisor?select=...processes(factory_id,...process_costs(cost_sum:cost.sum()))&order=processes(factory_id).desc",
                #"[{"factory_id":3,"cost_sum":110.00},{"factory_id":2,"cost_sum":500.00},{"factory_id":1,"cost_sum":350.00}]"#),
            agg(
                "nested to-one spreads grouped by an embed",
                "process_supervisor?select=...processes(factory:factories(name),...process_costs(cost_sum:cost.sum()))",
                #"[{"factory":{"name":"Factory A"},"cost_sum":350.00},{"factory":{"name":"Factory B"},"cost_sum":500.00},{"factory":{"name":"Factory C"},"cost_sum":110.00}]"#
            ),
            agg(
                "spread count()", "process_supervisor?select=supervisor_id,...processes(count())&order=supervisor_id",
                #"[{"supervisor_id":1,"count":2},{"supervisor_id":2,"count":2},{"supervisor_id":3,"count":3},{"supervisor_id":4,"count":1}]"#),
            agg(
                "spread count() aliased", "process_supervisor?select=supervisor_id,...processes(processes_count:count())&order=supervisor_id",
                #"[{"supervisor_id":1,"processes_count":2},{"supervisor_id":2,"processes_count":2},{"supervisor_id":3,"processes_count":3},{"supervisor_id":4,"processes_count":1}]"#
            ),
            agg(
                "spread count() beside a column",
                "process_supervisor?select=...supervisors(supervisor:id,supervisor_count:count())&order=supervisors(supervisor)",
                #"[{"supervisor":1,"supervisor_count":2},{"supervisor":2,"supervisor_count":2},{"supervisor":3,"supervisor_count":3},{"supervisor":4,"supervisor_count":1}]"#
            ),
            agg(
                "nested spread count()",
                "process_supervisor?select=supervisor:supervisor_id,...processes(...process_costs(process_costs_count:count()))&order=supervisor_id",
                #"[{"supervisor":1,"process_costs_count":2},{"supervisor":2,"process_costs_count":2},{"supervisor":3,"process_costs_count":3},{"supervisor":4,"process_costs_count":1}]"#
            ),
            agg(
                "nested spread count() grouped by a spread column",
                "process_supervisor?select=...processes(factory:factory_id,...process_costs(process_costs_count:count()))&order=processes(factory)",
                #"[{"factory":1,"process_costs_count":2},{"factory":2,"process_costs_count":4},{"factory":3,"process_costs_count":2}]"#),
            agg(
                "spread counts at two levels",
                "process_supervisor?select=...processes(factory:factory_id,processes_count:count(),...process_costs(process_costs_count:count()))&order=processes(factory)",
                #"[{"factory":1,"processes_count":2,"process_costs_count":2},{"factory":2,"processes_count":4,"process_costs_count":4},{"factory":3,"processes_count":2,"process_costs_count":2}]"#
            ),
            // Beyond the suite: a spread's count() counts only the parents that have a related
            // row (`COUNT(rel.count)` over a whole-row value, null without one), and the text.
            agg(
                "spread count() skips parents without one", "processes?select=category_id,...process_costs(n:count(),cost.sum())&order=category_id",
                #"[{"category_id":1,"n":3,"sum":400.00},{"category_id":2,"n":4,"sum":350.00}]"#),
            agg(
                "to-one spread text", "processes?select=...process_costs(cost.sum()),...process_categories(name)&order=process_categories(name)",
                #"[{"sum":400.00,"name":"Batch"}, \#n {"sum":350.00,"name":"Mass"}]"#, exact: true),
            // SqlFragment.hs `countF`: with a range the exact count is of the rows, not the groups;
            // without one it is the page's groups.
            Case(
                name: "Aggregate count=exact with a range counts rows",
                target: "project_invoices?select=invoice_total.sum(),project_id&order=project_id&limit=3",
                headers: ["Prefer": "count=exact"], status: 206,
                expect: .json(#"[{"sum":300,"project_id":1},{"sum":1200,"project_id":2},{"sum":3200,"project_id":3}]"#),
                expectHeaders: ["Content-Range": "0-2/8", "Preference-Applied": "count=exact"], onSpecTables: true, settings: #""aggregatesEnabled": true"#),
            Case(
                name: "Aggregate count=exact without a range counts groups", target: "project_invoices?select=invoice_total.sum(),project_id&order=project_id",
                headers: ["Prefer": "count=exact"], status: 200,
                expect: .json(#"[{"sum":300,"project_id":1},{"sum":1200,"project_id":2},{"sum":3200,"project_id":3},{"sum":4100,"project_id":4}]"#),
                expectHeaders: ["Content-Range": "0-3/4"], onSpecTables: true, settings: #""aggregatesEnabled": true"#),
            Case(
                name: "Aggregate count=exact past the rows", target: "project_invoices?select=invoice_total.sum(),project_id&offset=6",
                headers: ["Prefer": "count=exact"], status: 206, expect: .exact("[]"),
                expectHeaders: ["Content-Range": "*/8"], onSpecTables: true, settings: #""aggregatesEnabled": true"#),
            agg(
                "to-many spread refused", "factories?select=name,...factory_buildings(type,size.sum())", status: 400,
                #"{"code":"PGRST127","message":"Feature not implemented","details":"Aggregates are not implemented for one-to-many or many-to-many spreads.","hint":null}"#
            ),
            // Beyond the suite: the printed text of an embedded avg (jsonb keeps numeric's scale),
            // scales judged by numeric.c's `select_div_scale`, an avg of no rows.
            Case(
                name: "Aggregate embedded text", target: "projects?select=id,project_invoices(n:count(),invoice_total.avg())&id=eq.1", status: 200,
                expect: .exact(#"[{"id":1,"project_invoices":[{"n": 2, "avg": 150.0000000000000000}]}]"#), onSpecTables: true,
                settings: #""aggregatesEnabled": true"#),
            agg("avg scale", "project_invoices?select=id.avg()&id=in.(1,2)", #"[{"avg":1.5000000000000000}]"#, exact: true),
            agg("avg first digit not above", "project_invoices?select=id.avg()&id=eq.1", #"[{"avg":1.00000000000000000000}]"#, exact: true),
            agg("avg rounded", "project_invoices?select=id.avg()&id=in.(1,2,4)", #"[{"avg":2.3333333333333333}]"#, exact: true),
            agg("avg of no rows", "project_invoices?select=id.avg()&project_id=eq.9", #"[{"avg":null}]"#)
        ]
    }()

    /// The cases can fail: with aggregates off (the default) every case but the backwards-
    /// compatible `select=count` answers PGRST123 instead.
    func testAggregateCasesRejectAnEngineWithAggregatesOff() throws {
        var rejected = 0
        for var c in Self.aggregateCases {
            c.settings = nil
            if try run(c) != nil { rejected += 1 }
        }
        XCTAssertEqual(rejected, Self.aggregateCases.count - 1)
    }

    /// The count cases can fail: an engine that never sees `Prefer` answers no total
    /// (`Content-Range: …/*`), and one that counted groups would answer `0-2/4`, not `0-2/8`.
    func testAggregateCountCasesRejectAnEngineIgnoringPrefer() throws {
        let counted = Self.aggregateCases.filter { $0.headers["Prefer"] != nil }
        XCTAssertEqual(counted.count, 3)
        for c in counted {
            XCTAssertNotNil(try run(c, mutate: { h in HTTPHeaders(h.filter { $0.name.lowercased() != "prefer" }.map { ($0.name, $0.value) }) }), c.name)
        }
    }

    /// The aggregate cases alone (they are in the corpus too), failures listed.
    func testAggregateCases() throws {
        let failures = try Self.aggregateCases.compactMap { c in try run(c).map { "\(c.name): \($0)" } }
        XCTAssertEqual(failures, [])
    }
}
