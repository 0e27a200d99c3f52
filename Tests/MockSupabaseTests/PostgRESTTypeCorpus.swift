import XCTest
@testable import MockSupabase

/// Corpus cases for the column types PostgREST's test schema uses beyond the basics: `numeric`
/// with its display scale and `numeric(p,s)`, domains, `time with time zone`, `bytea`,
/// `interval`, `tsvector`, and `Prefer: timezone=` on `timestamptz`. Rows are PostgREST's own
/// test data (test/spec/fixtures/data.sql); expected bodies are what PostgreSQL 15 prints for
/// them (checked with psql), and the spec named beside a case pins the same behaviour.
extension PostgRESTCaseCorpusTests {
    static func rows(_ key: String, _ values: [String]) -> Body {
        .json("[" + values.map { #"{"\#(key)":\#($0)}"# }.joined(separator: ",") + "]")
    }

    static let typeCases: [Case] = [
        // Preferences/TimezoneSpec.hs: timestamptz output follows the session zone.
        Case(
            name: "timezone named", target: "timestamps", headers: ["Prefer": "handling=strict, timezone=America/Los_Angeles"], status: 200,
            expect: rows("t", [#""2023-10-18T05:37:59.611-07:00""#, #""2023-10-18T07:37:59.611-07:00""#, #""2023-10-18T09:37:59.611-07:00""#]),
            expectHeaders: ["Preference-Applied": "handling=strict, timezone=America/Los_Angeles"]),
        Case(
            name: "timezone posix offset", target: "timestamps", headers: ["Prefer": "timezone=+05:30"], status: 200,
            expect: rows("t", [#""2023-10-18T07:07:59.611-05:30""#, #""2023-10-18T09:07:59.611-05:30""#, #""2023-10-18T11:07:59.611-05:30""#]),
            expectHeaders: ["Preference-Applied": "timezone=+05:30"]),
        Case(
            name: "timezone hours", target: "timestamps", headers: ["Prefer": "timezone=-4"], status: 200,
            expect: rows("t", [#""2023-10-18T08:37:59.611-04:00""#, #""2023-10-18T10:37:59.611-04:00""#, #""2023-10-18T12:37:59.611-04:00""#])),
        Case(
            name: "timezone leap seconds", target: "timestamps", headers: ["Prefer": "timezone=05:30:15"], status: 400,
            expect: pgError("22023", #"time zone "05:30:15" appears to use leap seconds"#, details: "PostgreSQL does not support leap seconds.")),
        Case(
            name: "timezone invalid", target: "timestamps", headers: ["Prefer": "handling=lenient, timezone=Invalid/Timezone"], status: 400,
            expect: pgError("22023", #"invalid value for parameter "TimeZone": "Invalid/Timezone""#)),
        Case(
            name: "timezone reads zoneless input as local time", method: "POST", target: "timestamps",
            headers: ["Prefer": "return=representation, timezone=America/Los_Angeles"], body: #"{"t":"2023-10-18 05:00:00"}"#, status: 201,
            expect: .exact(#"[{"t":"2023-10-18T05:00:00-07:00"}]"#)),
        Case(
            name: "timezone input with a zone", method: "POST", target: "timestamps?select=t",
            headers: ["Prefer": "return=representation, timezone=-4"], body: #"{"t":"2023-10-18T05:00:00Z"}"#, status: 201,
            expect: .exact(#"[{"t":"2023-10-18T01:00:00-04:00"}]"#)),
        Case(
            name: "timezone filter in local time", target: "timestamps?t=lt.2023-10-18%2007:00", headers: ["Prefer": "timezone=America/Los_Angeles"],
            status: 200,
            expect: rows("t", [#""2023-10-18T05:37:59.611-07:00""#])),
        Case(
            name: "timezone csv", target: "timestamps?limit=1", headers: ["Prefer": "timezone=Asia/Kolkata", "Accept": "text/csv"], status: 200,
            expect: .exact("t\n\"2023-10-18 18:07:59.611+05:30\"")),
        // numeric keeps the scale it was written with (data.sql `process_costs`: 150.00).
        Case(name: "numeric scale", target: "process_costs?select=cost&process_id=eq.1", status: 200, expect: .exact(#"[{"cost":150.00}]"#)),
        Case(
            name: "numeric eq other scale", target: "process_costs?select=process_id&cost=eq.70&order=process_id", status: 200,
            expect: rows("process_id", ["4", "6"])),
        Case(
            name: "numeric gt fraction", target: "process_costs?select=process_id&cost=gt.150.5&order=process_id", status: 200,
            expect: rows("process_id", ["2", "3"])),
        Case(
            name: "numeric order", target: "process_costs?select=process_id&order=cost.desc,process_id&limit=3", status: 200,
            expect: rows("process_id", ["2", "3", "1"])),
        Case(
            name: "numeric bad input", target: "process_costs?cost=eq.abc", status: 400,
            expect: pgError("22P02", #"invalid input syntax for type numeric: "abc""#)),
        Case(
            name: "numeric embedded in jsonb keeps scale", method: "POST", target: "process_costs", headers: ["Prefer": "return=representation"],
            body: #"{"process_id":9,"cost":"12.500"}"#, status: 201, expect: .exact(#"[{"process_id":9,"cost":12.500}]"#)),
        // numeric(p,s): rounded to the scale, 22003 past the precision.
        Case(
            name: "numeric typmod rounds", method: "POST", target: "prices", headers: ["Prefer": "return=representation"],
            body: #"{"id":1,"amount":12.345,"code":"a"}"#, status: 201, expect: .exact(#"[{"id":1,"amount":12.35,"rating":null,"code":"a"}]"#)),
        Case(
            name: "numeric typmod pads", method: "POST", target: "prices", headers: ["Prefer": "return=representation"],
            body: #"{"id":1,"amount":7,"code":"a"}"#, status: 201, expect: .exact(#"[{"id":1,"amount":7.00,"rating":null,"code":"a"}]"#)),
        Case(
            name: "numeric overflow", method: "POST", target: "prices", body: #"{"id":1,"amount":999.995,"code":"a"}"#, status: 400,
            expect: pgError("22003", "numeric field overflow", details: "A field with precision 5, scale 2 must round to an absolute value less than 10^3.")),
        // Domains (schema.sql `one_nine`): CHECK and NOT NULL on the domain.
        Case(
            name: "domain check", method: "POST", target: "prices", body: #"{"id":1,"rating":10,"code":"a"}"#, status: 400,
            expect: pgError("23514", #"value for domain one_nine violates check constraint "one_nine_check""#)),
        Case(
            name: "domain ok", method: "POST", target: "prices", headers: ["Prefer": "return=representation"], body: #"{"id":1,"rating":9,"code":"a"}"#,
            status: 201,
            expect: .exact(#"[{"id":1,"amount":null,"rating":9,"code":"a"}]"#)),
        Case(
            name: "domain length", method: "POST", target: "prices", body: #"{"id":1,"code":"abcd"}"#, status: 400,
            expect: pgError("22001", "value too long for type character varying(3)")),
        Case(
            name: "domain not null on a missing column", method: "POST", target: "prices", body: #"{"id":1}"#, status: 400,
            expect: pgError("23502", "domain short_code does not allow null values")),
        Case(
            name: "domain check on update", method: "PATCH", target: "prices?id=eq.1", body: #"{"rating":0}"#, status: 400,
            expect: pgError("23514", #"value for domain one_nine violates check constraint "one_nine_check""#)),
        // time with time zone (schema.sql `schedules`).
        Case(
            name: "timetz output", target: "schedules?select=name,start_at&id=eq.1", status: 200,
            expect: .exact(#"[{"name":"morning","start_at":"06:00:00+00"}]"#)),
        Case(name: "timetz filter", target: "schedules?select=id&start_at=gte.12:00&order=id", status: 200, expect: ids([2, 3])),
        Case(
            name: "timetz offset kept", method: "POST", target: "schedules", headers: ["Prefer": "return=representation"],
            body: #"{"id":7,"name":"x","start_at":"10:00:00+05:30","end_at":"11:00-08"}"#, status: 201,
            expect: .exact(#"[{"id":7,"name":"x","start_at":"10:00:00+05:30","end_at":"11:00:00-08"}]"#)),
        // bytea: hex output, both input forms (QuerySpec "works for bytea" for in.()).
        Case(name: "bytea output", target: "blobs?select=bin&id=eq.1", status: 200, expect: .exact(#"[{"bin":"\\x616263"}]"#)),
        Case(name: "bytea hex filter", target: "blobs?select=id&bin=eq.%5Cx00FF", status: 200, expect: ids([2])),
        Case(name: "bytea in empty", target: "blobs?bin=in.()", status: 200, expect: .exact("[]")),
        Case(
            name: "bytea escape input", method: "POST", target: "blobs", headers: ["Prefer": "return=representation"],
            body: #"{"id":3,"bin":"a\\\\b\\001"}"#, status: 201, expect: .exact(#"[{"id":3,"bin":"\\x615c6201","span":null}]"#)),
        Case(
            name: "bytea bad hex", method: "POST", target: "blobs", body: #"{"id":3,"bin":"\\xzz"}"#, status: 400,
            expect: pgError("22023", #"invalid hexadecimal digit: "z""#)),
        // interval: postgres IntervalStyle output, spans compare across units.
        Case(name: "interval output", target: "blobs?select=span&order=id", status: 200, expect: rows("span", [#""1 day 02:00:00""#, #""36:00:00""#])),
        Case(name: "interval equal spans", target: "blobs?select=id&span=eq.1%20day%2012:00:00", status: 200, expect: ids([2])),
        Case(
            name: "interval iso input", method: "POST", target: "blobs", headers: ["Prefer": "return=representation"],
            body: #"{"id":3,"span":"P1Y2M3DT4H5M6.5S"}"#, status: 201, expect: .exact(#"[{"id":3,"bin":null,"span":"1 year 2 mons 3 days 04:05:06.5"}]"#)),
        Case(
            name: "interval fractions spill", method: "POST", target: "blobs", headers: ["Prefer": "return=representation"],
            body: #"{"id":3,"span":"1.5 months"}"#, status: 201, expect: .exact(#"[{"id":3,"bin":null,"span":"1 mon 15 days"}]"#)),
        Case(
            name: "interval bad input", method: "POST", target: "blobs", body: #"{"id":3,"span":"foo"}"#, status: 400,
            expect: pgError("22007", #"invalid input syntax for type interval: "foo""#)),
        // Range columns (AndOrParamsSpec.hs "can handle range operators", data.sql `ranges`).
        Case(name: "range eq", target: "ranges?range=eq.[1,3]&select=id", status: 200, expect: ids([1])),
        Case(name: "range neq", target: "ranges?range=neq.[1,3]&select=id", status: 200, expect: ids([2, 3, 4])),
        Case(name: "range lt", target: "ranges?range=lt.[1,10]&select=id", status: 200, expect: ids([1])),
        Case(name: "range gt", target: "ranges?range=gt.[8,11]&select=id", status: 200, expect: ids([4])),
        Case(name: "range lte", target: "ranges?range=lte.[1,3]&select=id", status: 200, expect: ids([1])),
        Case(name: "range gte", target: "ranges?range=gte.[2,3]&select=id", status: 200, expect: ids([2, 3, 4])),
        Case(name: "range cs", target: "ranges?range=cs.[1,2]&select=id", status: 200, expect: ids([1])),
        Case(name: "range cd", target: "ranges?range=cd.[1,6]&select=id", status: 200, expect: ids([1, 2])),
        Case(name: "range ov", target: "ranges?range=ov.[0,4]&select=id", status: 200, expect: ids([1, 2])),
        Case(name: "range sl", target: "ranges?range=sl.[9,10]&select=id", status: 200, expect: ids([1, 2])),
        Case(name: "range sr", target: "ranges?range=sr.[3,4]&select=id", status: 200, expect: ids([3, 4])),
        Case(name: "range nxr", target: "ranges?range=nxr.[4,7]&select=id", status: 200, expect: ids([1, 2])),
        Case(name: "range nxl", target: "ranges?range=nxl.[4,7]&select=id", status: 200, expect: ids([3, 4])),
        Case(name: "range adj", target: "ranges?range=adj.(3,10]&select=id", status: 200, expect: ids([1])),
        Case(name: "range isdistinct", target: "ranges?range=isdistinct.[1,3]&select=id", status: 200, expect: ids([2, 3, 4, 5])),
        Case(
            name: "range output canonical", target: "ranges?select=range,slots,during&id=eq.1", status: 200,
            expect: .exact(#"[{"range":"[1,3]","slots":"[1,4)","during":"[\"2024-01-01 10:00:00+00\",\"2024-01-01 12:00:00+00\")"}]"#)),
        Case(
            name: "range empty", method: "POST", target: "ranges", headers: ["Prefer": "return=representation"], body: #"{"id":6,"slots":"(3,4)"}"#,
            status: 201, expect: .exact(#"[{"id":6,"range":null,"slots":"empty","during":null}]"#)),
        Case(
            name: "range malformed", target: "ranges?range=eq.1,3", status: 400,
            expect: pgError("22P02", #"malformed range literal: "1,3""#, details: "Missing left parenthesis or bracket.")),
        Case(
            name: "range bounds reversed", target: "ranges?range=eq.[3,1]", status: 400,
            expect: pgError("22000", "range lower bound must be less than or equal to range upper bound")),
        // money (InsertSpec.hs "accepts disparate json types", schema.sql `menagerie`).
        Case(
            name: "money insert", method: "POST", target: "menagerie",
            body: #"{"integer": 13, "double": 3.14159, "varchar": "testing!", "boolean": false, "date": "1900-01-01", "money": "$3.99", "enum": "foo"}"#,
            status: 201, expect: .exact(""), expectAbsent: ["Content-Type"]),
        Case(
            name: "money insert select", method: "POST", target: "menagerie?select=integer,varchar", headers: ["Prefer": "return=representation"],
            body: #"[{"integer": 14, "double": 3.14159, "varchar": "testing!", "boolean": false, "date": "1900-01-01", "money": "$3.99", "enum": "foo"}]"#,
            status: 201, expect: .exact(#"[{"integer":14,"varchar":"testing!"}]"#), expectHeaders: ["Preference-Applied": "return=representation"]),
        Case(
            name: "money output", method: "POST", target: "menagerie", headers: ["Prefer": "return=representation"],
            body: #"{"integer": 15, "double": 3.14159, "varchar": "t", "boolean": true, "date": "1900-01-01", "money": -1234567.891, "enum": "bar"}"#,
            status: 201,
            expect: .exact(#"[{"integer":15,"double":3.14159,"varchar":"t","boolean":true,"date":"1900-01-01","money":"-$1,234,567.89","enum":"bar"}]"#)),
        Case(
            name: "money bad input", method: "POST", target: "menagerie",
            body: #"{"integer": 16, "double": 1, "varchar": "t", "boolean": true, "date": "1900-01-01", "money": "abc", "enum": "foo"}"#,
            status: 400, expect: pgError("22P02", #"invalid input syntax for type money: "abc""#)),
        // Which error wins when a request has several (QueryParams.hs parse order: order, logic,
        // columns, select, filters; ApiRequest.hs ranges; Plan.hs relationships before PGRST123).
        Case(
            name: "aggregate alone", target: "projects?select=count()", status: 400,
            expect: pgError("PGRST123", "Use of aggregate functions is not allowed")),
        Case(
            name: "relationship error before aggregate", target: "clients?select=id,nope(count())", status: 400,
            expect: pgError(
                "PGRST200", "Could not find a relationship between 'clients' and 'nope' in the schema cache",
                details: "Searched for a foreign key relationship between 'clients' and 'nope' in the schema 'public', but no matches were found.")),
        Case(
            name: "order parse error before aggregate", target: "projects?select=name.sum()&order=id.bad", status: 400,
            expect: pgError(
                "PGRST100", #""failed to parse order (id.bad)" (line 1, column 4)"#,
                details: #"unexpected "b" expecting "asc", "desc", "nullsfirst" or "nullslast""#)),
        Case(
            name: "negative limit before aggregate", target: "projects?select=count()&limit=-1", status: 416,
            expect: pgError("PGRST103", "Requested range not satisfiable", details: "Limit should be greater than or equal to zero.")),
        Case(
            name: "order parsed before select", target: "projects?select=id,(&order=id.bad", status: 400,
            expect: pgError(
                "PGRST100", #""failed to parse order (id.bad)" (line 1, column 4)"#,
                details: #"unexpected "b" expecting "asc", "desc", "nullsfirst" or "nullslast""#)),
        Case(name: "select parsed before filters", target: "projects?id=zz.1&select=id,(", status: 400),
        // tsvector columns (QuerySpec.hs "Full text search operator", "tsvector columns").
        Case(
            name: "tsvector fts", target: "tsearch?text_search_vector=fts.impossible", status: 200,
            expect: .exact(#"[{"text_search_vector":"'fun':5 'imposs':9 'kind':3"}]"#)),
        Case(
            name: "tsvector fts and", target: "tsearch?text_search_vector=fts.fun%26possible", status: 200,
            expect: .exact(#"[{"text_search_vector":"'also':2 'fun':3 'possibl':8"}]"#)),
        Case(
            name: "tsvector plfts", target: "tsearch?text_search_vector=plfts.The%20Fat%20Rats", status: 200,
            expect: .exact(#"[{"text_search_vector":"'ate':3 'cat':2 'fat':1 'rat':4"}]"#)),
        Case(
            name: "tsvector wfts not", target: "tsearch?text_search_vector=wfts.fun%20and%20-possible", status: 200,
            expect: .exact(#"[{"text_search_vector":"'fun':5 'imposs':9 'kind':3"}]"#)),
        Case(
            name: "tsvector not fts", target: "tsearch?text_search_vector=not.fts.impossible%7Cfat%7Cfun", status: 200,
            expect: rows("text_search_vector", [#""'amus':5 'fair':7 'impossibl':9 'peu':4""#, #""'art':4 'spass':5 'unmog':7""#])),
        Case(
            name: "tsvector german", target: "tsearch?text_search_vector=plfts(german).Art%20Spass", status: 200,
            expect: .exact(#"[{"text_search_vector":"'art':4 'spass':5 'unmog':7"}]"#)),
        Case(
            name: "tsvector input sorted", method: "POST", target: "tsearch", headers: ["Prefer": "return=representation"],
            body: #"{"text_search_vector":"foo:1 'bar':2,1 baz"}"#, status: 201, expect: .exact(#"[{"text_search_vector":"'bar':1,2 'baz' 'foo':1"}]"#))
    ]
}
