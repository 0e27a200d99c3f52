import XCTest
@testable import MockSupabase

// An audit of PostgREST's own hspec suites (test/spec/Feature/Query/*.hs) against this corpus,
// `it` by `it`, on the plain tables of SpecTablesFixture. Cases below cover the blocks the
// earlier corpus files did not send; each expectation is what PostgREST answers for the fixture's
// rows. Blocks left out, and why (grouped by spec file; line of the `it` in the suite):
//
// Whole files left out: RpcSpec, RpcPreRequestGucsSpec (functions); ComputedRelsSpec (relationships
// defined by SQL functions); PlanSpec (EXPLAIN output); OpenApi* and RootSpec (OpenAPI document);
// PostGISSpec (extension types); MultipleSchemaSpec (its schemas v1, v2 and a quoted one with
// their functions and domain media handlers; its embedding within a later schema is in
// ExposedSchemaTests), ExtraSearchPathSpec (extensions on the search path); Auth* and JwtCacheSpec
// (JWT configurations); CustomMediaSpec (media handlers written as SQL functions and aggregates);
// ServerTimingSpec, ObservabilitySpec, PreparedStatementsSpec, ConcurrentSpec, NoSuperuserSpec
// (server internals); RawOutputTypesSpec and the html media (function-defined types). The 31 blocks
// whose assertions read a raw `SResponse` (no request/answer pair to replay) are not audited here.
// Blocks on a missing table, on schema-cache hints and on the plain tables added since are in
// PostgRESTHintCases and PostgRESTPlainTableCases; QueryLimitedSpec (`"maxRows": 2`) is in
// PostgRESTLimitedCases and AggregateFunctionsSpec (`"aggregatesEnabled": true`; its `aggregates
// off` answers are in the sweep files) in PostgRESTAggregateCases, each heading what it leaves
// out; InsertSpec 547 (a stored generated column), the view column defaults of InsertSpec 514 and
// UpdateSpec 395 and PgSafeUpdateSpec's filtered writes are in PostgRESTWriteSweep2Cases. The fixture exposes schema `test` as the suites do.
//
// DeleteSpec.hs
// - 123 fails deleting the row when return=representation and selecting all th: column privileges of the test roles
//
// EmbedDisambiguationSpec.hs
// - 189 can embed by using a composite FK name: computed column or computed relationship (SQL function)
// - 236 can specify a view!fk: embeds a view over a private-schema table
// - 392 embeds parent and then embeds children on a view: relation not in the fixture (job: a view over other schemas, rules, privileges or types the contract format does not hold)
// - 407 can specify all view column names that reference the same base column: views over a self-join (i2459_self_v1 reads two rows of i2459_self_t per row), not a simple view
// - 498 works with no ambiguity when there's an exposed view of the junction: relation not in the fixture (screens: a view over other schemas, rules, privileges or types the contract format does not hold)
// - 506 doesn't work if the junction is only internal: relation not in the fixture (end_1: a view over other schemas, rules, privileges or types the contract format does not hold)
// - 515 shouldn't try to embed if the private junction has an exposed homonym: relation not in the fixture (schauspieler: a view over other schemas, rules, privileges or types the contract format does not hold)
// - 545 has to be explicit for a view embedding: relation not in the fixture (adaptation_notifications: a view over other schemas, rules, privileges or types the contract format does not hold)
// - 567 resolves when there's a table and view that point to the same fk (comp: computed column or computed relationship (SQL function)
// - 581 should not expose hidden FKs: relation not in the fixture (va: a view over other schemas, rules, privileges or types the contract format does not hold)
//
// EmbedInnerJoinSpec.hs
// - 277 works with views: many-to-many through a view junction over private tables (its keys must be mapped to the views of both ends; not modelled)
// - 306 works with rpc: RPC
//
// ErrorSpec.hs
// - 16 should return 500 for cardinality_violation: relation not in the fixture (bad_subquery: a view over other schemas, rules, privileges or types the contract format does not hold)
// - 19 should return 500 for statement too complex: relation not in the fixture (infinite_inserts: a view over other schemas, rules, privileges or types the contract format does not hold)
// - 61 works with raise sqlstate custom error: RPC
// - 70 works with sqlstate PGRST custom error: RPC
// - 230 hides details and hint when set to 'minimal': client-error-verbosity = minimal (a test config, not Supabase's)
//
// HandlingSpec.hs
// - 35 throws error with rpc: RPC
// - 62 does not throw error with rpc: RPC
//
// InsertSpec.hs
// - 184 succeeds with 201 and location header: in PostgRESTWriteSweep2Cases (data.sql's sequence state)
// - 366 successfully inserts a row with all-default columns with prefer=rep: RPC
// - 385 successfully inserts a row with all-default columns with prefer=rep an: RPC
// - 421 should insert to a bit column with length: bit(n) type
// - 428 should insert to a char column with length: bit(n) type
// - 514 inserts view default values(field-with_sep) when json keys are undefin: in PostgRESTWriteSweep2Cases
// - 547 fails with a good error message on generated always columns: in PostgRESTWriteSweep2Cases
// - 708 succeeds inserting if correct select is applied: view over a private-schema table with column privileges
// - 715 fails inserting if more columns are selected: view over a private-schema table with column privileges
// - 723 fails inserting if select is not specified: view over a private-schema table with column privileges
// - 731 can insert in a table with no select and return=minimal: in PostgRESTWriteSweep2Cases (as the service role)
// - 745 succeeds with 201: in PostgRESTWriteSweep2Cases (compound_pk_view is a simple view)
// - 756 returns a location header with pks from both tables: relation not in the fixture (with_multiple_pks: a view over other schemas, rules, privileges or types the contract format does not hold)
// - 770 returns a location header with a composite PK col: in PostgRESTWriteSweep2Cases
// - 783 should not throw and return location header when a PK is null: view with INSTEAD OF rule over a join
// - 799 parses values in POST body: domain representations (casts through SQL functions)
// - 814 parses values in POST body and formats individually selected values in: domain representations (casts through SQL functions)
// - 824 parses values in POST body and formats values in return=representation: domain representations (casts through SQL functions)
// - 835 ignores json keys not included in ?columns; parses only the ones speci: domain representations (casts through SQL functions)
// - 845 fails without parsing anything if at least one specified column doesn': domain representations (casts through SQL functions)
// - 855 parses values in POST body: domain representations (casts through SQL functions)
// - 870 parses values in POST body and formats individually selected values in: domain representations (casts through SQL functions)
// - 880 parses values in POST body and formats values in return=representation: domain representations (casts through SQL functions)
// - 891 ignores json keys not included in ?columns; parses only the ones speci: domain representations (casts through SQL functions)
// - 901 fails without parsing anything if at least one specified column doesn': domain representations (casts through SQL functions)
//
// JsonOperatorSpec.hs
// - 150 obtains a composite type field: composite type column (complex)
// - 222 can filter composite type field: composite type column (complex)
// - 252 orders by composite type field: composite type column (complex)
// - 317 works when an RPC returns a dynamic TABLE with a composite type: RPC
//
// MaxAffectedSpec.hs
// - 86 should fail with rpc when deleting rows more than prefered with return: RPC
// - 94 should fail with rpc when deleting rows more than prefered with return: RPC
// - 102 should succeed with rpc deleting rows less than prefered with returns : RPC
// - 112 should succeed with rpc deleting rows less than prefered with returns : RPC
// - 122 should fail with rpc when returns void with handling=strict: RPC
//
// PgSafeUpdateSpec.hs
// - 18 does not update and throws error if no condition is present: pg-safeupdate extension
// - 31 allows full table update if a filter is present: in PostgRESTWriteSweep2Cases
// - 37 does not delete and throws error if no condition is present: pg-safeupdate extension
// - 48 allows full table delete if a filter is present: in PostgRESTWriteSweep2Cases
// - 63 works if no condition is present: in PostgRESTWriteSweep2Cases
//
// QuerySpec.hs
// - 295 works with tsvector computed fields: computed column or computed relationship (SQL function)
// - 510 matches with computed column: computed column or computed relationship (SQL function)
// - 515 order by computed column: computed column or computed relationship (SQL function)
// - 621 can cast types with underscore and numbers: oid type
// - 766 computed column on table: computed column or computed relationship (SQL function)
// - 771 computed column on rpc: RPC
// - 776 overloaded computed columns on both tables: computed column or computed relationship (SQL function)
// - 784 overloaded computed column on rpc: RPC
// - 887 can detect fk relations through materialized views to tables in the pu: materialized view
// - 927 works with views that have subselects: a view whose columns are correlated count subselects over other views (not a simple or grouped view)
// - 933 works with views that have case subselects: a view whose columns are CASE over IN-subselects (not a simple or grouped view)
// - 939 works with views that have subselect in the FROM clause: a view over a join of a subselect with another table (views over joins are not modelled)
// - 944 works with views that have subselects in a function call: a view whose columns are coalesce over subselects (not a simple or grouped view)
// - 950 works with views that have CTE: a view over a CTE joined with another table (views over joins are not modelled)
// - 1002 can embed a view that has a subselect containing a select in a where: a view whose column is a json_agg subselect (not a simple or grouped view)
// - 1413 can be queried by using regular filters: view with rules
// - 1417 can be queried with select, order and limit: view with rules
// - 1422 cannot use ltree(in public schema) extension operators if no extra sea: ltree extension type
// - 1487 gives all columns: RPC
// - 1548 formats a single column: domain representations (casts through SQL functions)
// - 1552 formats two columns with different formatters: domain representations (casts through SQL functions)
// - 1556 fails in some reasonable way when selecting fields that don't exist: domain representations (casts through SQL functions)
// - 1565 formats columns in views including computed columns: domain representations (casts through SQL functions)
// - 1574 formats and allows rename: domain representations (casts through SQL functions)
// - 1578 formats, renames and allows manual casting on top: domain representations (casts through SQL functions)
// - 1582 formats nulls: domain representations (casts through SQL functions)
// - 1587 formats star select: domain representations (casts through SQL functions)
// - 1595 formats implicit star select: domain representations (casts through SQL functions)
// - 1603 formats star and explicit mix: domain representations (casts through SQL functions)
// - 1611 formats through join: domain representations over an RPC
// - 1615 formats through join with star select: domain representations over an RPC
// - 1622 uses text parser on value for filter given through query parameters: domain representations (casts through SQL functions)
// - 1626 in the absense of text parser, does not try to use the JSON parser for: domain representations (casts through SQL functions)
// - 1636 uses text parser for filter with 'IN' predicates: domain representations (casts through SQL functions)
// - 1643 uses text parser for filter with 'NOT IN' predicates: domain representations (casts through SQL functions)
// - 1649 uses text parser on value for filter across relations: domain representations over an RPC
// - 1681 return http status 500: relation not in the fixture (infinite_recursion: a view over other schemas, rules, privileges or types the contract format does not hold)
// - 1709 filters, orders or limits do not work with aliased embeded entities us: url-use-legacy-target-names = false config (default true keeps legacy names)
//
// RangeSpec.hs
// - 18 returns whole range with status 200: RPC
// - 22 returns range Content-Range with */* for empty range: RPC
// - 29 returns range Content-Range with range/*: RPC
// - 36 refuses a range with nonzero start when there are no items: RPC
// - 51 refuses a range requesting start past last item: RPC
// - 75 understands open-ended ranges: RPC
// - 80 returns an empty body when there are no results: RPC
// - 105 fails with 416 for offside range: RPC
// - 117 refuses a range with nonzero start when there are no items: RPC
// - 132 refuses a range requesting start past last item: RPC
// - 310 obtains a filtered range: view over a function
// - 338 obtains the full range: view over a function
// - 369 ignores limit/offset on the planned count: view over a function
//
// RelatedQueriesSpec.hs
// - 14 works on a many-to-one relationship: computed column or computed relationship (SQL function)
// - 107 fails when is not a to-one relationship: computed column or computed relationship (SQL function)
// - 152 works on a many-to-one relationship: computed column or computed relationship (SQL function)
// - 312 works with count=planned: planner row estimate through a lateral join (EXPLAIN statistics)
// - 346 works with count=estimated: planner row estimate through a lateral join (EXPLAIN statistics)
//
// SingularSpec.hs
// - 269 fails for zero rows: RPC
// - 280 succeeds for scalar result: RPC
// - 285 returns a single object for json proc: RPC
// - 292 fails for multiple rows: RPC
// - 301 fails for multiple rows with rolled back changes: RPC
//
// SpreadQueriesSpec.hs
// - 13 works on a many-to-one relationship: computed column or computed relationship (SQL function)
// - 603 should work return the same as empty embeddings: computed column or computed relationship (SQL function)
//
// UnicodeSpec.hs
// - 17 Can read and write values: state carried between requests (the suite commits a write then reads it)
//
// UpdateSpec.hs
// - 102 can update multiple items: tx=commit override (db-tx-end allow-override is a test config, not Supabase's)
// - 143 is successful: computed column or computed relationship (SQL function)
// - 155 returns empty array when no rows updated and return=rep: computed column or computed relationship (SQL function)
// - 180 can return computed columns: computed column or computed relationship (SQL function)
// - 190 can select overloaded computed columns: computed column or computed relationship (SQL function)
// - 319 makes no updates and returns 200 with return=rep and with ?select= for: computed column or computed relationship (SQL function)
// - 337 ignores json keys not included in ?columns: state carried between requests (the suite commits a write then reads it)
// - 395 updates view default values(field-with_sep) when json keys are undefin: in PostgRESTWriteSweep2Cases
// - 411 should update a bit column with length: bit(n) type
// - 420 should update a char column with length: bit(n) type
// - 648 parses values in payload: domain representations (casts through SQL functions)
// - 659 parses values in payload and formats individually selected values in r: domain representations (casts through SQL functions)
// - 670 parses values in payload and formats values in return=representation: domain representations (casts through SQL functions)
// - 681 parses values in payload and formats individually selected values in r: domain representations (casts through SQL functions)
// - 696 parses values in payload and formats values in return=representation: domain representations (casts through SQL functions)
// - 711 ignores json keys not included in ?columns; parses only the ones speci: domain representations (casts through SQL functions)
// - 724 fails if at least one specified column doesn't exist: domain representations (casts through SQL functions)
// - 733 ignores json keys and gives 200 if no record updated: domain representations (casts through SQL functions)
//
// UpsertSpec.hs
// - 532 works with PUT: state carried between requests (the suite commits a write then reads it)
// - 543 works with request method PUT and return=minimal: state carried between requests (the suite commits a write then reads it)

