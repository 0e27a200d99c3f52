import XCTest
@testable import MockSupabase

/// JSON paths on `SpecTablesFixture`: arrows into json and jsonb columns and integer arrays in
/// select, filters and order, with array indexes, casts and keys made of reserved characters,
/// and the errors an impossible path raises: the behaviour JsonOperatorSpec.hs pins, in this
/// corpus's own words.
extension PostgRESTCaseCorpusTests {
    static let specJSONCases: [Case] = onSpecTables([
        Case(name: "js text cast to json", target: "json_arr?id=eq.7&select=data->>c::json", status: 200, expect: .json(#"[{"c":[1,2,3]}]"#)),
        Case(
            name: "js bad integer cast", target: "json_arr?select=data->0->>a::integer&id=eq.5", status: 400,
            expect: .exact(#"{"code":"22P02","details":null,"hint":null,"message":"invalid input syntax for type integer: \"A\""}"#)),
        Case(
            name: "js reserved keys", target: "json_arr?id=eq.10&select=data->!@%23$%25^%26*_d->>!@%23$%25^%26*_e::integer", status: 200,
            expect: .exact(#"[{"!@#$%^&*_e":3}]"#)),
        Case(
            name: "js text arrow then arrow", target: "json_arr?select=data->>c->1", status: 404,
            expect: .json(
                #"{"code":"42883","details":null,"hint":"No operator matches the given name and argument types. You might need to add explicit type casts.","message":"operator does not exist: text -> integer"}"#
            )),
        Case(
            name: "js text arrow then key", target: "json_arr?select=data->>c->b", status: 404,
            expect: .json(
                #"{"code":"42883","details":null,"hint":"No operator matches the given name and argument types. You might need to add explicit type casts.","message":"operator does not exist: text -> unknown"}"#
            )),
        Case(name: "js index cast", target: "json_arr?select=data->>0::int&id=in.(1,2)", status: 200, expect: .json(#"[{"data":1},{"data":4}]"#)),
        Case(
            name: "js two indexes", target: "json_arr?select=idx0:data->>0::int,idx1:data->>1::int&id=in.(1,2)", status: 200,
            expect: .json(#"[{"idx0":1,"idx1":2},{"idx0":4,"idx1":5}]"#)),
        Case(name: "js nested index", target: "json_arr?select=data->0->>1::int&id=in.(3,4)", status: 200, expect: .json(#"[{"data":8},{"data":7}]"#)),
        Case(name: "js deeper index", target: "json_arr?select=data->0->0->>1::int&id=in.(3,4)", status: 200, expect: .json(#"[{"data":null},{"data":6}]"#)),
        Case(name: "js key then index", target: "json_arr?select=data->0->a->>2&id=in.(5,6)", status: 200, expect: .json(#"[{"a":null},{"a":"3"}]"#)),
        Case(
            name: "js dashed keys", target: "json_arr?select=data->0->0xy1->1->23-xy-45->1->xy-6->>0::int&id=eq.9", status: 200,
            expect: .exact(#"[{"xy-6":3}]"#)),
        Case(name: "js deep index cast", target: "json_arr?select=data->c->0->d->>4::int&id=in.(7,8)", status: 200, expect: .json(#"[{"d":null},{"d":8}]"#)),
        Case(
            name: "js array arrow", target: "arrays?select=a:numbers->0,b:numbers->1", status: 200,
            expect: .json(#"[{"a":1,"b":2},{"a":11,"b":12}]"#)),
        Case(
            name: "js array double arrow", target: "arrays?select=a:numbers->>0,b:numbers->>1", status: 200,
            expect: .json(#"[{"a":"1","b":"2"},{"a":"11","b":"12"}]"#)),
        Case(name: "js json filter", target: "json_table?data->foo->>bar=eq.baz", status: 200, expect: .json(#"[{"data":{"id":1,"foo":{"bar":"baz"}}}]"#)),
        Case(name: "js json filter none", target: "json_table?data->foo->>bar=eq.fake", status: 200, expect: .exact("[]")),
        Case(name: "js json not filter on missing", target: "json_table?data->foo->>bar=not.eq.baz", status: 200, expect: .exact("[]")),
        Case(name: "js json top key filter", target: "json_table?data->>id=eq.1", status: 200, expect: .json(#"[{"data":{"id":1,"foo":{"bar":"baz"}}}]"#)),
        Case(
            name: "js or on paths", target: "grandchild_entities?or=(jsonb_col->a->>b.eq.foo,%20jsonb_col->>b.eq.bar)&select=id", status: 200,
            expect: .json(#"[{"id":4},{"id":5}]"#)),
        Case(
            name: "js reserved key filter", target: "json_arr?select=data->!@%23$%25^%26*_d&data->!@%23$%25^%26*_d->>!@%23$%25^%26*_e=eq.3", status: 200,
            expect: .exact(#"[{"!@#$%^&*_d":{"!@#$%^&*_e": 3}}]"#)),
        Case(name: "js index filter", target: "json_arr?select=data&data->>0=eq.1", status: 200, expect: .exact(#"[{"data":[1, 2, 3]}]"#)),
        Case(
            name: "js nested index filter", target: "json_arr?select=data&data->1->>2=eq.13", status: 200,
            expect: .exact(#"[{"data":[[9, 8, 7], [11, 12, 13]]}]"#)),
        Case(
            name: "js index key filter", target: "json_arr?select=data&data->1->>b=eq.B", status: 200, expect: .exact(#"[{"data":[{"a": "A"}, {"b": "B"}]}]"#)),
        Case(name: "js jsonb eq object", target: "jsonb_test?data=eq.{%22e%22:1}", status: 200, expect: .exact(#"[{"id":4,"data":{"e": 1}}]"#)),
        Case(name: "js jsonb path eq object", target: "jsonb_test?data->a=eq.{%22b%22:2}", status: 200, expect: .exact(#"[{"id":1,"data":{"a": {"b": 2}}}]"#)),
        Case(name: "js jsonb path eq array", target: "jsonb_test?data->c=eq.[1,2,3]", status: 200, expect: .exact(#"[{"id":2,"data":{"c": [1, 2, 3]}}]"#)),
        Case(
            name: "js jsonb index eq", target: "jsonb_test?data->0=eq.{%22d%22:%22test%22}", status: 200, expect: .exact(#"[{"id":3,"data":[{"d": "test"}]}]"#)),
        Case(name: "js array path filter", target: "arrays?select=id&numbers->0=eq.1", status: 200, expect: .exact(#"[{"id":0}]"#)),
        Case(name: "js array text path filter", target: "arrays?select=id&numbers->>0=eq.11", status: 200, expect: .exact(#"[{"id":1}]"#)),
        Case(
            name: "js order by path", target: "json_table?order=data->>id.asc", status: 200,
            expect: .json(#"[{"data":{"id":0}},{"data":{"id":1,"foo":{"bar":"baz"}}},{"data":{"id":3}}]"#)),
        Case(
            name: "js order nullsfirst path", target: "json_table?order=data->foo->>bar.nullsfirst", status: 200,
            expect: .json(#"[{"data":{"id":3}},{"data":{"id":0}},{"data":{"id":1,"foo":{"bar":"baz"}}}]"#))
    ])
}
