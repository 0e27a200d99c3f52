import XCTest
@testable import MockSupabase

/// Logic trees (`or=`, `and=`, `not.` and nesting, with spaces, quoted values containing the
/// tree's own punctuation) and comparison operators on integer arrays, on `SpecTablesFixture`:
/// the behaviour AndOrParamsSpec.hs pins, in this corpus's own words.
extension PostgRESTCaseCorpusTests {
    static let specLogicCases: [Case] = onSpecTables([
        Case(name: "lt or", target: "entities?or=(id.eq.1,id.eq.2)&select=id", status: 200, expect: .json(#"[{"id":1},{"id":2}]"#)),
        Case(name: "lt not.or", target: "entities?not.or=(id.eq.1,id.eq.2)&select=id", status: 200, expect: .json(#"[{"id":3},{"id":4}]"#)),
        Case(name: "lt or and column", target: "entities?or=(id.eq.1,id.eq.2)&name=eq.entity%201&select=id", status: 200, expect: .json(#"[{"id":1}]"#)),
        Case(
            name: "lt embedded or", target: "entities?child_entities.or=(id.eq.1,name.eq.child%20entity%202)&select=id,child_entities(id)", status: 200,
            expect: .json(
                #"[{"id":1,"child_entities":[{"id":1},{"id":2}]},{"id":2,"child_entities":[]},{"id":3,"child_entities":[]},{"id":4,"child_entities":[]}]"#)),
        Case(
            name: "lt nested embedded or",
            target: "entities?child_entities.grandchild_entities.or=(id.eq.1,id.eq.2)&select=id,child_entities(id,grandchild_entities(id))", status: 200,
            expect: .json(
                #"[{"id":1,"child_entities":[{"id":1,"grandchild_entities":[{"id":1},{"id":2}]},{"id":2,"grandchild_entities":[]},{"id":4,"grandchild_entities":[]},{"id":5,"grandchild_entities":[]}]},{"id":2,"child_entities":[{"id":3,"grandchild_entities":[]},{"id":6,"grandchild_entities":[]}]},{"id":3,"child_entities":[]},{"id":4,"child_entities":[]}]"#
            )),
        Case(
            name: "lt or of ands", target: "entities?or=(and(name.eq.entity%202,id.eq.2),and(name.eq.entity%201,id.eq.1))&select=id", status: 200,
            expect: .json(#"[{"id":1},{"id":2}]"#)),
        Case(
            name: "lt or of not.ands", target: "entities?or=(not.and(name.eq.entity%202,id.eq.2),not.and(name.eq.entity%201,id.eq.1))&select=id", status: 200,
            expect: .json(#"[{"id":1},{"id":2},{"id":3},{"id":4}]"#)),
        Case(
            name: "lt and plus or", target: "entities?and=(id.eq.1,name.eq.entity%201)&or=(id.eq.1,id.eq.2)&select=id", status: 200,
            expect: .json(#"[{"id":1}]"#)),
        Case(name: "lt or lt gt", target: "entities?or=(id.lt.2,id.gt.3)&select=id", status: 200, expect: .json(#"[{"id":1},{"id":4}]"#)),
        Case(
            name: "lt or like ilike", target: "entities?or=(name.like.*1,name.ilike.*ENTITY%202)&select=id", status: 200, expect: .json(#"[{"id":1},{"id":2}]"#)
        ),
        Case(
            name: "lt or ins", target: "entities?or=(id.in.(1,2),id.in.(3,4))&select=id", status: 200, expect: .json(#"[{"id":1},{"id":2},{"id":3},{"id":4}]"#)),
        Case(name: "lt and is null", target: "entities?and=(name.is.null,arr.is.null)&select=id", status: 200, expect: .json(#"[{"id":4}]"#)),
        Case(
            name: "lt or fts", target: "entities?or=(text_search_vector.fts.bar,text_search_vector.fts.baz)&select=id", status: 200,
            expect: .json(#"[{"id":1},{"id":2}]"#)),
        Case(
            name: "lt or jsonb fts", target: "grandchild_entities?or=(jsonb_col.fts.bar,jsonb_col.fts.foo)&select=jsonb_col", status: 200,
            expect: .exact(#"[{"jsonb_col":{"a": {"b": "foo"}}}, "# + "\n " + #"{"jsonb_col":{"b": "bar"}}]"#)),
        Case(
            name: "lt and isdistinct array", target: "entities?and=(id.gte.2,arr.isdistinct.{1,2})&select=id", status: 200,
            expect: .json(#"[{"id":3},{"id":4}]"#)),
        Case(name: "lt or cs cd", target: "entities?or=(arr.cs.{1,2,3},arr.cd.{1})&select=id", status: 200, expect: .json(#"[{"id":1},{"id":3}]"#)),
        Case(name: "lt array eq", target: "entities?arr=eq.{1,2,3}&select=id", status: 200, expect: .json(#"[{"id":3}]"#)),
        Case(name: "lt array neq", target: "entities?arr=neq.{1,2}&select=id", status: 200, expect: .json(#"[{"id":1},{"id":3}]"#)),
        Case(name: "lt array lt", target: "entities?arr=lt.{2,3}&select=id", status: 200, expect: .json(#"[{"id":1},{"id":2},{"id":3}]"#)),
        Case(name: "lt array lt 2,0", target: "entities?arr=lt.{2,0}&select=id", status: 200, expect: .json(#"[{"id":1},{"id":2},{"id":3}]"#)),
        Case(name: "lt array gt", target: "entities?arr=gt.{1,1}&select=id", status: 200, expect: .json(#"[{"id":2},{"id":3}]"#)),
        Case(name: "lt array gt none", target: "entities?arr=gt.{3}&select=id", status: 200, expect: .exact("[]")),
        Case(name: "lt array lte", target: "entities?arr=lte.{2,1}&select=id", status: 200, expect: .json(#"[{"id":1},{"id":2},{"id":3}]"#)),
        Case(name: "lt array lte prefix", target: "entities?arr=lte.{1,2}&select=id", status: 200, expect: .json(#"[{"id":1},{"id":2}]"#)),
        Case(name: "lt array cs", target: "entities?arr=cs.{1,2}&select=id", status: 200, expect: .json(#"[{"id":2},{"id":3}]"#)),
        Case(name: "lt array cd", target: "entities?arr=cd.{1,2,6}&select=id", status: 200, expect: .json(#"[{"id":1},{"id":2}]"#)),
        Case(name: "lt array ov", target: "entities?arr=ov.{2,3}&select=id", status: 200, expect: .json(#"[{"id":2},{"id":3}]"#)),
        Case(name: "lt array isdistinct", target: "entities?arr=isdistinct.{1,2}&select=id", status: 200, expect: .json(#"[{"id":1},{"id":3},{"id":4}]"#)),
        Case(
            name: "lt negated in and", target: "entities?and=(arr.not.cs.{1,2,3},and(id.not.eq.2,name.not.like.*3))&select=id", status: 200,
            expect: .json(#"[{"id":1}]"#)),
        Case(
            name: "lt negated fts", target: "entities?and=(id.not.in.(1,3),and(name.not.is.null,text_search_vector.not.fts.foo))&select=id", status: 200,
            expect: .json(#"[{"id":2}]"#)),
        Case(
            name: "lt negated cd or", target: "entities?and=(arr.not.cd.{1},or(id.not.lt.1,id.not.gte.3))&select=id", status: 200,
            expect: .json(#"[{"id":2},{"id":3}]"#)),
        Case(
            name: "lt negated ilike or", target: "entities?and=(name.not.ilike.*ITY2,or(id.not.gt.4,id.not.lte.1))&select=id", status: 200,
            expect: .json(#"[{"id":1},{"id":2},{"id":3}]"#)),
        Case(
            name: "lt not.isdistinct array", target: "entities?and=(id.not.eq.2,arr.not.isdistinct.{1,2,3})&select=id", status: 200,
            expect: .json(#"[{"id":3}]"#)),
        Case(
            name: "lt quoted parens", target: "grandchild_entities?or=(name.eq.%22(grandchild,entity,4)%22,name.eq.%22(grandchild,entity,5)%22)&select=id",
            status: 200, expect: .json(#"[{"id":4},{"id":5}]"#)),
        Case(
            name: "lt quoted like", target: "grandchild_entities?or=(name.like.%22*ity,4*%22,name.ilike.%22*ITY,5)%22)&select=id", status: 200,
            expect: .json(#"[{"id":4},{"id":5}]"#)),
        Case(
            name: "lt quoted in", target: "grandchild_entities?or=(id.in.(%221%22,%222%22),id.in.(%223%22,%224%22))&select=id", status: 200,
            expect: .json(#"[{"id":1},{"id":2},{"id":3},{"id":4}]"#)),
        Case(
            name: "lt spaces",
            target: "entities?and=(%20and%20(%20id.in.(%201,%202,%203%20)%20,%20id.eq.3%20)%20,%20or%20(%20id.eq.2%20,%20id.eq.3%20)%20)&select=id",
            status: 200, expect: .json(#"[{"id":3}]"#)),
        Case(name: "lt single or", target: "entities?or=(id.eq.1)&select=id", status: 200, expect: .json(#"[{"id":1}]"#)),
        Case(
            name: "lt spaced or", target: "grandchild_entities?or=(id.eq.1,%20id.eq.2,%20id.eq.3)&select=id", status: 200,
            expect: .json(#"[{"id":1},{"id":2},{"id":3}]"#)),
        Case(
            name: "lt three ins", target: "grandchild_entities?and=(id.in.(1,2),%20id.in.(3,1),%20id.in.(1,4))&select=id", status: 200,
            expect: .json(#"[{"id":1}]"#)),
        Case(
            name: "lt mixed nesting", target: "grandchild_entities?or=(%20id.eq.1,%20id.eq.2,%20and(id.in.(1,3),%20id.in.(2,3)),%20id.eq.4%20)&select=id",
            status: 200, expect: .json(#"[{"id":1},{"id":2},{"id":3},{"id":4}]"#)),
        Case(
            name: "lt not.or inside and",
            target: "grandchild_entities?and=(%20id.eq.1,%20not.or(id.eq.2,%20id.eq.3),%20id.in.(1,4),%20or(id.eq.1,%20id.eq.4)%20)&select=id", status: 200,
            expect: .json(#"[{"id":1}]"#)),
        Case(
            name: "lt columns named like operators", target: "grandchild_entities?or=(and_starting_col.eq.smth,%20or_starting_col.eq.smth)", status: 200,
            expect: .exact("[]")),
        Case(
            name: "lt patch or", method: "PATCH", target: "grandchild_entities?or=(id.eq.1,id.eq.2)&select=id,name",
            headers: ["Prefer": "return=representation"], body: #"{"name":"updated grandchild entity"}"#, status: 200,
            expect: .json(#"[{"id":1,"name":"updated grandchild entity"},{"id":2,"name":"updated grandchild entity"}]"#)),
        Case(
            name: "lt delete or", method: "DELETE", target: "grandchild_entities?or=(id.eq.1,id.eq.2)&select=id,name",
            headers: ["Prefer": "return=representation"], status: 200,
            expect: .json(#"[{"id":1,"name":"grandchild entity 1"},{"id":2,"name":"grandchild entity 2"}]"#))
    ])
}