extension PostgRESTCaseCorpusTests {
    /// The audit's cases, spec file by spec file.
    static var auditCases: [Case] { auditCasesA + auditCasesB + auditCasesC + auditOrderCases + auditLegacyTargetCases + auditJSONTextCases + auditViewCases }

    static let auditCasesA: [Case] = [
        Case(
            name: #"Query GET tsearch?text_search_vector=fts.impossible|possible"#, target: #"tsearch?text_search_vector=fts.impossible%7Cpossible"#,
            status: 200, expect: .json(#"[ {"text_search_vector": "'fun':5 'imposs':9 'kind':3"}, {"text_search_vector": "'also':2 'fun':3 'possibl':8"}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch?text_search_vector=fts.fun&!possible"#, target: #"tsearch?text_search_vector=fts.fun%26!possible"#, status: 200,
            expect: .json(#"[ {"text_search_vector": "'fun':5 'imposs':9 'kind':3"}]"#), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#],
            onSpecTables: true),
        Case(
            name: #"Query GET tsearch?text_search_vector=wfts.The Fat Rats"#, target: #"tsearch?text_search_vector=wfts.The%20Fat%20Rats"#, status: 200,
            expect: .json(#"[ {"text_search_vector": "'ate':3 'cat':2 'fat':1 'rat':4" }]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch?text_search_vector=wfts.fun and possible"#, target: #"tsearch?text_search_vector=wfts.fun%20and%20possible"#, status: 200,
            expect: .json(#"[ {"text_search_vector": "'also':2 'fun':3 'possibl':8"}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch?text_search_vector=wfts.impossible or possible"#, target: #"tsearch?text_search_vector=wfts.impossible%20or%20possible"#,
            status: 200, expect: .json(#"[ {"text_search_vector": "'fun':5 'imposs':9 'kind':3"}, {"text_search_vector": "'also':2 'fun':3 'possibl':8"}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch?text_search_vector=plfts(french).amusant impossible"#,
            target: #"tsearch?text_search_vector=plfts(french).amusant%20impossible"#, status: 200,
            expect: .json(#"[{"text_search_vector": "'amus':5 'fair':7 'impossibl':9 'peu':4" }]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch?text_search_vector=wfts(french).amusant impossible"#,
            target: #"tsearch?text_search_vector=wfts(french).amusant%20impossible"#, status: 200,
            expect: .json(#"[{"text_search_vector": "'amus':5 'fair':7 'impossibl':9 'peu':4" }]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch?text_search_vector=not.fts(english).impossible|fat|f"#,
            target: #"tsearch?text_search_vector=not.fts(english).impossible%7Cfat%7Cfun"#, status: 200,
            expect: .json(#"[ {"text_search_vector": "'amus':5 'fair':7 'impossibl':9 'peu':4"}, {"text_search_vector": "'art':4 'spass':5 'unmog':7"}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch?text_search_vector=not.plfts.The Fat Rats"#, target: #"tsearch?text_search_vector=not.plfts.The%20Fat%20Rats"#,
            status: 200,
            expect: .json(
                #"[ {"text_search_vector": "'fun':5 'imposs':9 'kind':3"}, {"text_search_vector": "'also':2 'fun':3 'possibl':8"}, {"text_search_vector": "'amus':5 'fair':7 'impossibl':9 'peu':4"}, {"text_search_vector": "'art':4 'spass':5 'unmog':7"}]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch?text_search_vector=not.wfts(english).impossible or f"#,
            target: #"tsearch?text_search_vector=not.wfts(english).impossible%20or%20fat%20or%20fun"#, status: 200,
            expect: .json(#"[ {"text_search_vector": "'amus':5 'fair':7 'impossibl':9 'peu':4"}, {"text_search_vector": "'art':4 'spass':5 'unmog':7"}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch?text_search_vector=phfts.The Fat Cats"#, target: #"tsearch?text_search_vector=phfts.The%20Fat%20Cats"#, status: 200,
            expect: .json(#"[{"text_search_vector": "'ate':3 'cat':2 'fat':1 'rat':4" }]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch?text_search_vector=phfts(german).Art Spass"#, target: #"tsearch?text_search_vector=phfts(german).Art%20Spass"#,
            status: 200, expect: .json(#"[{"text_search_vector": "'art':4 'spass':5 'unmog':7" }]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch?text_search_vector=not.phfts(english).The Fat Cats"#,
            target: #"tsearch?text_search_vector=not.phfts(english).The%20Fat%20Cats"#, status: 200,
            expect: .json(
                #"[ {"text_search_vector": "'fun':5 'imposs':9 'kind':3"}, {"text_search_vector": "'also':2 'fun':3 'possibl':8"}, {"text_search_vector": "'amus':5 'fair':7 'impossibl':9 'peu':4"}, {"text_search_vector": "'art':4 'spass':5 'unmog':7"}]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch?or=(text_search_vector.phfts(german).Art Spass, text"#,
            target:
                #"tsearch?or=(text_search_vector.phfts(german).Art%20Spass, text_search_vector.phfts(french).amusant, text_search_vector.fts(english).impossible)"#,
            status: 200,
            expect: .json(
                #"[ {"text_search_vector": "'fun':5 'imposs':9 'kind':3" }, {"text_search_vector": "'amus':5 'fair':7 'impossibl':9 'peu':4" }, {"text_search_vector": "'art':4 'spass':5 'unmog':7"} ]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=text_search_domain&text_search_do"#,
            target: #"tsearch_to_tsvector?select=text_search_domain&text_search_domain=fts(simple).of"#, status: 200,
            expect: .json(#"[ {"text_search_domain":"'do':7 'fun':5 'impossible':9 'it':1 'kind':3 'of':4 's':2 'the':8 'to':6"} ]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=text_search_rec_domain&text_searc"#,
            target: #"tsearch_to_tsvector?select=text_search_rec_domain&text_search_rec_domain=fts(simple).of"#, status: 200,
            expect: .json(#"[ {"text_search_rec_domain":"'do':7 'fun':5 'impossible':9 'it':1 'kind':3 'of':4 's':2 'the':8 'to':6"} ]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=text_search&text_search=fts.impos"#,
            target: #"tsearch_to_tsvector?select=text_search&text_search=fts.impossible"#, status: 200,
            expect: .json(#"[ {"text_search": "It's kind of fun to do the impossible"}, {"text_search": "C'est un peu amusant de faire l'impossible"}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=jsonb_search&jsonb_search=fts.imp"#,
            target: #"tsearch_to_tsvector?select=jsonb_search&jsonb_search=fts.impossible"#, status: 200,
            expect: .json(
                #"[ {"jsonb_search" :{"text_search": "It's kind of fun to do the impossible"}}, {"jsonb_search" :{"text_search": "C'est un peu amusant de faire l'impossible"}}]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=text_search&text_search=fts.fun&p"#,
            target: #"tsearch_to_tsvector?select=text_search&text_search=fts.fun%26possible"#, status: 200,
            expect: .json(#"[{"text_search": "But also fun to do what is possible"}]"#), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#],
            onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=jsonb_search&jsonb_search=fts.fun"#,
            target: #"tsearch_to_tsvector?select=jsonb_search&jsonb_search=fts.fun%26possible"#, status: 200,
            expect: .json(#"[{"jsonb_search" :{"text_search": "But also fun to do what is possible"}}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=text_search&text_search=fts.impos"#,
            target: #"tsearch_to_tsvector?select=text_search&text_search=fts.impossible%7Cpossible"#, status: 200,
            expect: .json(
                #"[ {"text_search": "It's kind of fun to do the impossible"}, {"text_search": "But also fun to do what is possible"}, {"text_search": "C'est un peu amusant de faire l'impossible"}]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=jsonb_search&jsonb_search=fts.imp"#,
            target: #"tsearch_to_tsvector?select=jsonb_search&jsonb_search=fts.impossible%7Cpossible"#, status: 200,
            expect: .json(
                #"[ {"jsonb_search" :{"text_search": "It's kind of fun to do the impossible"}}, {"jsonb_search" :{"text_search": "But also fun to do what is possible"}}, {"jsonb_search" :{"text_search": "C'est un peu amusant de faire l'impossible"}}]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=text_search&text_search=fts.fun&!"#,
            target: #"tsearch_to_tsvector?select=text_search&text_search=fts.fun%26!possible"#, status: 200,
            expect: .json(#"[{"text_search": "It's kind of fun to do the impossible"}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=jsonb_search&jsonb_search=fts.fun"#,
            target: #"tsearch_to_tsvector?select=jsonb_search&jsonb_search=fts.fun%26!possible"#, status: 200,
            expect: .json(#"[{"jsonb_search" :{"text_search": "It's kind of fun to do the impossible"}}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=text_search&text_search=plfts.The"#,
            target: #"tsearch_to_tsvector?select=text_search&text_search=plfts.The%20Fat%20Rats"#, status: 200,
            expect: .json(#"[{"text_search": "Fat cats ate rats"}]"#), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#],
            onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=jsonb_search&jsonb_search=plfts.T"#,
            target: #"tsearch_to_tsvector?select=jsonb_search&jsonb_search=plfts.The%20Fat%20Rats"#, status: 200,
            expect: .json(#"[{"jsonb_search" :{"text_search": "Fat cats ate rats"}}]"#), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#],
            onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=text_search&text_search=wfts.The "#,
            target: #"tsearch_to_tsvector?select=text_search&text_search=wfts.The%20Fat%20Rats"#, status: 200,
            expect: .json(#"[{"text_search": "Fat cats ate rats"}]"#), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#],
            onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=jsonb_search&jsonb_search=wfts.Th"#,
            target: #"tsearch_to_tsvector?select=jsonb_search&jsonb_search=wfts.The%20Fat%20Rats"#, status: 200,
            expect: .json(#"[{"jsonb_search" :{"text_search": "Fat cats ate rats"}}]"#), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#],
            onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=text_search&text_search=wfts.fun "#,
            target: #"tsearch_to_tsvector?select=text_search&text_search=wfts.fun%20and%20possible"#, status: 200,
            expect: .json(#"[{"text_search": "But also fun to do what is possible"}]"#), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#],
            onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=jsonb_search&jsonb_search=wfts.fu"#,
            target: #"tsearch_to_tsvector?select=jsonb_search&jsonb_search=wfts.fun%20and%20possible"#, status: 200,
            expect: .json(#"[{"jsonb_search" :{"text_search": "But also fun to do what is possible"}}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=text_search&text_search=wfts.impo"#,
            target: #"tsearch_to_tsvector?select=text_search&text_search=wfts.impossible%20or%20possible"#, status: 200,
            expect: .json(
                #"[ {"text_search": "It's kind of fun to do the impossible"}, {"text_search": "But also fun to do what is possible"}, {"text_search": "C'est un peu amusant de faire l'impossible"}]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=jsonb_search&jsonb_search=wfts.im"#,
            target: #"tsearch_to_tsvector?select=jsonb_search&jsonb_search=wfts.impossible%20or%20possible"#, status: 200,
            expect: .json(
                #"[ {"jsonb_search" :{"text_search": "It's kind of fun to do the impossible"}}, {"jsonb_search" :{"text_search": "But also fun to do what is possible"}}, {"jsonb_search" :{"text_search": "C'est un peu amusant de faire l'impossible"}}]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=text_search&text_search=wfts.fun "#,
            target: #"tsearch_to_tsvector?select=text_search&text_search=wfts.fun%20and%20-possible"#, status: 200,
            expect: .json(#"[{"text_search": "It's kind of fun to do the impossible"}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=jsonb_search&jsonb_search=wfts.fu"#,
            target: #"tsearch_to_tsvector?select=jsonb_search&jsonb_search=wfts.fun%20and%20-possible"#, status: 200,
            expect: .json(#"[{"jsonb_search" :{"text_search": "It's kind of fun to do the impossible"}}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=text_search&text_search=fts(frenc"#,
            target: #"tsearch_to_tsvector?select=text_search&text_search=fts(french).amusant"#, status: 200,
            expect: .json(#"[{"text_search": "C'est un peu amusant de faire l'impossible"}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=jsonb_search&jsonb_search=fts(fre"#,
            target: #"tsearch_to_tsvector?select=jsonb_search&jsonb_search=fts(french).amusant"#, status: 200,
            expect: .json(#"[{"jsonb_search" :{"text_search": "C'est un peu amusant de faire l'impossible"}}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=text_search&text_search=plfts(fre"#,
            target: #"tsearch_to_tsvector?select=text_search&text_search=plfts(french).amusant%20impossible"#, status: 200,
            expect: .json(#"[{"text_search": "C'est un peu amusant de faire l'impossible"}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=jsonb_search&jsonb_search=plfts(f"#,
            target: #"tsearch_to_tsvector?select=jsonb_search&jsonb_search=plfts(french).amusant%20impossible"#, status: 200,
            expect: .json(#"[{"jsonb_search" :{"text_search": "C'est un peu amusant de faire l'impossible"}}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=text_search&text_search=wfts(fren"#,
            target: #"tsearch_to_tsvector?select=text_search&text_search=wfts(french).amusant%20impossible"#, status: 200,
            expect: .json(#"[{"text_search": "C'est un peu amusant de faire l'impossible"}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=jsonb_search&jsonb_search=wfts(fr"#,
            target: #"tsearch_to_tsvector?select=jsonb_search&jsonb_search=wfts(french).amusant%20impossible"#, status: 200,
            expect: .json(#"[{"jsonb_search" :{"text_search": "C'est un peu amusant de faire l'impossible"}}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=text_search&text_search=not.fts.i"#,
            target: #"tsearch_to_tsvector?select=text_search&text_search=not.fts.impossible%7Cfat%7Cfun"#, status: 200,
            expect: .json(#"[{"text_search": "Es ist eine Art Spaß, das Unmögliche zu machen"}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=jsonb_search&jsonb_search=not.fts"#,
            target: #"tsearch_to_tsvector?select=jsonb_search&jsonb_search=not.fts.impossible%7Cfat%7Cfun"#, status: 200,
            expect: .json(#"[{"jsonb_search" :{"text_search": "Es ist eine Art Spaß, das Unmögliche zu machen"}}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=text_search&text_search=not.fts(e"#,
            target: #"tsearch_to_tsvector?select=text_search&text_search=not.fts(english).impossible%7Cfat%7Cfun"#, status: 200,
            expect: .json(#"[{"text_search": "Es ist eine Art Spaß, das Unmögliche zu machen"}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=jsonb_search&jsonb_search=not.fts"#,
            target: #"tsearch_to_tsvector?select=jsonb_search&jsonb_search=not.fts(english).impossible%7Cfat%7Cfun"#, status: 200,
            expect: .json(#"[{"jsonb_search" :{"text_search": "Es ist eine Art Spaß, das Unmögliche zu machen"}}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=text_search&text_search=not.plfts"#,
            target: #"tsearch_to_tsvector?select=text_search&text_search=not.plfts.The%20Fat%20Rats"#, status: 200,
            expect: .json(
                #"[ {"text_search": "It's kind of fun to do the impossible"}, {"text_search": "But also fun to do what is possible"}, {"text_search": "C'est un peu amusant de faire l'impossible"}, {"text_search": "Es ist eine Art Spaß, das Unmögliche zu machen"}]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=jsonb_search&jsonb_search=not.plf"#,
            target: #"tsearch_to_tsvector?select=jsonb_search&jsonb_search=not.plfts.The%20Fat%20Rats"#, status: 200,
            expect: .json(
                #"[ {"jsonb_search" :{"text_search": "It's kind of fun to do the impossible"}}, {"jsonb_search" :{"text_search": "But also fun to do what is possible"}}, {"jsonb_search" :{"text_search": "C'est un peu amusant de faire l'impossible"}}, {"jsonb_search" :{"text_search": "Es ist eine Art Spaß, das Unmögliche zu machen"}}]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=text_search&text_search=not.wfts("#,
            target: #"tsearch_to_tsvector?select=text_search&text_search=not.wfts(english).impossible%20or%20fat%20or%20fun"#, status: 200,
            expect: .json(#"[{"text_search": "Es ist eine Art Spaß, das Unmögliche zu machen"}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=jsonb_search&jsonb_search=not.wft"#,
            target: #"tsearch_to_tsvector?select=jsonb_search&jsonb_search=not.wfts(english).impossible%20or%20fat%20or%20fun"#, status: 200,
            expect: .json(#"[{"jsonb_search" :{"text_search": "Es ist eine Art Spaß, das Unmögliche zu machen"}}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=text_search&text_search=phfts.The"#,
            target: #"tsearch_to_tsvector?select=text_search&text_search=phfts.The%20Fat%20Cats"#, status: 200,
            expect: .json(#"[{"text_search": "Fat cats ate rats"}]"#), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#],
            onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=jsonb_search&jsonb_search=phfts.T"#,
            target: #"tsearch_to_tsvector?select=jsonb_search&jsonb_search=phfts.The%20Fat%20Cats"#, status: 200,
            expect: .json(#"[{"jsonb_search" :{"text_search": "Fat cats ate rats"}}]"#), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#],
            onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=text_search&text_search=phfts(ger"#,
            target: #"tsearch_to_tsvector?select=text_search&text_search=phfts(german).Art%20Spass"#, status: 200,
            expect: .json(#"[{"text_search": "Es ist eine Art Spaß, das Unmögliche zu machen"}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=jsonb_search&jsonb_search=phfts(g"#,
            target: #"tsearch_to_tsvector?select=jsonb_search&jsonb_search=phfts(german).Art%20Spass"#, status: 200,
            expect: .json(#"[{"jsonb_search" :{"text_search": "Es ist eine Art Spaß, das Unmögliche zu machen"}}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=text_search&text_search=not.phfts"#,
            target: #"tsearch_to_tsvector?select=text_search&text_search=not.phfts(english).The%20Fat%20Cats"#, status: 200,
            expect: .json(
                #"[ {"text_search": "It's kind of fun to do the impossible"}, {"text_search": "But also fun to do what is possible"}, {"text_search": "C'est un peu amusant de faire l'impossible"}, {"text_search": "Es ist eine Art Spaß, das Unmögliche zu machen"}]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=jsonb_search&jsonb_search=not.phf"#,
            target: #"tsearch_to_tsvector?select=jsonb_search&jsonb_search=not.phfts(english).The%20Fat%20Cats"#, status: 200,
            expect: .json(
                #"[ {"jsonb_search" :{"text_search": "It's kind of fun to do the impossible"}}, {"jsonb_search" :{"text_search": "But also fun to do what is possible"}}, {"jsonb_search" :{"text_search": "C'est un peu amusant de faire l'impossible"}}, {"jsonb_search" :{"text_search": "Es ist eine Art Spaß, das Unmögliche zu machen"}}]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=text_search&or=(text_search.phfts"#,
            target:
                #"tsearch_to_tsvector?select=text_search&or=(text_search.phfts(german).Art%20Spass, text_search.phfts(french).amusant, text_search.fts(english).impossible)"#,
            status: 200,
            expect: .json(
                #"[ {"text_search": "It's kind of fun to do the impossible"}, {"text_search": "C'est un peu amusant de faire l'impossible"}, {"text_search": "Es ist eine Art Spaß, das Unmögliche zu machen"}]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET tsearch_to_tsvector?select=jsonb_search&or=(jsonb_search.phf"#,
            target:
                #"tsearch_to_tsvector?select=jsonb_search&or=(jsonb_search.phfts(german).Art%20Spass, jsonb_search.phfts(french).amusant, jsonb_search.fts(english).impossible)"#,
            status: 200,
            expect: .json(
                #"[ {"jsonb_search" :{"text_search": "It's kind of fun to do the impossible"}}, {"jsonb_search" :{"text_search": "C'est un peu amusant de faire l'impossible"}}, {"jsonb_search" :{"text_search": "Es ist eine Art Spaß, das Unmögliche zu machen"}}]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(name: #"Query GET items?always_false=is.false"#, target: #"items?always_false=is.false"#, status: 400, onSpecTables: true),
        Case(
            name: #"Query GET projects?id=eq.1&select=id, name, clients(*), tasks(id, name"#,
            target: #"projects?id=eq.1&select=id, name, clients(*), tasks(id, name)"#, status: 200,
            expect: .json(
                #"[{"id":1,"name":"Windows 7","clients":{"id":1,"name":"Microsoft"},"tasks":[{"id":1,"name":"Design w7"},{"id":2,"name":"Code w7"}]}]"#),
            expectHeaders: [#"Content-Length"#: #"141"#, #"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET projects?id=eq.1&select=myId:id, name, project_client:client"#,
            target: #"projects?id=eq.1&select=myId:id, name, project_client:clients(*), project_tasks:tasks(id, name)"#, status: 200,
            expect: .json(
                #"[{"myId":1,"name":"Windows 7","project_client":{"id":1,"name":"Microsoft"},"project_tasks":[{"id":1,"name":"Design w7"},{"id":2,"name":"Code w7"}]}]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET users_tasks?user_id=eq.2&task_id=eq.6&select=*, comments(con"#,
            target: #"users_tasks?user_id=eq.2&task_id=eq.6&select=*, comments(content)"#, status: 200,
            expect: .json(#"[{"user_id":2,"task_id":6,"comments":[{"content":"Needs to be delivered ASAP"}]}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET students_info?select=address,students(name)"#, target: #"students_info?select=address,students(name)"#, status: 200,
            expect: .json(#"[{"address":"Street 1","students":{"name":"John Doe"}}, {"address":"Street 2","students":{"name":"Jane Doe"}}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET students?select=name,students_info(address)"#, target: #"students?select=name,students_info(address)"#, status: 200,
            expect: .json(#"[{"name":"John Doe","students_info":{"address":"Street 1"}},{"name":"Jane Doe","students_info":{"address":"Street 2"}}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET car_models?name=in.(DeLorean,Murcielago)&select=name,year,ca"#,
            target: #"car_models?name=in.(DeLorean,Murcielago)&select=name,year,car_brands(name)&order=name.asc"#, status: 200,
            expect: .json(
                #"[{"name":"DeLorean","year":1981,"car_brands":{"name":"DMC"}}, {"name":"Murcielago","year":2001,"car_brands":{"name":"Lamborghini"}}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET car_brands?select=name,car_models(name,year)&order=name.asc&"#,
            target: #"car_brands?select=name,car_models(name,year)&order=name.asc&car_models.order=name.asc"#, status: 200,
            expect: .json(
                #"[{"name":"DMC","car_models":[{"name":"DeLorean","year":1981}]}, {"name":"Ferrari","car_models":[{"name":"F310-B","year":1997}]}, {"name":"Lamborghini","car_models":[{"name":"Murcielago","year":2001},{"name":"Veneno","year":2013}]}]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET car_models?name=in.(DeLorean,F310-B)&select=name,year,car_ra"#,
            target: #"car_models?name=in.(DeLorean,F310-B)&select=name,year,car_racers(name)&order=name.asc"#, status: 200,
            expect: .json(#"[{"name":"DeLorean","year":1981,"car_racers":[]}, {"name":"F310-B","year":1997,"car_racers":[{"name":"Michael Schumacher"}]}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true)
    ]

    static let auditCasesB: [Case] = [
        Case(
            name: #"Query GET car_racers?select=name,car_models(name,year)&order=name.asc"#,
            target: #"car_racers?select=name,car_models(name,year)&order=name.asc"#, status: 200,
            expect: .json(#"[{"name":"Alain Prost","car_models":null}, {"name":"Michael Schumacher","car_models":{"name":"F310-B","year":1997}}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET car_models?name=in.(DeLorean,Murcielago,Veneno)&select=name,"#,
            target: #"car_models?name=in.(DeLorean,Murcielago,Veneno)&select=name,year,car_model_sales(date,quantity)&order=name.asc"#, status: 200,
            expect: .json(
                #"[{"name":"DeLorean","year":1981,"car_model_sales":[{"date":"2021-01-14","quantity":7},{"date":"2021-01-15","quantity":9}]}, {"name":"Murcielago","year":2001,"car_model_sales":[{"date":"2021-02-11","quantity":1},{"date":"2021-02-12","quantity":3}]}, {"name":"Veneno","year":2013,"car_model_sales":[]}]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET car_model_sales?date=in.(2021-01-15,2021-02-11)&select=date,"#,
            target: #"car_model_sales?date=in.(2021-01-15,2021-02-11)&select=date,quantity,car_models(name,year)&order=date.asc"#, status: 200,
            expect: .json(
                #"[{"date":"2021-01-15","quantity":9,"car_models":{"name":"DeLorean","year":1981}}, {"date":"2021-02-11","quantity":1,"car_models":{"name":"Murcielago","year":2001}}]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET car_models?select=name,year,car_dealers(name,city)&order=nam"#,
            target: #"car_models?select=name,year,car_dealers(name,city)&order=name.asc&limit=4"#, status: 200,
            expect: .json(
                #"[{"name":"DeLorean","year":1981,"car_dealers":[{"name":"Springfield Cars S.A.","city":"Springfield"}]}, {"name":"F310-B","year":1997,"car_dealers":[]}, {"name":"Murcielago","year":2001,"car_dealers":[{"name":"The Best Deals S.A.","city":"Franklin"}]}, {"name":"Veneno","year":2013,"car_dealers":[]}]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET projects_view?id=eq.1&select=id, name, clients(*), tasks(id,"#,
            target: #"projects_view?id=eq.1&select=id, name, clients(*), tasks(id, name)"#, status: 200,
            expect: .json(
                #"[{"id":1,"name":"Windows 7","clients":{"id":1,"name":"Microsoft"},"tasks":[{"id":1,"name":"Design w7"},{"id":2,"name":"Code w7"}]}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET items?id=lte.2&order=id"#, target: #"items?id=lte.2&order=id"#, status: 200, expect: .json(#"[{"id":1},{"id":2}]"#),
            expectHeaders: [#"Content-Range"#: #"0-1/*"#], onSpecTables: true),
        Case(name: #"Query GET items?order=id.asc"#, target: #"items?order=id.asc"#, status: 200, onSpecTables: true),
        Case(
            name: #"Query GET projects?id=eq.1&select=id, name, tasks(id, name)&tasks.orde"#,
            target: #"projects?id=eq.1&select=id, name, tasks(id, name)&tasks.order=name.asc"#, status: 200,
            expect: .json(#"[{"id":1,"name":"Windows 7","tasks":[{"id":2,"name":"Code w7"},{"id":1,"name":"Design w7"}]}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET projects?id=eq.1&select=id, name, the_tasks:tasks(id, name)&"#,
            target: #"projects?id=eq.1&select=id, name, the_tasks:tasks(id, name)&the_tasks.order=name.asc"#, status: 200,
            expect: .json(#"[{"id":1,"name":"Windows 7","the_tasks":[{"id":2,"name":"Code w7"},{"id":1,"name":"Design w7"}]}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET projects?id=eq.1&select=id, name, tasks(id, name, users(id, "#,
            target: #"projects?id=eq.1&select=id, name, tasks(id, name, users(id, name))&tasks.order=name.asc&tasks.users.order=name.desc"#, status: 200,
            expect: .json(
                #"[{"id":1,"name":"Windows 7","tasks":[{"id":2,"name":"Code w7","users":[{"id":1,"name":"Angela Martin"}]},{"id":1,"name":"Design w7","users":[{"id":3,"name":"Dwight Schrute"},{"id":1,"name":"Angela Martin"}]}]}]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET projects?id=eq.1&select=id, name, clients(id, name)&clients."#,
            target: #"projects?id=eq.1&select=id, name, clients(id, name)&clients.order=name.asc"#, status: 200,
            expect: .json(#"[{"id":1,"name":"Windows 7","clients":{"id":1,"name":"Microsoft"}}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET w_or_wo_comma_names?name=in.("Double\"Quote\"McGraw\"")"#, target: #"w_or_wo_comma_names?name=in.("Double\"Quote\"McGraw\"")"#,
            status: 200, expect: .json(#"[ { "name": "Double\"Quote\"McGraw\"" } ]"#), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#],
            onSpecTables: true),
        Case(
            name: #"Query GET w_or_wo_comma_names?name=in.("\\")"#, target: #"w_or_wo_comma_names?name=in.("\\")"#, status: 200,
            expect: .json(#"[{ "name": "\\" }]"#), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET w_or_wo_comma_names?name=in.("/\\Slash/\\Beast/\\")"#, target: #"w_or_wo_comma_names?name=in.("/\\Slash/\\Beast/\\")"#,
            status: 200, expect: .json(#"[ { "name": "/\\Slash/\\Beast/\\" } ]"#), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#],
            onSpecTables: true),
        Case(
            name: #"Query GET w_or_wo_comma_names?name=in.("D\a\vid W\h\ite")"#, target: #"w_or_wo_comma_names?name=in.("D\a\vid W\h\ite")"#, status: 200,
            expect: .json(#"[{ "name": "David White" }]"#), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET w_or_wo_comma_names?name=in.(")"#, target: #"w_or_wo_comma_names?name=in.(")"#, status: 200,
            expect: .json(#"[{ "name": "\"" }]"#), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET w_or_wo_comma_names?name=in.(Double"Quote"McGraw")"#, target: #"w_or_wo_comma_names?name=in.(Double"Quote"McGraw")"#, status: 200,
            expect: .json(#"[ { "name": "Double\"Quote\"McGraw\"" } ]"#), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#],
            onSpecTables: true),
        Case(
            name: #"Query GET items_with_different_col_types?int_data=in.()"#, target: #"items_with_different_col_types?int_data=in.()"#, status: 200,
            expect: .json(#"[]"#), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET items_with_different_col_types?text_data=in.()"#, target: #"items_with_different_col_types?text_data=in.()"#, status: 200,
            expect: .json(#"[]"#), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET items_with_different_col_types?bool_data=in.()"#, target: #"items_with_different_col_types?bool_data=in.()"#, status: 200,
            expect: .json(#"[]"#), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET items_with_different_col_types?bin_data=in.()"#, target: #"items_with_different_col_types?bin_data=in.()"#, status: 200,
            expect: .json(#"[]"#), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET items_with_different_col_types?char_data=in.()"#, target: #"items_with_different_col_types?char_data=in.()"#, status: 200,
            expect: .json(#"[]"#), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET items_with_different_col_types?date_data=in.()"#, target: #"items_with_different_col_types?date_data=in.()"#, status: 200,
            expect: .json(#"[]"#), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET items_with_different_col_types?real_data=in.()"#, target: #"items_with_different_col_types?real_data=in.()"#, status: 200,
            expect: .json(#"[]"#), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET items_with_different_col_types?time_data=in.()"#, target: #"items_with_different_col_types?time_data=in.()"#, status: 200,
            expect: .json(#"[]"#), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET items_with_different_col_types?int_data=not.in.()&select=int"#,
            target: #"items_with_different_col_types?int_data=not.in.()&select=int_data"#, status: 200, expect: .json(#"[{"int_data": 1}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET items_with_different_col_types?int_data=in.(    )"#, target: #"items_with_different_col_types?int_data=in.(    )"#, status: 200,
            expect: .json(#"[]"#), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET items_with_different_col_types?int_data=in.( ,3,4)"#, target: #"items_with_different_col_types?int_data=in.( ,3,4)"#, status: 400,
            expect: .json(#"{"hint":null,"details":null,"code":"22P02","message":"invalid input syntax for type integer: \"\""}"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET being?select=*,descendant(*)&limit=1"#, target: #"being?select=*,descendant(*)&limit=1"#, status: 200,
            expect: .json(#"[{"being":1,"descendant":[{"descendant":1,"being":1},{"descendant":2,"being":1},{"descendant":3,"being":1}]}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET being?select=*,part(*)&limit=1"#, target: #"being?select=*,part(*)&limit=1"#, status: 200,
            expect: .json(#"[{"being":1,"part":[{"part":1}]}]"#), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET articles?body=like(any).{%plan%,%brain%}&select=id"#, target: #"articles?body=like(any).{%plan%,%brain%}&select=id"#, status: 200,
            expect: .json(#"[ {"id":1}, {"id":2} ]"#), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET articles?body=ilike(all).{%plan%,%greatness%}&select=id"#, target: #"articles?body=ilike(all).{%plan%,%greatness%}&select=id"#,
            status: 200, expect: .json(#"[ {"id":1} ]"#), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Query GET places?select=name,visits(id,start_time,visit_type),work_vis"#,
            target:
                #"places?select=name,visits(id,start_time,visit_type),work_visits:visits(id,start_time,visit_type)&id=eq.1&visits.visit_type=neq.work&visits.start_time=gt.20250101+00:00&work_visits.visit_type=eq.work&work_visits.start_time=gt.20250101+00:00"#,
            status: 200,
            expect: .json(
                #"[ { "name":"Lake", "visits":[{"id": 1, "start_time": "2025-01-01T10:00:00", "visit_type": "vacation"}, {"id": 2, "start_time": "2025-01-01T15:00:00", "visit_type": "vacation"}], "work_visits":[{"id": 3, "start_time": "2025-01-01T20:00:00", "visit_type": "work"}] } ]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Insert POST car_models"#, method: "POST", target: #"car_models"#, headers: [#"Prefer"#: #"return=headers-only"#],
            body: #"{"name":"Enzo","year":2021}"#, status: 201, expect: .exact(#""#),
            expectHeaders: [
                #"Location"#: #"/car_models?name=eq.Enzo&year=eq.2021"#, #"Content-Range"#: #"*/*"#, #"Content-Length"#: #"0"#,
                #"Preference-Applied"#: #"return=headers-only"#
            ], expectAbsent: [#"Content-Type"#], onSpecTables: true),
        Case(
            name: #"Insert POST withUnique"#, method: "POST", target: #"withUnique"#, body: #"{ "uni":"nodup", "extra":"e2" }"#, status: 409, onSpecTables: true
        ),
        Case(
            name: #"Insert POST tbl_w_json"#, method: "POST", target: #"tbl_w_json"#, headers: [#"Prefer"#: #"return=representation"#],
            body: #"{ "data": { "a": 1, "a": 2 }, "id": 3 }"#, status: 201, expect: .json(#"[ { "data": { "a": 1, "a": 2 }, "id": 3 } ]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Insert POST simple_pk2?select=extra,k"#, method: "POST", target: #"simple_pk2?select=extra,k"#,
            headers: [#"Prefer"#: #"return=representation"#], body: #"{ "k":"棋圍", "extra":"￥" }"#, status: 201,
            expect: .json(#"[ { "k":"棋圍", "extra":"￥" } ]"#), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Update PATCH empty_table"#, method: "PATCH", target: #"empty_table"#, body: #"{ "extra":20 }"#, status: 204, expect: .exact(#""#),
            expectAbsent: [#"Content-Type"#, #"Content-Length"#], onSpecTables: true),
        Case(
            name: #"Update PATCH items?id=eq.1&select=id"#, method: "PATCH", target: #"items?id=eq.1&select=id"#, headers: [#"Prefer"#: #"return=minimal"#],
            body: #"{ "id":1 }"#, status: 204, expect: .exact(#""#), expectHeaders: [#"Content-Range"#: #"0-0/*"#, #"Preference-Applied"#: #"return=minimal"#],
            expectAbsent: [#"Content-Type"#, #"Content-Length"#], onSpecTables: true),
        Case(
            name: #"Update PATCH complex_items?id=eq.3&columns=name,field-with_sep"#, method: "PATCH",
            target: #"complex_items?id=eq.3&columns=name,field-with_sep"#, headers: [#"Prefer"#: #"return=representation"#, #"Prefer"#: #"missing=default"#],
            body: #"{"name": "Tres"}"#, status: 200,
            expect: .json(#"[ {"id":3,"name":"Tres","settings":{"foo":{"int":1,"bar":"baz"}},"arr_data":[1,2,3],"field-with_sep":1} ]"#),
            expectHeaders: [#"Preference-Applied"#: #"missing=default, return=representation"#], onSpecTables: true),
        Case(
            name: #"Update PATCH web_content?id=eq.0&select=name,web_content(name)"#, method: "PATCH",
            target: #"web_content?id=eq.0&select=name,web_content(name)"#, headers: [#"Prefer"#: #"return=representation"#],
            body: #"{"name": "tardis-patched"}"#, status: 200,
            expect: .json(#"[ { "name": "tardis-patched", "web_content": [ { "name": "fezz" }, { "name": "foo" }, { "name": "bar" } ]} ]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#, #"Preference-Applied"#: #"return=representation"#], onSpecTables: true),
        Case(
            name: #"Update PATCH app_users?id=eq.1"#, method: "PATCH", target: #"app_users?id=eq.1"#, headers: [#"Prefer"#: #"return=minimal"#],
            body: #"{ "password": "passxyz" }"#, status: 204, expect: .exact(#""#), expectHeaders: [#"Preference-Applied"#: #"return=minimal"#],
            expectAbsent: [#"Content-Type"#, #"Content-Length"#], onSpecTables: true),
        Case(
            name: #"Update PATCH app_users?id=eq.1"#, method: "PATCH", target: #"app_users?id=eq.1"#, body: #"{ "password": "passabc" }"#, status: 204,
            expect: .exact(#""#), expectAbsent: [#"Content-Type"#, #"Content-Length"#], onSpecTables: true),
        Case(
            name: #"Upsert POST car_models"#, method: "POST", target: #"car_models"#,
            headers: [#"Prefer"#: #"return=representation"#, #"Prefer"#: #"resolution=merge-duplicates"#],
            body:
                #"[               { "name": "Murcielago", "year": 2001, "car_brand_name": null},               { "name": "Roma", "year": 2021, "car_brand_name": "Ferrari" }             ]"#,
            status: 201,
            expect: .json(#"[ { "name": "Murcielago", "year": 2001, "car_brand_name": null}, { "name": "Roma", "year": 2021, "car_brand_name": "Ferrari" } ]"#),
            expectHeaders: [
                #"Preference-Applied"#: #"resolution=merge-duplicates, return=representation"#, #"Content-Type"#: #"application/json; charset=utf-8"#
            ], onSpecTables: true),
        Case(
            name: #"Upsert POST car_models"#, method: "POST", target: #"car_models"#,
            headers: [#"Prefer"#: #"return=representation"#, #"Prefer"#: #"resolution=ignore-duplicates"#],
            body:
                #"[               { "name": "Murcielago", "year": 2001, "car_brand_name": "Ferrari" },               { "name": "Huracán", "year": 2021, "car_brand_name": "Lamborghini" }             ]"#,
            status: 201, expect: .json(#"[ { "name": "Huracán", "year": 2021, "car_brand_name": "Lamborghini" } ]"#),
            expectHeaders: [
                #"Preference-Applied"#: #"resolution=ignore-duplicates, return=representation"#, #"Content-Type"#: #"application/json; charset=utf-8"#
            ], onSpecTables: true),
        Case(
            name: #"Upsert PUT employees?last_name=eq.Heidt"#, method: "PUT", target: #"employees?last_name=eq.Heidt"#,
            body: #"[ { "first_name": "Susan", "last_name": "Heidt", "salary": "48000", "company": "GEX", "occupation": "Railroad engineer" } ]"#, status: 405,
            expect: .json(
                #"{"message":"Filters must include all and only primary key columns with 'eq' operators","code":"PGRST105","details":null,"hint":null}"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Upsert GET car_models?name=eq.Supra&year=eq.2021"#, target: #"car_models?name=eq.Supra&year=eq.2021"#, status: 200, expect: .json(#"[]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Upsert PUT car_models?name=eq.Supra&year=eq.2021"#, method: "PUT", target: #"car_models?name=eq.Supra&year=eq.2021"#,
            headers: [#"Prefer"#: #"return=representation"#], body: #"[ { "name": "Supra", "year": 2021 } ]"#, status: 201,
            expect: .json(#"[ { "name": "Supra", "year": 2021, "car_brand_name": null } ]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Upsert GET car_models?name=eq.DeLorean&year=eq.1981"#, target: #"car_models?name=eq.DeLorean&year=eq.1981"#, status: 200,
            expect: .json(#"[ { "name": "DeLorean", "year": 1981, "car_brand_name": "DMC" } ]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Upsert PUT car_models?name=eq.DeLorean&year=eq.1981"#, method: "PUT", target: #"car_models?name=eq.DeLorean&year=eq.1981"#,
            headers: [#"Prefer"#: #"return=representation"#], body: #"[ { "name": "DeLorean", "year": 1981, "car_brand_name": null } ]"#, status: 200,
            expect: .json(#"[ { "name": "DeLorean", "year": 1981, "car_brand_name": null } ]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"SpreadQueries GET users?select=*,tasks:users_tasks(...tasks(*))&limit=1"#,
            target: #"users?select=*,tasks:users_tasks(...tasks(*))&limit=1"#, status: 200,
            expect: .json(
                #"[{ "id":1,"name":"Angela Martin", "tasks":[ {"id":1,"name":"Design w7","project_id":1}, {"id":2,"name":"Code w7","project_id":1}, {"id":3,"name":"Design w10","project_id":2}, {"id":4,"name":"Code w10","project_id":2} ] }]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"SpreadQueries GET factories?select=factory:name,...processes(name)&order=name"#,
            target: #"factories?select=factory:name,...processes(name)&order=name"#, status: 200,
            expect: .json(
                #"[ {"factory":"Factory A","name":["Process A1", "Process A2"]}, {"factory":"Factory B","name":["Process B1", "Process B2"]}, {"factory":"Factory C","name":["Process C1", "Process C2", "Process XX", "Process YY"]}, {"factory":"Factory D","name":[]} ]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"SpreadQueries GET factories?select=factory:name,...processes(processes:name,ca"#,
            target: #"factories?select=factory:name,...processes(processes:name,categories:category_id)&order=name"#, status: 200,
            expect: .json(
                #"[ {"factory":"Factory A","processes":["Process A1", "Process A2"],"categories":[1, 2]}, {"factory":"Factory B","processes":["Process B1", "Process B2"],"categories":[1, 1]}, {"factory":"Factory C","processes":["Process C1", "Process C2", "Process XX", "Process YY"],"categories":[2, 2, 2, 2]}, {"factory":"Factory D","processes":[],"categories":[]} ]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"SpreadQueries GET factories?select=factory:name,...processes(*)&order=name"#,
            target: #"factories?select=factory:name,...processes(*)&order=name"#, status: 200,
            expect: .json(
                #"[ {"factory":"Factory A","id":[1, 2],"name":["Process A1", "Process A2"],"factory_id":[1, 1],"category_id":[1, 2]}, {"factory":"Factory B","id":[3, 4],"name":["Process B1", "Process B2"],"factory_id":[2, 2],"category_id":[1, 1]}, {"factory":"Factory C","id":[5, 6, 7, 8],"name":["Process C1", "Process C2", "Process XX", "Process YY"],"factory_id":[3, 3, 3, 3],"category_id":[2, 2, 2, 2]}, {"factory":"Factory D","id":[],"name":[],"factory_id":[],"category_id":[]} ]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"SpreadQueries GET factories?select=factory:name,...processes(process:name,...p"#,
            target: #"factories?select=factory:name,...processes(process:name,...process_categories(categories:name))&order=name&processes.order=name"#,
            status: 200,
            expect: .json(
                #"[ {"factory":"Factory A","process":["Process A1", "Process A2"],"categories":["Batch", "Mass"]}, {"factory":"Factory B","process":["Process B1", "Process B2"],"categories":["Batch", "Batch"]}, {"factory":"Factory C","process":["Process C1", "Process C2", "Process XX", "Process YY"],"categories":["Mass", "Mass", "Mass", "Mass"]}, {"factory":"Factory D","process":[],"categories":[]} ]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"SpreadQueries GET factories?select=factory:name,...processes(process:name,proc"#,
            target: #"factories?select=factory:name,...processes(process:name,process_costs(cost))&order=name&processes.order=name"#, status: 200,
            expect: .json(
                #"[ {"factory":"Factory A","process":["Process A1", "Process A2"],"process_costs":[{"cost": 150.00}, {"cost": 200.00}]}, {"factory":"Factory B","process":["Process B1", "Process B2"],"process_costs":[{"cost": 180.00}, {"cost": 70.00}]}, {"factory":"Factory C","process":["Process C1", "Process C2", "Process XX", "Process YY"],"process_costs":[{"cost": 40.00}, {"cost": 70.00}, null, {"cost": 40.00}]}, {"factory":"Factory D","process":[],"process_costs":[]} ]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"SpreadQueries GET factories?select=factory:name,...processes(process:name,proc"#,
            target: #"factories?select=factory:name,...processes(process:name,process_categories(name))&order=name&processes.order=name"#, status: 200,
            expect: .json(
                #"[ {"factory":"Factory A","process":["Process A1", "Process A2"],"process_categories":[{"name": "Batch"}, {"name": "Mass"}]}, {"factory":"Factory B","process":["Process B1", "Process B2"],"process_categories":[{"name": "Batch"}, {"name": "Batch"}]}, {"factory":"Factory C","process":["Process C1", "Process C2", "Process XX", "Process YY"],"process_categories":[{"name": "Mass"}, {"name": "Mass"}, {"name": "Mass"}, {"name": "Mass"}]}, {"factory":"Factory D","process":[],"process_categories":[]} ]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"SpreadQueries GET factories?select=factory:name,...processes(process:name,proc"#,
            target:
                #"factories?select=factory:name,...processes(process:name,process_supervisor(supervisor_id))&order=name&processes.order=name&processes.process_supervisor.order=supervisor_id"#,
            status: 200,
            expect: .json(
                #"[ {"factory":"Factory A","process":["Process A1", "Process A2"],"process_supervisor":[[{"supervisor_id": 1}], [{"supervisor_id": 2}]]}, {"factory":"Factory B","process":["Process B1", "Process B2"],"process_supervisor":[[{"supervisor_id": 3}, {"supervisor_id": 4}], [{"supervisor_id": 1}, {"supervisor_id": 2}]]}, {"factory":"Factory C","process":["Process C1", "Process C2", "Process XX", "Process YY"],"process_supervisor":[[{"supervisor_id": 3}], [{"supervisor_id": 3}], [], []]}, {"factory":"Factory D","process":[],"process_supervisor":[]} ]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"SpreadQueries GET factories?select=factory:name,...processes(process:name,supe"#,
            target:
                #"factories?select=factory:name,...processes(process:name,supervisors(name))&order=name&processes.order=name&processes.supervisors.order=name"#,
            status: 200,
            expect: .json(
                #"[ {"factory":"Factory A","process":["Process A1", "Process A2"],"supervisors":[[{"name": "Mary"}], [{"name": "John"}]]}, {"factory":"Factory B","process":["Process B1", "Process B2"],"supervisors":[[{"name": "Peter"}, {"name": "Sarah"}], [{"name": "John"}, {"name": "Mary"}]]}, {"factory":"Factory C","process":["Process C1", "Process C2", "Process XX", "Process YY"],"supervisors":[[{"name": "Peter"}], [{"name": "Peter"}], [], []]}, {"factory":"Factory D","process":[],"supervisors":[]} ]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"SpreadQueries GET factories?select=factory:name,...processes(*,...process_cost"#,
            target: #"factories?select=factory:name,...processes(*,...process_costs(*))&order=name&processes.order=name"#, status: 200,
            expect: .json(
                #"[ {"factory":"Factory A","id":[1, 2],"name":["Process A1", "Process A2"],"factory_id":[1, 1],"category_id":[1, 2],"process_id":[1, 2],"cost":[150.00, 200.00]}, {"factory":"Factory B","id":[3, 4],"name":["Process B1", "Process B2"],"factory_id":[2, 2],"category_id":[1, 1],"process_id":[3, 4],"cost":[180.00, 70.00]}, {"factory":"Factory C","id":[5, 6, 7, 8],"name":["Process C1", "Process C2", "Process XX", "Process YY"],"factory_id":[3, 3, 3, 3],"category_id":[2, 2, 2, 2],"process_id":[5, 6, null, 8],"cost":[40.00, 70.00, null, 40.00]}, {"factory":"Factory D","id":[],"name":[],"factory_id":[],"category_id":[],"process_id":[],"cost":[]} ]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"SpreadQueries GET factories?select=factory:name,...processes(*)&processes.orde"#,
            target: #"factories?select=factory:name,...processes(*)&processes.order=category_id.asc,name.desc&order=name"#, status: 200,
            expect: .json(
                #"[ {"factory":"Factory A","id":[1, 2],"name":["Process A1", "Process A2"],"factory_id":[1, 1],"category_id":[1, 2]}, {"factory":"Factory B","id":[4, 3],"name":["Process B2", "Process B1"],"factory_id":[2, 2],"category_id":[1, 1]}, {"factory":"Factory C","id":[8, 7, 6, 5],"name":["Process YY", "Process XX", "Process C2", "Process C1"],"factory_id":[3, 3, 3, 3],"category_id":[2, 2, 2, 2]}, {"factory":"Factory D","id":[],"name":[],"factory_id":[],"category_id":[]} ]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"SpreadQueries GET factories?select=factory:name,...factory_buildings(*)&factor"#,
            target:
                #"factories?select=factory:name,...factory_buildings(*)&factory_buildings.order=inspections->pending.asc.nullsfirst,inspections->ins.desc&order=name"#,
            status: 200,
            expect: .json(
                #"[ {"factory":"Factory A","id":[2, 1],"code":["A002", "A001"],"size":[200, 150],"type":["A", "A"],"factory_id":[1, 1],"inspections":[{"ins": "2025A", "pending": true}, {"ins": "2024C", "pending": true}]}, {"factory":"Factory B","id":[4, 3],"code":["B002", "B001"],"size":[120, 50],"type":["C", "B"],"factory_id":[2, 2],"inspections":[{"ins": "2023A"}, {"ins": "2025A", "pending": true}]}, {"factory":"Factory C","id":[5],"code":["C001"],"size":[240],"type":["B"],"factory_id":[3],"inspections":[{"ins": "2022B"}]}, {"factory":"Factory D","id":[6],"code":["D001"],"size":[310],"type":["A"],"factory_id":[4],"inspections":[{"ins": "2024C", "pending": true}]} ]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"SpreadQueries GET operators?select=operator:name,...processes(processes:name)&"#,
            target: #"operators?select=operator:name,...processes(processes:name)&order=name&processes.order=name"#, status: 200,
            expect: .json(
                #"[ {"operator":"Alfred","processes":["Process C2", "Process XX"]}, {"operator":"Anne","processes":["Process A1", "Process A2", "Process B2"]}, {"operator":"Jeff","processes":["Process A2", "Process B1", "Process B2", "Process C2"]}, {"operator":"Liz","processes":[]}, {"operator":"Louis","processes":["Process A1", "Process A2"]} ]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"SpreadQueries GET operators?select=operator:name,...processes(name,category_id"#,
            target: #"operators?select=operator:name,...processes(name,category_id)&order=name&processes.order=name"#, status: 200,
            expect: .json(
                #"[ {"operator":"Alfred","name":["Process C2", "Process XX"],"category_id":[2, 2]}, {"operator":"Anne","name":["Process A1", "Process A2", "Process B2"],"category_id":[1, 2, 1]}, {"operator":"Jeff","name":["Process A2", "Process B1", "Process B2", "Process C2"],"category_id":[2, 1, 1, 2]}, {"operator":"Liz","name":[],"category_id":[]}, {"operator":"Louis","name":["Process A1", "Process A2"],"category_id":[1, 2]} ]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true)
    ]

    static let auditCasesC: [Case] = [
        Case(
            name: #"SpreadQueries GET operators?select=operator:name,...processes(processes:name,c"#,
            target: #"operators?select=operator:name,...processes(processes:name,categories:category_id)&order=name&processes.order=name"#, status: 200,
            expect: .json(
                #"[ {"operator":"Alfred","processes":["Process C2", "Process XX"],"categories":[2, 2]}, {"operator":"Anne","processes":["Process A1", "Process A2", "Process B2"],"categories":[1, 2, 1]}, {"operator":"Jeff","processes":["Process A2", "Process B1", "Process B2", "Process C2"],"categories":[2, 1, 1, 2]}, {"operator":"Liz","processes":[],"categories":[]}, {"operator":"Louis","processes":["Process A1", "Process A2"],"categories":[1, 2]} ]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"SpreadQueries GET operators?select=operator:name,...processes(*)&order=name&pr"#,
            target: #"operators?select=operator:name,...processes(*)&order=name&processes.order=name"#, status: 200,
            expect: .json(
                #"[ {"operator":"Alfred","id":[6, 7],"name":["Process C2", "Process XX"],"factory_id":[3, 3],"category_id":[2, 2]}, {"operator":"Anne","id":[1, 2, 4],"name":["Process A1", "Process A2", "Process B2"],"factory_id":[1, 1, 2],"category_id":[1, 2, 1]}, {"operator":"Jeff","id":[2, 3, 4, 6],"name":["Process A2", "Process B1", "Process B2", "Process C2"],"factory_id":[1, 2, 2, 3],"category_id":[2, 1, 1, 2]}, {"operator":"Liz","id":[],"name":[],"factory_id":[],"category_id":[]}, {"operator":"Louis","id":[1, 2],"name":["Process A1", "Process A2"],"factory_id":[1, 1],"category_id":[1, 2]} ]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"SpreadQueries GET operators?select=operator:name,...processes(process:name,..."#,
            target: #"operators?select=operator:name,...processes(process:name,...process_costs(process_costs:cost))&order=name&processes.order=name"#,
            status: 200,
            expect: .json(
                #"[ {"operator":"Alfred","process":["Process C2", "Process XX"],"process_costs":[70.00, null]}, {"operator":"Anne","process":["Process A1", "Process A2", "Process B2"],"process_costs":[150.00, 200.00, 70.00]}, {"operator":"Jeff","process":["Process A2", "Process B1", "Process B2", "Process C2"],"process_costs":[200.00, 180.00, 70.00, 70.00]}, {"operator":"Liz","process":[],"process_costs":[]}, {"operator":"Louis","process":["Process A1", "Process A2"],"process_costs":[150.00, 200.00]} ]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"SpreadQueries GET operators?select=operator:name,...processes(process:name,..."#,
            target: #"operators?select=operator:name,...processes(process:name,...process_categories(categories:name))&order=name&processes.order=name"#,
            status: 200,
            expect: .json(
                #"[ {"operator":"Alfred","process":["Process C2", "Process XX"],"categories":["Mass", "Mass"]}, {"operator":"Anne","process":["Process A1", "Process A2", "Process B2"],"categories":["Batch", "Mass", "Batch"]}, {"operator":"Jeff","process":["Process A2", "Process B1", "Process B2", "Process C2"],"categories":["Mass", "Batch", "Batch", "Mass"]}, {"operator":"Liz","process":[],"categories":[]}, {"operator":"Louis","process":["Process A1", "Process A2"],"categories":["Batch", "Mass"]} ]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"SpreadQueries GET operators?select=operator:name,...processes(process:name,..."#,
            target:
                #"operators?select=operator:name,...processes(process:name,...process_supervisor(supervisor_ids:supervisor_id))&order=name&processes.order=name"#,
            status: 200,
            expect: .json(
                #"[ {"operator":"Alfred","process":["Process C2", "Process XX"],"supervisor_ids":[[3], []]}, {"operator":"Anne","process":["Process A1", "Process A2", "Process B2"],"supervisor_ids":[[1], [2], [1, 2]]}, {"operator":"Jeff","process":["Process A2", "Process B1", "Process B2", "Process C2"],"supervisor_ids":[[2], [3, 4], [1, 2], [3]]}, {"operator":"Liz","process":[],"supervisor_ids":[]}, {"operator":"Louis","process":["Process A1", "Process A2"],"supervisor_ids":[[1], [2]]} ]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"SpreadQueries GET operators?select=operator:name,...processes(process:name,..."#,
            target: #"operators?select=operator:name,...processes(process:name,...supervisors(supervisors:name))&order=name&processes.order=name"#, status: 200,
            expect: .json(
                #"[ {"operator":"Alfred","process":["Process C2", "Process XX"],"supervisors":[["Peter"], []]}, {"operator":"Anne","process":["Process A1", "Process A2", "Process B2"],"supervisors":[["Mary"], ["John"], ["Mary", "John"]]}, {"operator":"Jeff","process":["Process A2", "Process B1", "Process B2", "Process C2"],"supervisors":[["John"], ["Peter", "Sarah"], ["Mary", "John"], ["Peter"]]}, {"operator":"Liz","process":[],"supervisors":[]}, {"operator":"Louis","process":["Process A1", "Process A2"],"supervisors":[["Mary"], ["John"]]} ]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"SpreadQueries GET operators?select=operator:name,...processes(process:name,pro"#,
            target: #"operators?select=operator:name,...processes(process:name,process_costs(cost))&order=name&processes.order=name"#, status: 200,
            expect: .json(
                #"[ {"operator":"Alfred","process":["Process C2", "Process XX"],"process_costs":[{"cost": 70.00}, null]}, {"operator":"Anne","process":["Process A1", "Process A2", "Process B2"],"process_costs":[{"cost": 150.00}, {"cost": 200.00}, {"cost": 70.00}]}, {"operator":"Jeff","process":["Process A2", "Process B1", "Process B2", "Process C2"],"process_costs":[{"cost": 200.00}, {"cost": 180.00}, {"cost": 70.00}, {"cost": 70.00}]}, {"operator":"Liz","process":[],"process_costs":[]}, {"operator":"Louis","process":["Process A1", "Process A2"],"process_costs":[{"cost": 150.00}, {"cost": 200.00}]} ]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"SpreadQueries GET operators?select=operator:name,...processes(process:name,pro"#,
            target: #"operators?select=operator:name,...processes(process:name,process_categories(name))&order=name&processes.order=name"#, status: 200,
            expect: .json(
                #"[ {"operator":"Alfred","process":["Process C2", "Process XX"],"process_categories":[{"name": "Mass"}, {"name": "Mass"}]}, {"operator":"Anne","process":["Process A1", "Process A2", "Process B2"],"process_categories":[{"name": "Batch"}, {"name": "Mass"}, {"name": "Batch"}]}, {"operator":"Jeff","process":["Process A2", "Process B1", "Process B2", "Process C2"],"process_categories":[{"name": "Mass"}, {"name": "Batch"}, {"name": "Batch"}, {"name": "Mass"}]}, {"operator":"Liz","process":[],"process_categories":[]}, {"operator":"Louis","process":["Process A1", "Process A2"],"process_categories":[{"name": "Batch"}, {"name": "Mass"}]} ]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"SpreadQueries GET operators?select=operator:name,...processes(process:name,pro"#,
            target: #"operators?select=operator:name,...processes(process:name,process_supervisor(supervisor_id))&order=name&processes.order=name"#,
            status: 200,
            expect: .json(
                #"[ {"operator":"Alfred","process":["Process C2", "Process XX"],"process_supervisor":[[{"supervisor_id": 3}], []]}, {"operator":"Anne","process":["Process A1", "Process A2", "Process B2"],"process_supervisor":[[{"supervisor_id": 1}], [{"supervisor_id": 2}], [{"supervisor_id": 1}, {"supervisor_id": 2}]]}, {"operator":"Jeff","process":["Process A2", "Process B1", "Process B2", "Process C2"],"process_supervisor":[[{"supervisor_id": 2}], [{"supervisor_id": 3}, {"supervisor_id": 4}], [{"supervisor_id": 1}, {"supervisor_id": 2}], [{"supervisor_id": 3}]]}, {"operator":"Liz","process":[],"process_supervisor":[]}, {"operator":"Louis","process":["Process A1", "Process A2"],"process_supervisor":[[{"supervisor_id": 1}], [{"supervisor_id": 2}]]} ]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"SpreadQueries GET operators?select=operator:name,...processes(process:name,sup"#,
            target: #"operators?select=operator:name,...processes(process:name,supervisors(name))&order=name&processes.order=name"#, status: 200,
            expect: .json(
                #"[ {"operator":"Alfred","process":["Process C2", "Process XX"],"supervisors":[[{"name": "Peter"}], []]}, {"operator":"Anne","process":["Process A1", "Process A2", "Process B2"],"supervisors":[[{"name": "Mary"}], [{"name": "John"}], [{"name": "Mary"}, {"name": "John"}]]}, {"operator":"Jeff","process":["Process A2", "Process B1", "Process B2", "Process C2"],"supervisors":[[{"name": "John"}], [{"name": "Peter"}, {"name": "Sarah"}], [{"name": "Mary"}, {"name": "John"}], [{"name": "Peter"}]]}, {"operator":"Liz","process":[],"supervisors":[]}, {"operator":"Louis","process":["Process A1", "Process A2"],"supervisors":[[{"name": "Mary"}], [{"name": "John"}]]} ]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"SpreadQueries GET operators?select=operator:name,...processes(*,...process_cos"#,
            target: #"operators?select=operator:name,...processes(*,...process_costs(*))&order=name&processes.order=name"#, status: 200,
            expect: .json(
                #"[ {"operator":"Alfred","id":[6, 7],"name":["Process C2", "Process XX"],"factory_id":[3, 3],"category_id":[2, 2],"process_id":[6, null],"cost":[70.00, null]}, {"operator":"Anne","id":[1, 2, 4],"name":["Process A1", "Process A2", "Process B2"],"factory_id":[1, 1, 2],"category_id":[1, 2, 1],"process_id":[1, 2, 4],"cost":[150.00, 200.00, 70.00]}, {"operator":"Jeff","id":[2, 3, 4, 6],"name":["Process A2", "Process B1", "Process B2", "Process C2"],"factory_id":[1, 2, 2, 3],"category_id":[2, 1, 1, 2],"process_id":[2, 3, 4, 6],"cost":[200.00, 180.00, 70.00, 70.00]}, {"operator":"Liz","id":[],"name":[],"factory_id":[],"category_id":[],"process_id":[],"cost":[]}, {"operator":"Louis","id":[1, 2],"name":["Process A1", "Process A2"],"factory_id":[1, 1],"category_id":[1, 2],"process_id":[1, 2],"cost":[150.00, 200.00]} ]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"SpreadQueries GET supervisors?select=supervisor:name,...processes(*)&processes"#,
            target: #"supervisors?select=supervisor:name,...processes(*)&processes.name=not.like.*1&order=name&processes.order=name"#, status: 200,
            expect: .json(
                #"[ {"supervisor":"Jane","id":[],"name":[],"factory_id":[],"category_id":[]}, {"supervisor":"John","id":[2, 4],"name":["Process A2", "Process B2"],"factory_id":[1, 2],"category_id":[2, 1]}, {"supervisor":"Mary","id":[4],"name":["Process B2"],"factory_id":[2],"category_id":[1]}, {"supervisor":"Peter","id":[6],"name":["Process C2"],"factory_id":[3],"category_id":[2]}, {"supervisor":"Sarah","id":[],"name":[],"factory_id":[],"category_id":[]} ]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"SpreadQueries GET supervisors?select=supervisor:name,...processes(name)&proces"#,
            target: #"supervisors?select=supervisor:name,...processes(name)&processes=not.is.null&order=name&processes.order=name"#, status: 200,
            expect: .json(
                #"[ {"supervisor":"John","name":["Process A2", "Process B2"]}, {"supervisor":"Mary","name":["Process A1", "Process B2"]}, {"supervisor":"Peter","name":["Process B1", "Process C1", "Process C2"]}, {"supervisor":"Sarah","name":["Process B1"]} ]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"SpreadQueries GET supervisors?select=supervisor:name,...processes(*)&processes"#,
            target: #"supervisors?select=supervisor:name,...processes(*)&processes.order=category_id.asc,name.desc&order=name"#, status: 200,
            expect: .json(
                #"[ {"supervisor":"Jane","id":[],"name":[],"factory_id":[],"category_id":[]}, {"supervisor":"John","id":[4, 2],"name":["Process B2", "Process A2"],"factory_id":[2, 1],"category_id":[1, 2]}, {"supervisor":"Mary","id":[4, 1],"name":["Process B2", "Process A1"],"factory_id":[2, 1],"category_id":[1, 1]}, {"supervisor":"Peter","id":[3, 6, 5],"name":["Process B1", "Process C2", "Process C1"],"factory_id":[2, 3, 3],"category_id":[1, 2, 2]}, {"supervisor":"Sarah","id":[3],"name":["Process B1"],"factory_id":[2],"category_id":[1]} ]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"SpreadQueries GET processes?select=process:name,...operators(*)&operators.orde"#,
            target: #"processes?select=process:name,...operators(*)&operators.order=status->afk.asc.nullsfirst,status->id.desc&order=name"#, status: 200,
            expect: .json(
                #"[ {"process":"Process A1","id":[2, 1],"name":["Louis", "Anne"],"status":[{"id": "012345"}, {"id": "543210", "afk": true}]}, {"process":"Process A2","id":[2, 3, 1],"name":["Louis", "Jeff", "Anne"],"status":[{"id": "012345"}, {"id": "666666", "afk": true}, {"id": "543210", "afk": true}]}, {"process":"Process B1","id":[3],"name":["Jeff"],"status":[{"id": "666666", "afk": true}]}, {"process":"Process B2","id":[3, 1],"name":["Jeff", "Anne"],"status":[{"id": "666666", "afk": true}, {"id": "543210", "afk": true}]}, {"process":"Process C1","id":[],"name":[],"status":[]}, {"process":"Process C2","id":[5, 3],"name":["Alfred", "Jeff"],"status":[{"id": "000000"}, {"id": "666666", "afk": true}]}, {"process":"Process XX","id":[5],"name":["Alfred"],"status":[{"id": "000000"}]}, {"process":"Process YY","id":[],"name":[],"status":[]} ]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"SpreadQueries GET supervisors?select=supervisor:name,...processes(name)&proces"#,
            target: #"supervisors?select=supervisor:name,...processes(name)&processes.order=category_id.asc,name.desc&order=name"#, status: 200,
            expect: .json(
                #"[ {"supervisor":"Jane","name":[]}, {"supervisor":"John","name":["Process B2", "Process A2"]}, {"supervisor":"Mary","name":["Process B2", "Process A1"]}, {"supervisor":"Peter","name":["Process B1", "Process C2", "Process C1"]}, {"supervisor":"Sarah","name":["Process B1"]} ]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Range GET items?order=id"#, target: #"items?order=id"#, headers: [#"Prefer"#: #"count=none"#], status: 200,
            expect: .json(
                #"[{"id":1},{"id":2},{"id":3},{"id":4},{"id":5},{"id":6},{"id":7},{"id":8},{"id":9},{"id":10},{"id":11},{"id":12},{"id":13},{"id":14},{"id":15}]"#
            ), expectHeaders: [#"Content-Range"#: #"0-14/*"#], onSpecTables: true),
        Case(
            name: #"Range GET items?select=id&order=id.asc"#, target: #"items?select=id&order=id.asc"#, status: 200,
            expect: .json(
                #"[{"id":1},{"id":2},{"id":3},{"id":4},{"id":5},{"id":6},{"id":7},{"id":8},{"id":9},{"id":10},{"id":11},{"id":12},{"id":13},{"id":14},{"id":15}]"#
            ), expectHeaders: [#"Content-Range"#: #"0-14/*"#], onSpecTables: true),
        Case(
            name: #"Range GET items?select=id&offset=0&order=id"#, target: #"items?select=id&offset=0&order=id"#, status: 200,
            expect: .json(
                #"[{"id":1},{"id":2},{"id":3},{"id":4},{"id":5},{"id":6},{"id":7},{"id":8},{"id":9},{"id":10},{"id":11},{"id":12},{"id":13},{"id":14},{"id":15}]"#
            ), expectHeaders: [#"Content-Range"#: #"0-14/*"#], onSpecTables: true),
        Case(
            name: #"Range HEAD child_entities?select=*,entities(*)"#, method: "HEAD", target: #"child_entities?select=*,entities(*)"#,
            headers: [#"Prefer"#: #"count=planned"#], status: 200, expect: .exact(#""#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#, #"Content-Range"#: #"0-5/6"#], onSpecTables: true),
        Case(
            name: #"EmbedDisambiguation GET whatev_sites?select=*,whatev_jobs!site_id_1(...whatev_projec"#,
            target: #"whatev_sites?select=*,whatev_jobs!site_id_1(...whatev_projects!project_id_2(*))"#, status: 200, expect: .json(#"[]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"EmbedDisambiguation GET whatev_sites?select=*,whatev_jobs!site_id_2(...whatev_projec"#,
            target: #"whatev_sites?select=*,whatev_jobs!site_id_2(...whatev_projects!project_id_1(*))"#, status: 200, expect: .json(#"[]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"EmbedDisambiguation GET projects?id=in.(1,3)&select=id,name,client(id,name)"#,
            target: #"projects?id=in.(1,3)&select=id,name,client(id,name)"#, status: 200,
            expect: .json(#"[{"id":1,"name":"Windows 7","client":{"id":1,"name":"Microsoft"}},{"id":3,"name":"IOS","client":{"id":2,"name":"Apple"}}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"EmbedDisambiguation GET projects?id=in.(1,3)&select=id,name,client_id(id,name)"#,
            target: #"projects?id=in.(1,3)&select=id,name,client_id(id,name)"#, status: 200,
            expect: .json(#"[{"id":1,"name":"Windows 7","client_id":{"id":1,"name":"Microsoft"}},{"id":3,"name":"IOS","client_id":{"id":2,"name":"Apple"}}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"EmbedDisambiguation GET organizations?select=id,name,auditees:organizations!auditor("#,
            target: #"organizations?select=id,name,auditees:organizations!auditor(id,name)&id=eq.2"#, status: 200,
            expect: .json(#"[{ "id": 2, "name": "Auditor Org", "auditees": [ { "id": 3, "name": "Acme" }, { "id": 4, "name": "Umbrella" } ] }]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"AndOrParams GET entities?or=(id.eq.1,id.eq.2)&name=eq.entity 1&select=id"#,
            target: #"entities?or=(id.eq.1,id.eq.2)&name=eq.entity 1&select=id"#, status: 200, expect: .json(#"[{ "id": 1 }]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"AndOrParams GET entities?child_entities.or=(id.eq.1,name.eq.child entity 2)&"#,
            target: #"entities?child_entities.or=(id.eq.1,name.eq.child entity 2)&select=id,child_entities(id)"#, status: 200,
            expect: .json(
                #"[ {"id": 1, "child_entities": [ { "id": 1 }, { "id": 2 } ] }, { "id": 2, "child_entities": []}, {"id": 3, "child_entities": []}, {"id": 4, "child_entities": []} ]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"AndOrParams GET entities?or=(and(name.eq.entity 2,id.eq.2),and(name.eq.entit"#,
            target: #"entities?or=(and(name.eq.entity 2,id.eq.2),and(name.eq.entity 1,id.eq.1))&select=id"#, status: 200,
            expect: .json(#"[{ "id": 1 }, { "id": 2 }]"#), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"AndOrParams GET entities?or=(not.and(name.eq.entity 2,id.eq.2),not.and(name."#,
            target: #"entities?or=(not.and(name.eq.entity 2,id.eq.2),not.and(name.eq.entity 1,id.eq.1))&select=id"#, status: 200,
            expect: .json(#"[{ "id": 1 }, { "id": 2 }, { "id": 3 }, { "id": 4 }]"#), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#],
            onSpecTables: true),
        Case(
            name: #"AndOrParams GET entities?and=(id.eq.1,name.eq.entity 1)&or=(id.eq.1,id.eq.2)"#,
            target: #"entities?and=(id.eq.1,name.eq.entity 1)&or=(id.eq.1,id.eq.2)&select=id"#, status: 200, expect: .json(#"[{ "id": 1 }]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"AndOrParams GET entities?or=(name.like.*1,name.ilike.*ENTITY 2)&select=id"#,
            target: #"entities?or=(name.like.*1,name.ilike.*ENTITY 2)&select=id"#, status: 200, expect: .json(#"[{ "id": 1 }, { "id": 2 }]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"AndOrParams GET tsearch?or=(text_search_vector.plfts(german).Art Spass, text"#,
            target:
                #"tsearch?or=(text_search_vector.plfts(german).Art%20Spass, text_search_vector.plfts(french).amusant%20impossible, text_search_vector.fts(english).impossible)"#,
            status: 200,
            expect: .json(
                #"[ {"text_search_vector": "'fun':5 'imposs':9 'kind':3" }, {"text_search_vector": "'amus':5 'fair':7 'impossibl':9 'peu':4" }, {"text_search_vector": "'art':4 'spass':5 'unmog':7"} ]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"AndOrParams GET tsearch_to_tsvector?and=(text_search.not.plfts(german).Art S"#,
            target:
                #"tsearch_to_tsvector?and=(text_search.not.plfts(german).Art%20Spass, text_search.not.plfts(french).amusant%20impossible, text_search.not.fts(english).impossible)&select=text_search"#,
            status: 200, expect: .json(#"[ { "text_search": "But also fun to do what is possible" }, { "text_search": "Fat cats ate rats" }]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"AndOrParams GET tsearch?or=(text_search_vector.plfts(german).Art,text_search"#,
            target:
                #"tsearch?or=(text_search_vector.plfts(german).Art,text_search_vector.plfts(french).amusant,text_search_vector.not.wfts(english).impossible)"#,
            status: 200,
            expect: .json(
                #"[ {"text_search_vector": "'also':2 'fun':3 'possibl':8" }, {"text_search_vector": "'ate':3 'cat':2 'fat':1 'rat':4" }, {"text_search_vector": "'amus':5 'fair':7 'impossibl':9 'peu':4" }, {"text_search_vector": "'art':4 'spass':5 'unmog':7" } ]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"AndOrParams GET grandchild_entities?or=(id.eq.1, id.eq.2, id.eq.3)&select=id"#,
            target: #"grandchild_entities?or=(id.eq.1, id.eq.2, id.eq.3)&select=id"#, status: 200, expect: .json(#"[{"id":1}, {"id":2}, {"id":3}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"AndOrParams GET grandchild_entities?and=(id.in.(1,2), id.in.(3,1), id.in.(1,"#,
            target: #"grandchild_entities?and=(id.in.(1,2), id.in.(3,1), id.in.(1,4))&select=id"#, status: 200, expect: .json(#"[{"id":1}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"AndOrParams GET grandchild_entities?or=( id.eq.1, id.eq.2, and(id.in.(1,3), "#,
            target: #"grandchild_entities?or=( id.eq.1, id.eq.2, and(id.in.(1,3), id.in.(2,3)), id.eq.4 )&select=id"#, status: 200,
            expect: .json(#"[{"id":1}, {"id":2}, {"id":3}, {"id":4}]"#), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#],
            onSpecTables: true),
        Case(
            name: #"AndOrParams GET grandchild_entities?and=( id.eq.1, not.or(id.eq.2, id.eq.3),"#,
            target: #"grandchild_entities?and=( id.eq.1, not.or(id.eq.2, id.eq.3), id.in.(1,4), or(id.eq.1, id.eq.4) )&select=id"#, status: 200,
            expect: .json(#"[{"id":1}]"#), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"AndOrParams POST child_entities?select=id,entities(id)&entities.or=(id.eq.2,i"#, method: "POST",
            target: #"child_entities?select=id,entities(id)&entities.or=(id.eq.2,id.eq.3)&entities.order=id"#, headers: [#"Prefer"#: #"return=representation"#],
            body:
                #"[               {"id":7,"name":"entity 4","parent_id":1},               {"id":8,"name":"entity 5","parent_id":2},               {"id":9,"name":"entity 6","parent_id":3}             ]"#,
            status: 201, expect: .json(#"[{"id": 7, "entities":null}, {"id": 8, "entities": {"id": 2}}, {"id": 9, "entities": {"id": 3}}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"AndOrParams PATCH entities?select=id,name&or=(name.is.null,name.like.*test*)"#, method: "PATCH",
            target: #"entities?select=id,name&or=(name.is.null,name.like.*test*)"#, headers: [#"Prefer"#: #"return=representation"#],
            body: #"{ "name" : "updated entity" }"#, status: 200, expect: .json(#"[{ "id": 4, "name": "updated entity" }]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"AndOrParams PATCH entities?select=id&or=(name.is.null,name.like.*test*)"#, method: "PATCH",
            target: #"entities?select=id&or=(name.is.null,name.like.*test*)"#, headers: [#"Prefer"#: #"return=representation"#],
            body: #"{ "name" : "updated entity" }"#, status: 200, expect: .json(#"[{ "id": 4 }]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"AndOrParams DELETE entities?select=id&or=(name.is.null,name.like.*test*)"#, method: "DELETE",
            target: #"entities?select=id&or=(name.is.null,name.like.*test*)"#, headers: [#"Prefer"#: #"return=representation"#], status: 200,
            expect: .json(#"[{ "id": 4 }]"#), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"AndOrParams GET grandchild_entities?or=(and_starting_col.eq.smth, or_startin"#,
            target: #"grandchild_entities?or=(and_starting_col.eq.smth, or_starting_col.eq.smth)"#, status: 200, onSpecTables: true),
        Case(
            name: #"JsonOperator GET json_arr?id=eq.10&select=data->!@#$%^&*_d->>!@#$%^&*_e::inte"#,
            target: #"json_arr?id=eq.10&select=data->!@#$%^%26*_d->>!@#$%^%26*_e::integer"#, status: 200, expect: .json(#"[{"!@#$%^&*_e":3}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"JsonOperator GET json_arr?id=eq.10&select=data->(!@#$%^&*_d->>!@#$%^&*_e::int"#,
            target: #"json_arr?id=eq.10&select=data->(!@#$%^%26*_d->>!@#$%^%26*_e::integer"#, status: 400,
            expect: .json(
                #"{ "code":"PGRST100", "details":"unexpected \"(\" expecting \"-\", digit or any non reserved character different from: .,>()", "hint":null, "message":"\"failed to parse select parameter (data->(!@#$%^&*_d->>!@#$%^&*_e::integer)\" (line 1, column 7)"}"#
            ), onSpecTables: true),
        Case(name: #"Singular GET addresses?id=eq.200"#, target: #"addresses?id=eq.200"#, status: 200, expect: .exact(#"[]"#), onSpecTables: true),
        Case(name: #"Singular GET addresses?id=eq.202"#, target: #"addresses?id=eq.202"#, status: 200, expect: .exact(#"[]"#), onSpecTables: true),
        Case(name: #"Singular GET addresses?id=eq.204"#, target: #"addresses?id=eq.204"#, status: 200, expect: .exact(#"[]"#), onSpecTables: true),
        Case(
            name: #"Singular GET items?id=gt.0&id=lt.6&order=id"#, target: #"items?id=gt.0&id=lt.6&order=id"#, status: 200,
            expect: .json(#"[{"id":1},{"id":2},{"id":3},{"id":4},{"id":5}]"#), expectHeaders: [#"Content-Range"#: #"0-4/*"#], onSpecTables: true),
        Case(
            name: #"EmbedInnerJoin GET projects?select=id,clients!inner(id)&clients.id=eq.2"#, target: #"projects?select=id,clients!inner(id)&clients.id=eq.2"#,
            status: 200, expect: .json(#"[ {"id":3,"clients":{"id":2}}, {"id":4,"clients":{"id":2}}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"EmbedInnerJoin GET entities?select=id,child_entities!left(id)"#, target: #"entities?select=id,child_entities!left(id)"#, status: 200,
            expect: .json(
                #"[ {"id":1,"child_entities":[{"id":1}, {"id":2}, {"id":4}, {"id":5}]}, {"id":2,"child_entities":[{"id":3}, {"id":6}]}, {"id":3,"child_entities":[]}, {"id":4,"child_entities":[]}]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"EmbedInnerJoin GET entities?select=id,child_entities!inner(id)&child_entities.i"#,
            target: #"entities?select=id,child_entities!inner(id)&child_entities.id=eq.1"#, status: 200,
            expect: .json(#"[{"id":1,"child_entities":[{"id":1}]}]"#), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#],
            onSpecTables: true),
        Case(
            name: #"EmbedInnerJoin GET entities?select=id,child_entities!inner(id)&child_entities.i"#,
            target: #"entities?select=id,child_entities!inner(id)&child_entities.id=eq.0"#, status: 200, expect: .json(#"[]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"EmbedInnerJoin HEAD entities?select=id,child_entities!inner(id)&child_entities.i"#, method: "HEAD",
            target: #"entities?select=id,child_entities!inner(id)&child_entities.id=eq.1"#, headers: [#"Prefer"#: #"count=exact"#], status: 200,
            expect: .exact(#""#), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#, #"Content-Range"#: #"0-0/1"#], onSpecTables: true),
        Case(
            name: #"EmbedInnerJoin GET entities?select=id,child_entities!inner(id,grandchild_entiti"#,
            target: #"entities?select=id,child_entities!inner(id,grandchild_entities!inner(id))&child_entities.grandchild_entities.id=eq.2"#, status: 200,
            expect: .json(#"[ { "id": 1, "child_entities": [ { "id": 1, "grandchild_entities": [ { "id": 2 } ] } ] } ]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"EmbedInnerJoin GET products?select=id,suppliers!inner(id)&suppliers.id=eq.2"#,
            target: #"products?select=id,suppliers!inner(id)&suppliers.id=eq.2"#, status: 200, expect: .json(#"[{"id":1,"suppliers":[{"id":2}]}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"EmbedInnerJoin HEAD products?select=id,suppliers!inner(id)&suppliers.id=eq.2"#, method: "HEAD",
            target: #"products?select=id,suppliers!inner(id)&suppliers.id=eq.2"#, headers: [#"Prefer"#: #"count=exact"#], status: 200, expect: .exact(#""#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#, #"Content-Range"#: #"0-0/1"#], onSpecTables: true),
        Case(
            name: #"EmbedInnerJoin GET products?select=id,suppliers!inner(id,trade_unions!inner(id)"#,
            target: #"products?select=id,suppliers!inner(id,trade_unions!inner(id))&suppliers.trade_unions.id=eq.3"#, status: 200,
            expect: .json(#"[{"id":1,"suppliers":[{"id":2,"trade_unions":[{"id":3}]}]}]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"EmbedInnerJoin HEAD products?select=id,suppliers!inner(id,trade_unions!inner(id)"#, method: "HEAD",
            target: #"products?select=id,suppliers!inner(id,trade_unions!inner(id))&suppliers.trade_unions.id=eq.3"#, headers: [#"Prefer"#: #"count=exact"#],
            status: 200, expect: .exact(#""#), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#, #"Content-Range"#: #"0-0/1"#],
            onSpecTables: true),
        Case(
            name: #"EmbedInnerJoin GET projects?select=name,clients!inner(name),users!inner(name)"#,
            target: #"projects?select=name,clients!inner(name),users!inner(name)"#, status: 200,
            expect: .json(
                #"[ {"name":"Windows 7","clients":{"name":"Microsoft"},"users":[{"name":"Angela Martin"}, {"name":"Dwight Schrute"}]}, {"name":"Windows 10","clients":{"name":"Microsoft"},"users":[{"name":"Angela Martin"}]}, {"name":"IOS","clients":{"name":"Apple"},"users":[{"name":"Michael Scott"}, {"name":"Dwight Schrute"}]}, {"name":"OSX","clients":{"name":"Apple"},"users":[{"name":"Michael Scott"}]}]"#
            ), expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"EmbedInnerJoin HEAD projects?select=name,clients!inner(name),users!inner(name)"#, method: "HEAD",
            target: #"projects?select=name,clients!inner(name),users!inner(name)"#, headers: [#"Prefer"#: #"count=exact"#], status: 200, expect: .exact(#""#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#, #"Content-Range"#: #"0-3/4"#], onSpecTables: true),
        Case(
            name: #"EmbedInnerJoin GET client?select=id,name,contact!inner(name),clientinfo!inner(o"#,
            target: #"client?select=id,name,contact!inner(name),clientinfo!inner(other)&clientinfo.other=eq.456%20South%203rd%20St"#, status: 200,
            expect: .json(#"[ {"id":2,"name":"Target","clientinfo":[{"other":"456 South 3rd St"}],"contact":[{"name":"Tabby Targo"}]} ]"#),
            expectHeaders: [#"Content-Type"#: #"application/json; charset=utf-8"#], onSpecTables: true),
        Case(
            name: #"Delete DELETE app_users?id=eq.1&select=id,email"#, method: "DELETE", target: #"app_users?id=eq.1&select=id,email"#,
            headers: [#"Prefer"#: #"return=representation"#], status: 200, expect: .json(#"[ { "id": 1, "email": "test@123.com" } ]"#),
            expectHeaders: [#"Content-Range"#: #"*/*"#], onSpecTables: true),
        Case(
            name: #"Delete DELETE app_users?id=eq.2"#, method: "DELETE", target: #"app_users?id=eq.2"#, headers: [#"Prefer"#: #"return=minimal"#], status: 204,
            expect: .exact(#""#), expectHeaders: [#"Preference-Applied"#: #"return=minimal"#], expectAbsent: [#"Content-Type"#, #"Content-Length"#],
            onSpecTables: true),
        Case(
            name: #"Delete DELETE app_users?id=eq.3"#, method: "DELETE", target: #"app_users?id=eq.3"#, status: 204, expect: .exact(#""#),
            expectAbsent: [#"Content-Type"#, #"Content-Length"#], onSpecTables: true),
        Case(
            name: #"NullsStrip PATCH organizations?id=eq.3&select=id,name,referee,auditor"#, method: "PATCH",
            target: #"organizations?id=eq.3&select=id,name,referee,auditor"#,
            headers: [#"Accept"#: #"application/vnd.pgrst.array+json;nulls=stripped"#, #"Prefer"#: #"return=representation"#],
            body: #"{"name":"John","referee":null}"#, status: 200, expect: .json(#"[{"id":3,"name":"John","auditor":2}]"#),
            expectHeaders: [#"Content-Type"#: #"application/vnd.pgrst.array+json;nulls=stripped; charset=utf-8"#], onSpecTables: true)
    ]
}

extension PostgRESTCaseCorpusTests {
    /// The order in which PostgREST reports a bad select: relationships are resolved while planning,
    /// before PostgreSQL sees a column, so an unknown embed answers PGRST200 even when a selected
    /// column is also unknown; with every embed known, the column's 42703 comes through.
    static let auditOrderCases: [Case] = [
        Case(
            name: "audit: unknown embed before unknown column", target: "car_models?select=id,name,car_model_sales_202101(id)", status: 400,
            expect: .json(
                #"{"code":"PGRST200","details":"Searched for a foreign key relationship between 'car_models' and 'car_model_sales_202101' in the schema 'test', but no matches were found.","hint":"Perhaps you meant 'car_model_sales' instead of 'car_model_sales_202101'.","message":"Could not find a relationship between 'car_models' and 'car_model_sales_202101' in the schema cache"}"#
            ), onSpecTables: true),
        Case(
            name: "audit: unknown nested embed before unknown column", target: "car_brands?select=nope,car_models(name,car_dealers_x(*))", status: 400,
            expect: .json(
                #"{"code":"PGRST200","details":"Searched for a foreign key relationship between 'car_models' and 'car_dealers_x' in the schema 'test', but no matches were found.","hint":"Perhaps you meant 'car_dealers' instead of 'car_dealers_x'.","message":"Could not find a relationship between 'car_models' and 'car_dealers_x' in the schema cache"}"#
            ), onSpecTables: true),
        Case(
            name: "audit: known embeds leave the column error", target: "car_models?select=id,car_brands(name)", status: 400,
            expect: .json(#"{"code":"42703","details":null,"hint":null,"message":"column car_models.id does not exist"}"#), onSpecTables: true),
        Case(
            name: "audit: query plus is a space in a timestamp filter", target: "visits?select=id&start_time=gt.20250101+12:00&order=id", status: 200,
            expect: .exact("[{\"id\":2}, \n {\"id\":3}]"), onSpecTables: true)
    ]
}

extension PostgRESTCaseCorpusTests {
    /// Legacy target names (PostgREST 16's default `url-use-legacy-target-names = true`): an aliased
    /// embed's filter, order and limit may still name the relation, and the answer then warns.
    static let auditLegacyTargetCases: [Case] = [
        Case(
            name: "audit: relation name for an aliased embed warns",
            target: "projects?id=eq.1&select=id,name,the_tasks:tasks(id,name)&tasks.name=like.Code*&tasks.order=name.asc&tasks.limit=1", status: 200,
            expect: .exact(#"[{"id":1,"name":"Windows 7","the_tasks":[{"id": 2, "name": "Code w7"}]}]"#),
            expectHeaders: [
                "Warning":
                    "299 PostgRESTv16.1 \"Embedded resource was referenced by relation name even though it has an alias. This is deprecated and will stop working in a future release. Update `tasks` to `the_tasks` in query string filters, orders or limits.\""
            ], onSpecTables: true),
        Case(
            name: "audit: alias names the embed without a warning",
            target: "projects?id=eq.1&select=id,the_tasks:tasks(id)&the_tasks.name=like.Code*", status: 200,
            expect: .exact(#"[{"id":1,"the_tasks":[{"id": 2}]}]"#), expectAbsent: ["Warning"], onSpecTables: true),
        Case(
            name: "audit: nested relation name for an aliased embed warns",
            target: "clients?id=eq.1&select=id,projects(id,todo:tasks(id))&projects.id=eq.1&projects.tasks.id=eq.2", status: 200,
            expect: .exact(#"[{"id":1,"projects":[{"id": 1, "todo": [{"id": 2}]}]}]"#),
            expectHeaders: [
                "Warning":
                    "299 PostgRESTv16.1 \"Embedded resource was referenced by relation name even though it has an alias. This is deprecated and will stop working in a future release. Update `tasks` to `todo` in query string filters, orders or limits.\""
            ], onSpecTables: true)
    ]
}

extension PostgRESTCaseCorpusTests {
    /// `json` columns byte for byte (JsonOperatorSpec.hs and InsertSpec.hs requests on data.sql's
    /// rows): the stored text as written at the top level and under `->` (jsonb's spacing only
    /// where the text had it), `->>` text read back `::json` as is, CSV of the text, and json's
    /// missing operators. Expected bodies are PostgreSQL 15's answers to PostgREST's SQL.
    static let auditJSONTextCases: [Case] = [
        Case(
            name: "json text: column as written", target: "complex_items?select=settings&id=eq.1", status: 200,
            expect: .exact(#"[{"settings":{"foo":{"int":1,"bar":"baz"}}}]"#), onSpecTables: true),
        Case(
            name: "json text: arrow keeps the member text", target: "json_arr?select=data->c&id=in.(7,8)", status: 200,
            expect: .exact("[{\"c\":[1,2,3]}, \n {\"c\":[{\"d\": [4,5,6,7,8]}]}]"), onSpecTables: true),
        Case(
            name: "json text: index then key", target: "json_arr?select=data->0->a&id=in.(5,6)", status: 200,
            expect: .exact("[{\"a\":\"A\"}, \n {\"a\":[1,2,3]}]"), onSpecTables: true),
        Case(
            name: "json text: double arrow cast to json", target: "json_arr?select=data->c->>0::json&id=in.(7,8)", status: 200,
            expect: .exact("[{\"c\":1}, \n {\"c\":{\"d\": [4,5,6,7,8]}}]"), onSpecTables: true),
        Case(
            name: "json text: double arrow of an array is its text", target: "json_arr?select=data->-2->>a&id=in.(5,6)", status: 200,
            expect: .exact("[{\"a\":\"A\"}, \n {\"a\":\"[1,2,3]\"}]"), onSpecTables: true),
        Case(
            name: "json text: filtered by a text path", target: "json_table?data->>id=eq.1", status: 200,
            expect: .exact(#"[{"data":{"foo":{"bar":"baz"},"id":1}}]"#), onSpecTables: true),
        Case(
            name: "json text: row filtered by a nested text path", target: "json_arr?select=data&data->1->>b=eq.B", status: 200,
            expect: .exact(#"[{"data":[{"a": "A"}, {"b": "B"}]}]"#), onSpecTables: true),
        Case(
            name: "json text: member text cast to json", target: "complex_items?id=eq.1&select=settings->>foo::json", status: 200,
            expect: .exact(#"[{"foo":{"int":1,"bar":"baz"}}]"#), onSpecTables: true),
        Case(
            name: "json text: csv", target: "complex_items?select=id,settings&id=lte.2&order=id", headers: ["Accept": "text/csv"], status: 200,
            expect: .exact("id,settings\n" + #"1,"{""foo"":{""int"":1,""bar"":""baz""}}""# + "\n" + #"2,"{""foo"":{""int"":1,""bar"":""baz""}}""#),
            expectHeaders: ["Content-Type": "text/csv; charset=utf-8"], onSpecTables: true),
        Case(
            name: "json text: no equality", target: "json_table?data=eq.{}", status: 404,
            expect: .exact(
                #"{"code":"42883","details":null,"hint":"No operator matches the given name and argument types. You might need to add explicit type casts.","message":"operator does not exist: json = unknown"}"#
            ), onSpecTables: true),
        Case(
            name: "json text: no ordering", target: "json_table?order=data", status: 404,
            expect: .exact(
                #"{"code":"42883","details":null,"hint":"Use an explicit ordering operator or modify the query.","message":"could not identify an ordering operator for type json"}"#
            ), onSpecTables: true),
        Case(
            name: "json text: insert keeps duplicate keys", method: "POST", target: "tbl_w_json", headers: ["Prefer": "return=representation"],
            body: #"{ "data": { "a": 1, "a": 2 }, "id": 3 }"#, status: 201, expect: .exact(#"[{"id":3,"data":{ "a": 1, "a": 2 }}]"#),
            expectHeaders: ["Content-Type": "application/json; charset=utf-8"], onSpecTables: true),
        Case(
            name: "json text: missing=default sends jsonb", method: "POST", target: "tbl_w_json?columns=id,data",
            headers: ["Prefer": "return=representation, missing=default"], body: #"{ "data": { "a": 1, "a": 2 }, "id": 3 }"#, status: 201,
            expect: .exact(#"[{"id":3,"data":{"a": 2}}]"#), expectHeaders: ["Preference-Applied": "missing=default, return=representation"],
            onSpecTables: true),
        Case(
            name: "json text: patch to an escaped value", method: "PATCH", target: "json_table?data->>id=eq.3", headers: ["Prefer": "return=representation"],
            body: #"{ "data": { "id":" \"escaped" } }"#, status: 200, expect: .exact(#"[{"data":{ "id":" \"escaped" }}]"#), onSpecTables: true)
    ]
}
