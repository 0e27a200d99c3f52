import XCTest
@testable import MockSupabase

/// Cases on `SpecTablesFixture` (PostgREST's own test tables and rows), one or more for each
/// behaviour QuerySpec.hs pins on plain tables: filters and their negations, trilean `is`,
/// regex operators, nested embedded filters and PGRST108, array containment, select shaping and
/// casts, embedding both ways and many-to-many, aliased embeds, ordering (with PGRST100 positions),
/// `Accept` negotiation, `in.()` quoting and escapes, empty embeds, empty `select=`, `any`/`all`
/// quantifiers, and the 404s for unknown tables and paths. Expectations follow PostgREST's
/// behaviour as its specs and source describe it, in this corpus's own words.
extension PostgRESTCaseCorpusTests {
    static func onSpecTables(_ cases: [Case]) -> [Case] {
        cases.map {
            var c = $0; c.onSpecTables = true; return c
        }
    }

    static let specTableCases: [Case] = onSpecTables([
        // Filters and their negations
        Case(
            name: "st eq", target: "items?id=eq.5", status: 200, expect: .exact(#"[{"id":5}]"#),
            expectHeaders: ["Content-Range": "0-0/*", "Content-Length": "10"]),
        Case(
            name: "st not.eq", target: "items?id=not.eq.5&order=id", status: 200,
            expect: .json(
                #"[{"id":1},{"id":2},{"id":3},{"id":4},{"id":6},{"id":7},{"id":8},{"id":9},{"id":10},{"id":11},{"id":12},{"id":13},{"id":14},{"id":15}]"#),
            expectHeaders: ["Content-Range": "0-13/*"]),
        Case(name: "st two conditions", target: "simple_pk?k=like.*yx&extra=not.eq.u", status: 200, expect: .exact("[]")),
        Case(
            name: "st not.lt", target: "items?id=not.lt.14&order=id.asc", status: 200, expect: .json(#"[{"id":14},{"id":15}]"#),
            expectHeaders: ["Content-Range": "0-1/*"]),
        Case(name: "st not.gt", target: "items?id=not.gt.2&order=id.asc", status: 200, expect: .json(#"[{"id":1},{"id":2}]"#)),
        Case(
            name: "st in", target: "items?id=in.(1,3,5)", status: 200, expect: .json(#"[{"id":1},{"id":3},{"id":5}]"#),
            expectHeaders: ["Content-Range": "0-2/*"]),
        Case(name: "st not.in", target: "items?id=not.in.(2,4,6,7,8,9,10,11,12,13,14,15)", status: 200, expect: .json(#"[{"id":1},{"id":3},{"id":5}]"#)),
        Case(
            name: "st not.is.null", target: "no_pk?a=not.is.null", status: 200, expect: .json(#"[{"a":"1","b":"0"},{"a":"2","b":"0"}]"#),
            expectHeaders: ["Content-Type": "application/json; charset=utf-8"]),
        Case(name: "st is.not_null", target: "no_pk?a=is.not_null", status: 200, expect: .json(#"[{"a":"1","b":"0"},{"a":"2","b":"0"}]"#)),
        Case(name: "st is.null", target: "no_pk?a=is.null", status: 200, expect: .exact(#"[{"a":null,"b":null}]"#)),
        Case(name: "st not.is.not_null", target: "no_pk?a=not.is.not_null", status: 200, expect: .json(#"[{"a":null,"b":null}]"#)),
        Case(name: "st int is.null", target: "nullable_integer?a=is.null", status: 200, expect: .exact(#"[{"a":null}]"#)),
        Case(name: "st is.true", target: "chores?done=is.true", status: 200, expect: .json(#"[{"id":1,"name":"take out the garbage","done":true}]"#)),
        Case(name: "st is.false", target: "chores?done=is.false", status: 200, expect: .json(#"[{"id":2,"name":"do the laundry","done":false}]"#)),
        Case(name: "st is.unknown", target: "chores?done=is.unknown", status: 200, expect: .json(#"[{"id":3,"name":"wash the dishes","done":null}]"#)),
        Case(name: "st is.NULL", target: "chores?done=is.NULL", status: 200, expect: .json(#"[{"id":3,"name":"wash the dishes","done":null}]"#)),
        Case(
            name: "st is.NoT_NuLl", target: "chores?done=is.NoT_NuLl", status: 200,
            expect: .json(#"[{"id":1,"name":"take out the garbage","done":true},{"id":2,"name":"do the laundry","done":false}]"#)),
        Case(name: "st is.TRUE", target: "chores?done=is.TRUE", status: 200, expect: .json(#"[{"id":1,"name":"take out the garbage","done":true}]"#)),
        Case(name: "st is.FAlSe", target: "chores?done=is.FAlSe", status: 200, expect: .json(#"[{"id":2,"name":"do the laundry","done":false}]"#)),
        Case(name: "st is.UnKnOwN", target: "chores?done=is.UnKnOwN", status: 200, expect: .json(#"[{"id":3,"name":"wash the dishes","done":null}]"#)),
        Case(
            name: "st is.nil", target: "chores?done=is.nil", status: 400,
            expect: .json(
                #"{"code":"PGRST100","details":"unexpected \"n\" expecting isVal: (null, not_null, true, false, unknown)","hint":null,"message":"\"failed to parse filter (is.nil)\" (line 1, column 4)"}"#
            )),
        Case(name: "st is.ok", target: "chores?done=is.ok", status: 400),
        Case(name: "st like suffix", target: "simple_pk?k=like.*yx", status: 200, expect: .json(#"[{"k":"xyyx","extra":"u"}]"#)),
        Case(name: "st like prefix", target: "simple_pk?k=like.xy*", status: 200, expect: .json(#"[{"k":"xyyx","extra":"u"}]"#)),
        Case(name: "st like infix", target: "simple_pk?k=like.*YY*", status: 200, expect: .json(#"[{"k":"xYYx","extra":"v"}]"#)),
        Case(name: "st not.like", target: "simple_pk?k=not.like.*yx", status: 200, expect: .json(#"[{"k":"xYYx","extra":"v"}]"#)),
        Case(
            name: "st ilike", target: "simple_pk?k=ilike.*YY*&order=extra.asc", status: 200,
            expect: .json(#"[{"k":"xyyx","extra":"u"},{"k":"xYYx","extra":"v"}]"#)),
        Case(name: "st not.ilike", target: "simple_pk?k=not.ilike.xy*&order=extra.asc", status: 200, expect: .exact("[]")),
        Case(name: "st match $", target: "simple_pk?k=match.yx$", status: 200, expect: .json(#"[{"k":"xyyx","extra":"u"}]"#)),
        Case(name: "st match ^", target: "simple_pk?k=match.^xy", status: 200, expect: .json(#"[{"k":"xyyx","extra":"u"}]"#)),
        Case(name: "st match case", target: "simple_pk?k=match.YY", status: 200, expect: .json(#"[{"k":"xYYx","extra":"v"}]"#)),
        Case(name: "st not.match", target: "simple_pk?k=not.match.yx$", status: 200, expect: .json(#"[{"k":"xYYx","extra":"v"}]"#)),
        Case(
            name: "st imatch", target: "simple_pk?k=imatch..*YY.*&order=extra.asc", status: 200,
            expect: .json(#"[{"k":"xyyx","extra":"u"},{"k":"xYYx","extra":"v"}]"#)),
        Case(name: "st not.imatch", target: "simple_pk?k=not.imatch.^xy&order=extra.asc", status: 200, expect: .exact("[]")),
        Case(
            name: "st nested filter", target: "clients?select=id,projects(id,tasks(id,name))&projects.tasks.name=like.Design*", status: 200,
            expect: .exact(
                #"[{"id":1,"projects":[{"id": 1, "tasks": [{"id": 1, "name": "Design w7"}]}, {"id": 2, "tasks": [{"id": 3, "name": "Design w10"}]}]}, "# + "\n "
                    + #"{"id":2,"projects":[{"id": 3, "tasks": [{"id": 5, "name": "Design IOS"}]}, {"id": 4, "tasks": [{"id": 7, "name": "Design OSX"}]}]}]"#)),
        Case(
            name: "st PGRST108 root", target: "clients?select=*&non_existent_projects.name=like.*NonExistent*", status: 400,
            expect: .exact(
                #"{"code":"PGRST108","details":null,"hint":"Verify that 'non_existent_projects' is included in the 'select' query parameter.","message":"'non_existent_projects' is not an embedded resource in this request"}"#
            ), expectHeaders: ["Content-Length": "204"]),
        Case(
            name: "st PGRST108 alias", target: "clients?select=*,amiga_projects:projects(*)&amiga_projectsss.name=ilike.*Amiga*", status: 400,
            expect: .json(
                #"{"code":"PGRST108","details":null,"hint":"Verify that 'amiga_projectsss' is included in the 'select' query parameter.","message":"'amiga_projectsss' is not an embedded resource in this request"}"#
            )),
        Case(
            name: "st PGRST108 nested", target: "clients?select=id,projects(id,tasks(id,name))&projects.tasks2.name=like.Design*", status: 400,
            expect: .json(
                #"{"code":"PGRST108","details":null,"hint":"Verify that 'tasks2' is included in the 'select' query parameter.","message":"'tasks2' is not an embedded resource in this request"}"#
            )),
        Case(name: "st cs array", target: "complex_items?select=id&arr_data=cs.{2}", status: 200, expect: .json(#"[{"id":2},{"id":3}]"#)),
        Case(name: "st cd array", target: "complex_items?select=id&arr_data=cd.{1,2,4}", status: 200, expect: .json(#"[{"id":1},{"id":2}]"#)),
        Case(name: "st isdistinct", target: "no_pk?select=a&a=isdistinct.2", status: 200, expect: .json(#"[{"a":null},{"a":"1"}]"#)),
        Case(name: "st not.isdistinct", target: "no_pk?select=a&a=not.isdistinct.2", status: 200, expect: .json(#"[{"a":"2"}]"#)),
        // Shaping with select
        // (A `json` column prints as PostgreSQL stored its input text; the mock prints it as jsonb, see README.)
        Case(
            name: "st array and dashed columns", target: "complex_items?id=eq.3&select=id,name,arr_data,field-with_sep", status: 200,
            expect: .exact(#"[{"id":3,"name":"Three","arr_data":[1,2,3],"field-with_sep":3}]"#)),
        Case(name: "st dash column", target: "complex_items?id=eq.3&select=id,field-with_sep", status: 200, expect: .exact(#"[{"id":3,"field-with_sep":3}]"#)),
        Case(name: "st rename", target: "complex_items?id=eq.1&select=myId:id", status: 200, expect: .exact(#"[{"myId":1}]"#)),
        Case(name: "st cast text", target: "complex_items?select=id::text", status: 200, expect: .json(#"[{"id":"1"},{"id":"2"},{"id":"3"}]"#)),
        Case(name: "st rename cast", target: "complex_items?id=eq.1&select=myId:id::text", status: 200, expect: .exact(#"[{"myId":"1"}]"#)),
        Case(
            name: "st bad cast", target: "complex_items?select=id::fakecolumntype", status: 400,
            expect: .exact(#"{"code":"42704","details":null,"hint":null,"message":"type \"fakecolumntype\" does not exist"}"#),
            expectHeaders: ["Content-Length": "94"]),
        Case(
            name: "st parents and children", target: "projects?id=eq.1&select=id,%20name,%20clients(*),%20tasks(id,%20name)", status: 200,
            expect: .exact(
                #"[{"id":1,"name":"Windows 7","clients":{"id": 1, "name": "Microsoft"},"tasks":[{"id": 1, "name": "Design w7"}, {"id": 2, "name": "Code w7"}]}]"#
            ), expectHeaders: ["Content-Length": "141"]),
        Case(
            name: "st parent renamed key", target: "projects?select=name,client:clients(clientId:id,name)", status: 200,
            expect: .json(
                #"[{"name":"Windows 7","client":{"name":"Microsoft","clientId":1}},{"name":"Windows 10","client":{"name":"Microsoft","clientId":1}},{"name":"IOS","client":{"name":"Apple","clientId":2}},{"name":"OSX","client":{"name":"Apple","clientId":2}},{"name":"Orphan","client":null}]"#
            )),
        Case(
            name: "st renamed parents and children",
            target: "projects?id=eq.1&select=myId:id,%20name,%20project_client:clients(*),%20project_tasks:tasks(id,%20name)", status: 200,
            expect: .json(
                #"[{"myId":1,"name":"Windows 7","project_client":{"id":1,"name":"Microsoft"},"project_tasks":[{"id":1,"name":"Design w7"},{"id":2,"name":"Code w7"}]}]"#
            )),
        Case(
            name: "st missing parent", target: "projects?id=in.(1,5)&select=id,clients(id)", status: 200,
            expect: .json(#"[{"id":1,"clients":{"id":1}},{"id":5,"clients":null}]"#)),
        Case(name: "st no children", target: "projects?id=in.(5)&select=id,tasks(id)", status: 200, expect: .exact(#"[{"id":5,"tasks":[]}]"#)),
        Case(
            name: "st children 2 levels", target: "clients?id=eq.1&select=id,projects(id,tasks(id))", status: 200,
            expect: .exact(#"[{"id":1,"projects":[{"id": 1, "tasks": [{"id": 1}, {"id": 2}]}, {"id": 2, "tasks": [{"id": 3}, {"id": 4}]}]}]"#)),
        Case(
            name: "st m2m", target: "tasks?select=id,users(id)", status: 200,
            expect: .json(
                #"[{"id":1,"users":[{"id":1},{"id":3}]},{"id":2,"users":[{"id":1}]},{"id":3,"users":[{"id":1}]},{"id":4,"users":[{"id":1}]},{"id":5,"users":[{"id":2},{"id":3}]},{"id":6,"users":[{"id":2}]},{"id":7,"users":[{"id":2}]},{"id":8,"users":[]}]"#
            )),
        Case(
            name: "st m2m rename", target: "tasks?id=eq.1&select=id,theUsers:users(id)", status: 200,
            expect: .json(#"[{"id":1,"theUsers":[{"id":1},{"id":3}]}]"#)),
        Case(
            name: "st m2m reverse", target: "users?select=id,tasks(id)", status: 200,
            expect: .json(
                #"[{"id":1,"tasks":[{"id":1},{"id":2},{"id":3},{"id":4}]},{"id":2,"tasks":[{"id":5},{"id":6},{"id":7}]},{"id":3,"tasks":[{"id":1},{"id":5}]}]"#)
        ),
        Case(
            name: "st embed by fk name", target: "tasks?id=eq.1&select=id,project(name)", status: 200,
            expect: .exact(#"[{"id":1,"project":{"name": "Windows 7"}}]"#)),
        // Aliased embeds
        Case(
            name: "st aliased m2m filters",
            target: "users?select=id,designTasks:tasks(id,name),codeTasks:tasks(id,name)&designTasks.name=like.*Design*&codeTasks.name=like.*Code*",
            status: 200,
            expect: .json(
                #"[{"id":1,"designTasks":[{"id":1,"name":"Design w7"},{"id":3,"name":"Design w10"}],"codeTasks":[{"id":2,"name":"Code w7"},{"id":4,"name":"Code w10"}]},{"id":2,"designTasks":[{"id":5,"name":"Design IOS"},{"id":7,"name":"Design OSX"}],"codeTasks":[{"id":6,"name":"Code IOS"}]},{"id":3,"designTasks":[{"id":1,"name":"Design w7"},{"id":5,"name":"Design IOS"}],"codeTasks":[]}]"#
            )),
        Case(
            name: "st aliased child nested",
            target: "projects?select=id,name,designTasks:tasks(name,users(id,name))&designTasks.name=like.*Design*&designTasks.users.id=in.(1,2)", status: 200,
            expect: .json(
                #"[{"id":1,"name":"Windows 7","designTasks":[{"name":"Design w7","users":[{"id":1,"name":"Angela Martin"}]}]},{"id":2,"name":"Windows 10","designTasks":[{"name":"Design w10","users":[{"id":1,"name":"Angela Martin"}]}]},{"id":3,"name":"IOS","designTasks":[{"name":"Design IOS","users":[{"id":2,"name":"Michael Scott"}]}]},{"id":4,"name":"OSX","designTasks":[{"name":"Design OSX","users":[{"id":2,"name":"Michael Scott"}]}]},{"id":5,"name":"Orphan","designTasks":[]}]"#
            )),
        Case(
            name: "st aliased and/or",
            target:
                "entities?select=id,children:child_entities(id,gChildren:grandchild_entities(id))&children.and=(id.in.(1,2,3))&children.gChildren.or=(id.eq.1,id.eq.2)",
            status: 200,
            expect: .json(
                #"[{"id":1,"children":[{"id":1,"gChildren":[{"id":1},{"id":2}]},{"id":2,"gChildren":[]}]},{"id":2,"children":[{"id":3,"gChildren":[]}]},{"id":3,"children":[]},{"id":4,"children":[]}]"#
            )),
        // Ordering
        Case(
            name: "st order desc", target: "items?id=lte.2&order=id.desc", status: 200, expect: .json(#"[{"id":2},{"id":1}]"#),
            expectHeaders: ["Content-Range": "0-1/*"]),
        Case(
            name: "st order nullsfirst", target: "no_pk?order=a.nullsfirst", status: 200,
            expect: .json(#"[{"a":null,"b":null},{"a":"1","b":"0"},{"a":"2","b":"0"}]"#), expectHeaders: ["Content-Range": "0-2/*"]),
        Case(
            name: "st order asc nullslast", target: "no_pk?order=a.asc.nullslast", status: 200,
            expect: .json(#"[{"a":"1","b":"0"},{"a":"2","b":"0"},{"a":null,"b":null}]"#)),
        Case(
            name: "st order desc default nulls", target: "no_pk?order=a.desc", status: 200,
            expect: .json(#"[{"a":null,"b":null},{"a":"2","b":"0"},{"a":"1","b":"0"}]"#)),
        Case(
            name: "st order two columns", target: "projects?select=client_id,id,name&order=client_id.desc.nullslast,id.desc", status: 200,
            expect: .json(
                #"[{"client_id":2,"id":4,"name":"OSX"},{"client_id":2,"id":3,"name":"IOS"},{"client_id":1,"id":2,"name":"Windows 10"},{"client_id":1,"id":1,"name":"Windows 7"},{"client_id":null,"id":5,"name":"Orphan"}]"#
            ), expectHeaders: ["Content-Range": "0-4/*"]),
        Case(
            name: "st embedded order", target: "projects?id=eq.1&select=id,%20name,%20tasks(id,%20name)&tasks.order=name.asc", status: 200,
            expect: .exact(#"[{"id":1,"name":"Windows 7","tasks":[{"id": 2, "name": "Code w7"}, {"id": 1, "name": "Design w7"}]}]"#)),
        Case(
            name: "st embedded order alias", target: "projects?id=eq.1&select=id,%20name,%20the_tasks:tasks(id,%20name)&the_tasks.order=name.asc", status: 200,
            expect: .json(#"[{"id":1,"name":"Windows 7","the_tasks":[{"id":2,"name":"Code w7"},{"id":1,"name":"Design w7"}]}]"#)),
        Case(
            name: "st embedded order two levels",
            target: "projects?id=eq.1&select=id,%20name,%20tasks(id,%20name,%20users(id,%20name))&tasks.order=name.asc&tasks.users.order=name.desc",
            status: 200,
            expect: .json(
                #"[{"id":1,"name":"Windows 7","tasks":[{"id":2,"name":"Code w7","users":[{"id":1,"name":"Angela Martin"}]},{"id":1,"name":"Design w7","users":[{"id":3,"name":"Dwight Schrute"},{"id":1,"name":"Angela Martin"}]}]}]"#
            )),
        Case(
            name: "st order parent embed", target: "projects?id=eq.1&select=id,%20name,%20clients(id,%20name)&clients.order=name.asc", status: 200,
            expect: .json(#"[{"id":1,"name":"Windows 7","clients":{"id":1,"name":"Microsoft"}}]"#)),
        Case(
            name: "st order bad syntax", target: "items?order=id.asc.nullslasttt", status: 400,
            expect: .exact(
                #"{"code":"PGRST100","details":"unexpected 't' expecting \",\" or end of input","hint":null,"message":"\"failed to parse order (id.asc.nullslasttt)\" (line 1, column 17)"}"#
            ), expectHeaders: ["Content-Length": "169"]),
        Case(
            name: "st order descc", target: "items?order=id.descc", status: 400,
            expect: .json(
                #"{"code":"PGRST100","details":"unexpected 'c' expecting delimiter (.), \",\" or end of input","hint":null,"message":"\"failed to parse order (id.descc)\" (line 1, column 8)"}"#
            )),
        Case(
            name: "st order nulsfist", target: "items?order=id.nulsfist", status: 400,
            expect: .json(
                #"{"code":"PGRST100","details":"unexpected \"n\" expecting \"asc\", \"desc\", \"nullsfirst\" or \"nullslast\"","hint":null,"message":"\"failed to parse order (id.nulsfist)\" (line 1, column 4)"}"#
            )),
        Case(
            name: "st order nullslasttt", target: "items?order=id.nullslasttt", status: 400,
            expect: .json(
                #"{"code":"PGRST100","details":"unexpected 't' expecting \",\" or end of input","hint":null,"message":"\"failed to parse order (id.nullslasttt)\" (line 1, column 13)"}"#
            )),
        Case(
            name: "st order asc then bad nulls", target: "items?order=id.asc.nlsfst", status: 400,
            expect: .json(
                #"{"code":"PGRST100","details":"unexpected \"l\" expecting \"nullsfirst\" or \"nullslast\"","hint":null,"message":"\"failed to parse order (id.asc.nlsfst)\" (line 1, column 8)"}"#
            )),
        Case(
            name: "st order relation list", target: "projects?select=id,clients(name)&order=clients(name,id)", status: 400,
            expect: .json(
                #"{"code":"PGRST100","details":"unexpected '(' expecting letter, digit, \"-\", \"->>\", \"->\", delimiter (.), \",\" or end of input","hint":null,"message":"\"failed to parse order (clients(name,id))\" (line 1, column 8)"}"#
            )),
        Case(
            name: "st order related desc", target: "projects?select=id,clients(name)&order=clients(name).desc.nullslast,id&limit=3", status: 200,
            expect: .json(#"[{"id":1,"clients":{"name":"Microsoft"}},{"id":2,"clients":{"name":"Microsoft"}},{"id":3,"clients":{"name":"Apple"}}]"#)),
        Case(
            name: "st target name for alias",
            target: "projects?id=eq.1&select=id,%20name,%20the_tasks:tasks(id,%20name)&tasks.name=like.Code*&tasks.order=name.asc&tasks.limit=1", status: 200,
            expect: .json(#"[{"id":1,"name":"Windows 7","the_tasks":[{"id":2,"name":"Code w7"}]}]"#)),
        // Accept negotiation
        Case(
            name: "st unknown accept", target: "simple_pk", headers: ["Accept": "text/unknowntype"], status: 406,
            expect: .exact(#"{"code":"PGRST107","details":null,"hint":null,"message":"None of these media types are available: text/unknowntype"}"#),
            expectHeaders: ["Content-Length": "116"]),
        Case(
            name: "st accept any", target: "simple_pk", headers: ["Accept": "*/*"], status: 200,
            expectHeaders: ["Content-Type": "application/json; charset=utf-8"]),
        Case(name: "st any rescues unknown", target: "simple_pk", headers: ["Accept": "text/unknowntype, */*"], status: 200),
        Case(
            name: "st csv before any", target: "simple_pk", headers: ["Accept": "text/csv, */*"], status: 200,
            expectHeaders: ["Content-Type": "text/csv; charset=utf-8"]),
        Case(
            name: "st csv before json", target: "simple_pk", headers: ["Accept": "text/csv, application/json"], status: 200,
            expectHeaders: ["Content-Type": "text/csv; charset=utf-8"]),
        Case(
            name: "st unknown then csv", target: "simple_pk", headers: ["Accept": "text/unknowntype, text/csv"], status: 200,
            expectHeaders: ["Content-Type": "text/csv; charset=utf-8"]),
        Case(
            name: "st csv with parameter", target: "simple_pk?order=k.desc", headers: ["Accept": "text/csv; version=1"], status: 200,
            expect: .exact("k,extra\nxyyx,u\nxYYx,v"), expectHeaders: ["Content-Type": "text/csv; charset=utf-8", "Content-Length": "21"]),
        // Request syntax corners
        Case(
            name: "st filter without operator", target: "items?id=0", status: 400,
            expect: .exact(
                #"{"code":"PGRST100","details":"unexpected \"0\" expecting \"not\" or operator (eq, gt, ...)","hint":null,"message":"\"failed to parse filter (0)\" (line 1, column 1)"}"#
            )),
        Case(
            name: "st in quoted comma", target: "w_or_wo_comma_names?name=in.(%22Hebdon,%20John%22)", status: 200, expect: .exact(#"[{"name":"Hebdon, John"}]"#)
        ),
        Case(
            name: "st in three quoted", target: "w_or_wo_comma_names?name=in.(%22Hebdon,%20John%22,%22Williams,%20Mary%22,%22Smith,%20Joseph%22)", status: 200,
            expect: .json(#"[{"name":"Hebdon, John"},{"name":"Williams, Mary"},{"name":"Smith, Joseph"}]"#)),
        Case(
            name: "st not.in quoted limit",
            target: "w_or_wo_comma_names?name=not.in.(%22Hebdon,%20John%22,%22Williams,%20Mary%22,%22Smith,%20Joseph%22)&limit=3", status: 200,
            expect: .json(#"[{"name":"David White"},{"name":"Larry Thompson"},{"name":"Double O Seven(007)"}]"#)),
        Case(
            name: "st in mixed quoting", target: "w_or_wo_comma_names?name=in.(David%20White,%22Hebdon,%20John%22)", status: 200,
            expect: .json(#"[{"name":"Hebdon, John"},{"name":"David White"}]"#)),
        Case(
            name: "st in parens inside quotes", target: "w_or_wo_comma_names?name=in.(%22Double%20O%20Seven(007)%22)", status: 200,
            expect: .json(#"[{"name":"Double O Seven(007)"}]"#)),
        Case(
            name: "st in escaped quotes", target: #"w_or_wo_comma_names?name=in.(%22Double\%22Quote\%22McGraw\%22%22)"#, status: 200,
            expect: .exact(#"[{"name":"Double\"Quote\"McGraw\""}]"#)),
        Case(name: "st in escaped backslash", target: #"w_or_wo_comma_names?name=in.(%22\\%22)"#, status: 200, expect: .exact(#"[{"name":"\\"}]"#)),
        Case(
            name: "st in escaped slashes", target: #"w_or_wo_comma_names?name=in.(%22/\\Slash/\\Beast/\\%22)"#, status: 200,
            expect: .exact(#"[{"name":"/\\Slash/\\Beast/\\"}]"#)),
        Case(
            name: "st in any escaped char", target: #"w_or_wo_comma_names?name=in.(%22D\a\vid%20W\h\ite%22)"#, status: 200,
            expect: .exact(#"[{"name":"David White"}]"#)),
        Case(name: "st in lone quote", target: "w_or_wo_comma_names?name=in.(%22)", status: 200, expect: .exact(#"[{"name":"\""}]"#)),
        Case(
            name: "st in unquoted quotes", target: "w_or_wo_comma_names?name=in.(Double%22Quote%22McGraw%22)", status: 200,
            expect: .exact(#"[{"name":"Double\"Quote\"McGraw\""}]"#)),
        Case(name: "st in unquoted backslash", target: #"w_or_wo_comma_names?name=in.(\)"#, status: 200, expect: .exact(#"[{"name":"\\"}]"#)),
        Case(
            name: "st in unquoted slashes", target: #"w_or_wo_comma_names?name=in.(/\Slash/\Beast/\)"#, status: 200,
            expect: .exact(#"[{"name":"/\\Slash/\\Beast/\\"}]"#)),
        Case(name: "st in spaces only", target: "items?id=in.(%20%20%20%20)", status: 200, expect: .exact("[]")),
        Case(
            name: "st in blank first", target: "items?id=in.(%20,3,4)", status: 400,
            expect: .exact(#"{"code":"22P02","details":null,"hint":null,"message":"invalid input syntax for type bigint: \"\""}"#)),
        Case(name: "st empty eq", target: "empty_string?string=eq.&select=id,string", status: 200, expect: .exact(#"[{"id":1,"string":""}]"#)),
        // Empty embeds and an empty select
        Case(
            name: "st empty m2o embed", target: "projects?select=id,name,clients()", status: 200,
            expect: .json(#"[{"id":1,"name":"Windows 7"},{"id":2,"name":"Windows 10"},{"id":3,"name":"IOS"},{"id":4,"name":"OSX"},{"id":5,"name":"Orphan"}]"#)),
        Case(
            name: "st empty m2o inner", target: "projects?select=id,name,clients!inner()&clients.id=eq.2", status: 200,
            expect: .json(#"[{"id":3,"name":"IOS"},{"id":4,"name":"OSX"}]"#)),
        Case(
            name: "st empty o2m embed", target: "clients?select=id,name,projects()", status: 200,
            expect: .json(#"[{"id":1,"name":"Microsoft"},{"id":2,"name":"Apple"}]"#)),
        Case(
            name: "st empty o2m inner", target: "clients?select=id,name,projects!inner()&projects.name=eq.IOS", status: 200,
            expect: .json(#"[{"id":2,"name":"Apple"}]"#)),
        Case(
            name: "st empty m2m inner", target: "users?select=*,tasks!inner()", status: 200,
            expect: .json(#"[{"id":1,"name":"Angela Martin"},{"id":2,"name":"Michael Scott"},{"id":3,"name":"Dwight Schrute"}]"#)),
        Case(
            name: "st empty m2m inner filtered", target: "users?select=*,tasks!inner()&tasks.id=eq.3", status: 200,
            expect: .json(#"[{"id":1,"name":"Angela Martin"}]"#)),
        Case(
            name: "st empty nested", target: "users?select=*,users_tasks(tasks(projects()))", status: 200,
            expect: .json(#"[{"id":1,"name":"Angela Martin"},{"id":2,"name":"Michael Scott"},{"id":3,"name":"Dwight Schrute"}]"#)),
        Case(
            name: "st empty nested inner", target: "users?select=*,users_tasks!inner(tasks!inner(projects()))&users_tasks.tasks.id=eq.3", status: 200,
            expect: .json(#"[{"id":1,"name":"Angela Martin"}]"#)),
        Case(
            name: "st empty nested mix", target: "users?select=*,tasks(projects(clients()),users_tasks())", status: 200,
            expect: .json(#"[{"id":1,"name":"Angela Martin"},{"id":2,"name":"Michael Scott"},{"id":3,"name":"Dwight Schrute"}]"#)),
        Case(
            name: "st empty nested with column", target: "users?select=*,tasks!inner(projects(clients()),users_tasks(),name)&tasks.id=eq.3", status: 200,
            expect: .exact(#"[{"id":1,"name":"Angela Martin","tasks":[{"name": "Design w10"}]}]"#)),
        Case(
            name: "st empty root select", target: "projects?select=", status: 200,
            expect: .json(
                #"[{"id":1,"name":"Windows 7","client_id":1},{"id":2,"name":"Windows 10","client_id":1},{"id":3,"name":"IOS","client_id":2},{"id":4,"name":"OSX","client_id":2},{"id":5,"name":"Orphan","client_id":null}]"#
            )),
        // any/all quantifiers
        Case(
            name: "st eq(any)", target: "projects?id=eq(any).{3,4,5}", status: 200,
            expect: .json(#"[{"id":3,"name":"IOS","client_id":2},{"id":4,"name":"OSX","client_id":2},{"id":5,"name":"Orphan","client_id":null}]"#)),
        Case(name: "st gt(all)", target: "projects?id=gt(all).{4,3}", status: 200, expect: .json(#"[{"id":5,"name":"Orphan","client_id":null}]"#)),
        Case(
            name: "st gte(all)", target: "projects?id=gte(all).{4,3}", status: 200,
            expect: .json(#"[{"id":4,"name":"OSX","client_id":2},{"id":5,"name":"Orphan","client_id":null}]"#)),
        Case(
            name: "st lt(all)", target: "projects?id=lt(all).{4,3}", status: 200,
            expect: .json(#"[{"id":1,"name":"Windows 7","client_id":1},{"id":2,"name":"Windows 10","client_id":1}]"#)),
        Case(
            name: "st lte(all)", target: "projects?id=lte(all).{4,3}", status: 200,
            expect: .json(#"[{"id":1,"name":"Windows 7","client_id":1},{"id":2,"name":"Windows 10","client_id":1},{"id":3,"name":"IOS","client_id":2}]"#)),
        Case(
            name: "st like(any) percent", target: "articles?body=like(any).{%25plan%25,%25brain%25}&select=id", status: 200,
            expect: .json(#"[{"id":1},{"id":2}]"#)),
        Case(name: "st ilike(all)", target: "articles?body=ilike(all).{%25plan%25,%25greatness%25}&select=id", status: 200, expect: .json(#"[{"id":1}]"#)),
        Case(name: "st match(any)", target: "articles?body=match(any).{stop,thing}&select=id", status: 200, expect: .json(#"[{"id":1}]"#)),
        Case(name: "st imatch(any)", target: "articles?body=imatch(any).{stop,thing}&select=id", status: 200, expect: .json(#"[{"id":1},{"id":2}]"#)),
        // `!inner` joins: the parents they keep, and the exact counts of those
        Case(
            name: "st inner count", method: "HEAD", target: "projects?select=id,clients!inner(id)", headers: ["Prefer": "count=exact"], status: 200,
            expectHeaders: ["Content-Range": "0-3/4"]),
        Case(
            name: "st inner filtered count", method: "HEAD", target: "projects?select=id,clients!inner(id)&clients.id=eq.1", headers: ["Prefer": "count=exact"],
            status: 200, expectHeaders: ["Content-Range": "0-1/2"]),
        Case(
            name: "st nested inner count", method: "HEAD", target: "tasks?select=id,projects!inner(id,clients!inner(id))&projects.clients.id=eq.1",
            headers: ["Prefer": "count=exact"], status: 200, expectHeaders: ["Content-Range": "0-3/4"]),
        Case(
            name: "st inner below left count", method: "HEAD", target: "tasks?select=id,projects(id,clients!inner(id))&projects.clients.id=eq.2",
            headers: ["Prefer": "count=exact"], status: 200, expectHeaders: ["Content-Range": "0-7/8"]),
        Case(
            name: "st inner below left", target: "tasks?select=id,projects(id,clients!inner(id))&projects.clients.id=eq.2&order=id&limit=2", status: 200,
            expect: .json(#"[{"id":1,"projects":null},{"id":2,"projects":null}]"#)),
        Case(
            name: "st o2m inner count", method: "HEAD", target: "entities?select=id,child_entities!inner(id)", headers: ["Prefer": "count=exact"], status: 200,
            expectHeaders: ["Content-Range": "0-1/2"]),
        Case(
            name: "st o2m inner filtered", target: "entities?select=id,child_entities!inner(id)&child_entities.id=eq.3", status: 200,
            expect: .exact(#"[{"id":2,"child_entities":[{"id": 3}]}]"#)),
        Case(
            name: "st o2m nested inner count", method: "HEAD",
            target: "entities?select=id,child_entities!inner(id,grandchild_entities!inner(id))&child_entities.grandchild_entities.id=in.(1,5)",
            headers: ["Prefer": "count=exact"], status: 200, expectHeaders: ["Content-Range": "0-0/1"]),
        Case(
            name: "st o2m nested inner",
            target: "entities?select=id,child_entities!inner(id,grandchild_entities!inner(id))&child_entities.grandchild_entities.id=in.(1,5)", status: 200,
            expect: .json(#"[{"id":1,"child_entities":[{"id":1,"grandchild_entities":[{"id":1}]},{"id":2,"grandchild_entities":[{"id":5}]}]}]"#)),
        // Singular objects (SingularSpec)
        Case(
            name: "st singular none", target: "items?id=gt.0&id=lt.0", headers: ["Accept": "application/vnd.pgrst.object+json"], status: 406,
            expect: .exact(
                #"{"code":"PGRST116","details":"The result contains 0 rows","hint":null,"message":"Cannot coerce the result to a single JSON object"}"#)),
        Case(
            name: "st singular one", target: "items?id=eq.5", headers: ["Accept": "application/vnd.pgrst.object+json"], status: 200,
            expect: .exact(#"{"id":5}"#),
            expectHeaders: ["Content-Type": "application/vnd.pgrst.object+json; charset=utf-8"]),
        Case(
            name: "st singular without suffix", target: "items?id=eq.5", headers: ["Accept": "application/vnd.pgrst.object"], status: 200,
            expect: .exact(#"{"id":5}"#),
            expectHeaders: ["Content-Type": "application/vnd.pgrst.object+json; charset=utf-8"]),
        Case(
            name: "st singular count none", target: "items?id=eq.5", headers: ["Accept": "application/vnd.pgrst.object+json", "Prefer": "count=none"],
            status: 200, expect: .exact(#"{"id":5}"#)),
        Case(
            name: "st singular embeds", target: "projects?id=eq.1&select=id,name,clients(*),tasks(id,name)",
            headers: ["Accept": "application/vnd.pgrst.object+json"], status: 200,
            expect: .exact(
                #"{"id":1,"name":"Windows 7","clients":{"id": 1, "name": "Microsoft"},"tasks":[{"id": 1, "name": "Design w7"}, {"id": 2, "name": "Code w7"}]}"#)
        ),
        Case(
            name: "st singular patch minimal", method: "PATCH", target: "simple_pk?k=eq.xyyx",
            headers: ["Accept": "application/vnd.pgrst.object+json", "Prefer": "return=minimal"], body: #"{"extra":"w"}"#, status: 204,
            expect: .exact(""), expectHeaders: ["Preference-Applied": "return=minimal"], expectAbsent: ["Content-Type"]),
        Case(
            name: "st singular patch many", method: "PATCH", target: "simple_pk?k=like.x*", headers: ["Accept": "application/vnd.pgrst.object+json"],
            body: #"{"extra":"w"}"#, status: 406,
            expect: .exact(
                #"{"code":"PGRST116","details":"The result contains 2 rows","hint":null,"message":"Cannot coerce the result to a single JSON object"}"#)),
        Case(
            name: "st singular patch none", method: "PATCH", target: "items?id=gt.0&id=lt.0",
            headers: ["Accept": "application/vnd.pgrst.object+json", "Prefer": "return=representation"], body: #"{"id":1}"#, status: 406,
            expect: .exact(
                #"{"code":"PGRST116","details":"The result contains 0 rows","hint":null,"message":"Cannot coerce the result to a single JSON object"}"#)),
        Case(
            name: "st singular post minimal", method: "POST", target: "simple_pk",
            headers: ["Accept": "application/vnd.pgrst.object+json", "Prefer": "return=minimal"], body: #"[{"k":"s1","extra":"x"}]"#, status: 201,
            expect: .exact(""), expectHeaders: ["Content-Range": "*/*", "Preference-Applied": "return=minimal"], expectAbsent: ["Content-Type"]),
        Case(
            name: "st singular post two", method: "POST", target: "simple_pk",
            headers: ["Accept": "application/vnd.pgrst.object+json", "Prefer": "return=representation"],
            body: #"[{"k":"s1","extra":"x"},{"k":"s2","extra":"y"}]"#, status: 406,
            expect: .exact(
                #"{"code":"PGRST116","details":"The result contains 2 rows","hint":null,"message":"Cannot coerce the result to a single JSON object"}"#)),
        Case(
            name: "st singular delete one", method: "DELETE", target: "items?id=eq.11",
            headers: ["Accept": "application/vnd.pgrst.object+json", "Prefer": "return=representation"], status: 200, expect: .exact(#"{"id":11}"#)),
        // Spreads (SpreadQueriesSpec): to-one columns spliced in, to-many columns as arrays
        Case(
            name: "st spread to-one", target: "projects?select=id,...clients(client_name:name)", status: 200,
            expect: .json(
                #"[{"id":1,"client_name":"Microsoft"},{"id":2,"client_name":"Microsoft"},{"id":3,"client_name":"Apple"},{"id":4,"client_name":"Apple"},{"id":5,"client_name":null}]"#
            )),
        Case(
            name: "st spread nested", target: "grandchild_entities?select=name,...child_entities(parent_name:name,...entities(grandparent_name:name))&limit=3",
            status: 200,
            expect: .json(
                #"[{"name":"grandchild entity 1","parent_name":"child entity 1","grandparent_name":"entity 1"},{"name":"grandchild entity 2","parent_name":"child entity 1","grandparent_name":"entity 1"},{"name":"grandchild entity 3","parent_name":"child entity 2","grandparent_name":"entity 1"}]"#
            )),
        Case(
            name: "st spread inside embed", target: "grandchild_entities?select=name,child_entity:child_entities(name,...entities(parent_name:name))&limit=1",
            status: 200,
            expect: .exact(#"[{"name":"grandchild entity 1","child_entity":{"name": "child entity 1", "parent_name": "entity 1"}}]"#)),
        Case(
            name: "st spread to-many", target: "clients?select=client:name,...projects(project:name)&order=id", status: 200,
            expect: .json(#"[{"client":"Microsoft","project":["Windows 7","Windows 10"]},{"client":"Apple","project":["IOS","OSX"]}]"#)),
        Case(
            name: "st spread to-many null filter",
            target: "clients?select=client:name,...projects(project:name)&projects.name=eq.Nope&projects=is.null&order=id", status: 200,
            expect: .json(#"[{"client":"Microsoft","project":[]},{"client":"Apple","project":[]}]"#)),
        Case(
            name: "st spread to-many not null filter", target: "clients?select=client:name,...projects(project:name)&projects.name=eq.IOS&projects=not.is.null",
            status: 200,
            expect: .json(#"[{"client":"Apple","project":["IOS"]}]"#)),
        // Ranges (RangeSpec)
        Case(
            name: "st range header over limit", target: "items?select=id&order=id.asc&limit=3", headers: ["Range": "0-1"], status: 200,
            expect: .json(#"[{"id":1},{"id":2}]"#), expectHeaders: ["Content-Range": "0-1/*"]),
        Case(
            name: "st limits at every level",
            target:
                "clients?select=id,projects(id,tasks(id))&order=id.asc&limit=1&projects.order=id.asc&projects.limit=2&projects.tasks.order=id.asc&projects.tasks.limit=1",
            status: 200,
            expect: .exact(#"[{"id":1,"projects":[{"id": 1, "tasks": [{"id": 1}]}, {"id": 2, "tasks": [{"id": 3}]}]}]"#),
            expectHeaders: ["Content-Range": "0-0/*"]),
        Case(
            name: "st limit offset", target: "items?select=id&order=id.asc&limit=3&offset=2", status: 200, expect: .json(#"[{"id":3},{"id":4},{"id":5}]"#),
            expectHeaders: ["Content-Range": "2-4/*"]),
        Case(
            name: "st head limit offset", method: "HEAD", target: "items?select=id&order=id.asc&limit=3&offset=2", status: 200, expect: .exact(""),
            expectHeaders: ["Content-Range": "2-4/*"]),
        Case(name: "st empty with offset", target: "items?offset=0&id=eq.0", status: 200, expect: .exact("[]"), expectHeaders: ["Content-Range": "*/*"]),
        Case(
            name: "st empty with offset count", target: "items?offset=0&id=eq.0", headers: ["Prefer": "count=exact"], status: 200, expect: .exact("[]"),
            expectHeaders: ["Content-Range": "*/0"]),
        Case(name: "st negative offset", target: "items?select=id&offset=-4&order=id", status: 200, expectHeaders: ["Content-Range": "0-14/*"]),
        Case(
            name: "st offset past empty", target: "items?offset=1&id=eq.0", headers: ["Prefer": "count=exact"], status: 416,
            expect: .exact(
                #"{"code":"PGRST103","details":"An offset of 1 was requested, but there are only 0 rows.","hint":null,"message":"Requested range not satisfiable"}"#
            ), expectHeaders: ["Content-Range": "*/0"]),
        Case(
            name: "st offset past end", target: "items?offset=100", headers: ["Prefer": "count=exact"], status: 416,
            expect: .exact(
                #"{"code":"PGRST103","details":"An offset of 100 was requested, but there are only 15 rows.","hint":null,"message":"Requested range not satisfiable"}"#
            ), expectHeaders: ["Content-Range": "*/15"]),
        Case(
            name: "st head count", method: "HEAD", target: "items", headers: ["Prefer": "count=exact"], status: 200, expectHeaders: ["Content-Range": "0-14/15"]
        ),
        Case(
            name: "st partial with count", target: "child_entities?select=id&id=gt.3&limit=2", headers: ["Prefer": "count=exact"], status: 206,
            expect: .json(#"[{"id":4},{"id":5}]"#), expectHeaders: ["Content-Range": "0-1/3"]),
        // Unknown tables and paths
        Case(
            name: "st unknown table", target: "faketable", status: 404,
            expect: .exact(#"{"code":"PGRST205","details":null,"hint":null,"message":"Could not find the table 'test.faketable' in the schema cache"}"#)),
        Case(
            name: "st invalid path", target: "first/second/third?select=*", status: 404,
            expect: .exact(#"{"code":"PGRST125","details":null,"hint":null,"message":"Invalid path specified in request URL"}"#),
            expectHeaders: ["Content-Length": "96"])
    ])
}
