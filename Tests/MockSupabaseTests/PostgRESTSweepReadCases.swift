import XCTest
@testable import MockSupabase

/// Reads on `SpecTablesFixture`'s disambiguation and spread tables: embeds chosen by foreign-key
/// name, column or junction, self-references both ways, one-to-one and circular relationships
/// answering 300 PGRST201, and spreads of to-one and to-many relationships (each spread column
/// an array of the children's values, nested spreads giving nested arrays), the behaviour
/// EmbedDisambiguationSpec.hs and SpreadQueriesSpec.hs pin, in this corpus's own words; the
/// expectations follow PostgREST's answers on data.sql's rows.
extension PostgRESTCaseCorpusTests {
    static let sweepReadCases: [Case] = onSpecTables(
        disambiguationSweep + spreadSweep + innerJoinSweep + jsonSweep + relatedSweep + logicSweep + querySweep + stripSweep + mediaSweep + aggregateSweep)

    static let disambiguationSweep: [Case] = [
        Case(
            name: "circular embed is ambiguous", target: "agents?select=*,departments(*)", status: 300,
            expect: .json(
                #"{"code":"PGRST201","details":[{"cardinality":"one-to-many","embedding":"agents with departments","relationship":"departments_head_id_fkey using agents(id) and departments(head_id)"},{"cardinality":"many-to-one","embedding":"agents with departments","relationship":"agents_department_id_fkey using agents(department_id) and departments(id)"}],"hint":"Try changing 'departments' to one of the following: 'departments!departments_head_id_fkey', 'departments!agents_department_id_fkey'. Find the desired relationship in the 'details' key.","message":"Could not embed because more than one relationship was found for 'agents' and 'departments'"}"#
            )),
        Case(
            name: "two one-to-one keys are ambiguous", target: "first?select=second(*)", status: 300,
            expect: .json(
                #"{"code":"PGRST201","details":[{"cardinality":"one-to-one","embedding":"first with second","relationship":"first_second_id_1_fkey using first(second_id_1) and second(id)"},{"cardinality":"one-to-one","embedding":"first with second","relationship":"first_second_id_2_fkey using first(second_id_2) and second(id)"}],"hint":"Try changing 'second' to one of the following: 'second!first_second_id_1_fkey', 'second!first_second_id_2_fkey'. Find the desired relationship in the 'details' key.","message":"Could not embed because more than one relationship was found for 'first' and 'second'"}"#
            )),
        Case(
            name: "junction with four keys is ambiguous", target: "whatev_sites?select=*,whatev_projects(*)", status: 300,
            expect: .json(
                #"{"code":"PGRST201","details":[{"cardinality":"many-to-many","embedding":"whatev_sites with whatev_projects","relationship":"whatev_jobs using whatev_jobs_site_id_1_fkey(site_id_1) and whatev_jobs_project_id_1_fkey(project_id_1)"},{"cardinality":"many-to-many","embedding":"whatev_sites with whatev_projects","relationship":"whatev_jobs using whatev_jobs_site_id_1_fkey(site_id_1) and whatev_jobs_project_id_2_fkey(project_id_2)"},{"cardinality":"many-to-many","embedding":"whatev_sites with whatev_projects","relationship":"whatev_jobs using whatev_jobs_site_id_2_fkey(site_id_2) and whatev_jobs_project_id_1_fkey(project_id_1)"},{"cardinality":"many-to-many","embedding":"whatev_sites with whatev_projects","relationship":"whatev_jobs using whatev_jobs_site_id_2_fkey(site_id_2) and whatev_jobs_project_id_2_fkey(project_id_2)"}],"hint":"Try changing 'whatev_projects' to one of the following: 'whatev_projects!whatev_jobs', 'whatev_projects!whatev_jobs', 'whatev_projects!whatev_jobs', 'whatev_projects!whatev_jobs'. Find the desired relationship in the 'details' key.","message":"Could not embed because more than one relationship was found for 'whatev_sites' and 'whatev_projects'"}"#
            )),
        Case(
            name: "junction spread by column hints", target: "whatev_sites?select=*,whatev_jobs!site_id_1(...whatev_projects!project_id_1(*))", status: 200,
            expect: .exact("[]")),
        Case(
            name: "junction spread by other column hints", target: "whatev_sites?select=*,whatev_jobs!site_id_2(...whatev_projects!project_id_2(*))",
            status: 200, expect: .exact("[]")),
        Case(
            name: "recursive m2m through spread (subscribers)",
            target: "posters?select=*,subscribers:subscriptions!subscribed(...posters!subscriber(*))&limit=1", status: 200,
            expect: .json(#"[{"id":1,"name":"Mark","subscribers":[{"id":3,"name":"Bill"},{"id":4,"name":"Jeff"}]}]"#)),
        Case(
            name: "recursive m2m through spread (subscriptions)", target: "posters?select=*,subscriptions!subscriber(...posters!subscribed(*))&limit=1",
            status: 200, expect: .json(#"[{"id":1,"name":"Mark","subscriptions":[{"id":2,"name":"Elon"}]}]"#)),
        Case(
            name: "embed by fk name and its column", target: "projects?id=in.(1,3)&select=id,name,client_id,client(id,name)", status: 200,
            expect: .json(
                #"[{"id":1,"name":"Windows 7","client_id":1,"client":{"id":1,"name":"Microsoft"}},{"id":3,"name":"IOS","client_id":2,"client":{"id":2,"name":"Apple"}}]"#
            )),
        Case(
            name: "two fks to one table by name", target: "orders?id=eq.1&select=id, name, billing(address), shipping(address)", status: 200,
            expect: .json(#"[{"id":1,"name":"order 1","billing":{"address":"address 1"},"shipping":{"address":"address 2"}}]"#)),
        Case(
            name: "unknown fk hint", target: "message?select=id,sender:person!space(name)&id=lt.4", status: 400,
            expect: .json(
                #"{"code":"PGRST200","details":"Searched for a foreign key relationship between 'message' and 'person' using the hint 'space' in the schema 'test', but no matches were found.","hint":null,"message":"Could not find a relationship between 'message' and 'person' in the schema cache"}"#
            )),
        Case(
            name: "parent by fk name", target: "comments?select=content,user(name)", status: 200,
            expect: .json(#"[{"content":"Needs to be delivered ASAP","user":{"name":"Angela Martin"}}]"#)),
        Case(
            name: "children two levels through fk hint", target: "clients?id=eq.1&select=id,projects:projects!client(id,tasks(id))", status: 200,
            expect: .json(#"[{"id":1,"projects":[{"id":1,"tasks":[{"id":1},{"id":2}]},{"id":2,"tasks":[{"id":3},{"id":4}]}]}]"#)),
        Case(
            name: "fk hint among o2m and m2m", target: "sites?select=name,main_project(name)&site_id=eq.1", status: 200,
            expect: .json(#"[{"name":"site 1","main_project":{"name":"big project 1"}}]"#)),
        Case(
            name: "column embed aliased beside the column", target: "projects?id=in.(1,3)&select=id,name,client_id,client:client_id(id,name)", status: 200,
            expect: .json(
                #"[{"id":1,"name":"Windows 7","client_id":1,"client":{"id":1,"name":"Microsoft"}},{"id":3,"name":"IOS","client_id":2,"client":{"id":2,"name":"Apple"}}]"#
            )),
        Case(
            name: "table!column twice", target: "message?select=id,body,sender:person!sender(name),recipient:person!recipient(name)&id=lt.4", status: 200,
            expect: .json(
                #"[{"id":1,"body":"Hello Jane","sender":{"name":"John"},"recipient":{"name":"Jane"}},{"id":2,"body":"Hi John","sender":{"name":"Jane"},"recipient":{"name":"John"}},{"id":3,"body":"How are you doing?","sender":{"name":"John"},"recipient":{"name":"Jane"}}]"#
            )),
        Case(
            name: "two columns to one table", target: "orders?id=eq.1&select=id, name, billing_address_id(id), shipping_address_id(id)", status: 200,
            expect: .json(#"[{"id":1,"name":"order 1","billing_address_id":{"id":1},"shipping_address_id":{"id":2}}]"#)),
        Case(
            name: "column among o2m and m2m", target: "sites?select=name,main_project_id(name)&site_id=eq.1", status: 200,
            expect: .json(#"[{"name":"site 1","main_project_id":{"name":"big project 1"}}]"#)),
        Case(
            name: "junction hint", target: "sites?select=*,big_projects!jobs(name)&site_id=in.(1,2)", status: 200,
            expect: .json(
                #"[{"site_id":1,"name":"site 1","main_project_id":1,"big_projects":[{"name":"big project 1"}]},{"site_id":2,"name":"site 2","main_project_id":null,"big_projects":[{"name":"big project 1"},{"name":"big project 2"}]}]"#
            )),
        Case(
            name: "column and fk to one table", target: "orders?id=eq.1&select=id, name, billing_address_id(id), shipping(id)", status: 200,
            expect: .json(#"[{"id":1,"name":"order 1","billing_address_id":{"id":1},"shipping":{"id":2}}]"#)),
        Case(
            name: "self parents recursively", target: "family_tree?id=in.(3,4)&select=id,parent(id,name,parent(*))&order=id", status: 200,
            expect: .json(
                #"[{"id":"3","parent":{"id":"1","name":"Parental Unit","parent":null}},{"id":"4","parent":{"id":"2","name":"Kid One","parent":{"id":"1","name":"Parental Unit","parent":null}}}]"#
            )),
        Case(
            name: "self children recursively",
            target: "family_tree?id=eq.1&select=id,name, children:family_tree!parent(id,name,children:family_tree!parent(id,name))", status: 200,
            expect: .json(
                #"[{"id":"1","name":"Parental Unit","children":[{"id":"2","name":"Kid One","children":[{"id":"4","name":"Grandkid One"}]},{"id":"3","name":"Kid Two","children":[{"id":"5","name":"Grandkid Two"}]}]}]"#
            )),
        Case(
            name: "self parent then children", target: "family_tree?id=eq.2&select=id,name,parent(id,name,children:family_tree!parent(id,name))", status: 200,
            expect: .json(
                #"[{"id":"2","name":"Kid One","parent":{"id":"1","name":"Parental Unit","children":[{"id":"2","name":"Kid One"},{"id":"3","name":"Kid Two"}]}}]"#
            )),
        Case(
            name: "two self fks parents", target: "organizations?select=id,name,referee(id,name),auditor(id,name)&id=eq.3", status: 200,
            expect: .json(#"[{"id":3,"name":"Acme","referee":{"id":1,"name":"Referee Org"},"auditor":{"id":2,"name":"Auditor Org"}}]"#)),
        Case(
            name: "two self fks children", target: "organizations?select=id,name,refereeds:organizations!referee(id,name)&id=eq.1", status: 200,
            expect: .json(#"[{"id":1,"name":"Referee Org","refereeds":[{"id":3,"name":"Acme"},{"id":4,"name":"Umbrella"}]}]"#)),
        Case(
            name: "self fks with another parent",
            target:
                "organizations?select=name,manager(name),referee(name,manager(name),auditor(name,manager(name))),auditor(name,manager(name),referee(name,manager(name)))&id=eq.5",
            status: 200,
            expect: .json(
                #"[{"name":"Cyberdyne","manager":{"name":"Cyberdyne Manager"},"referee":{"name":"Acme","manager":{"name":"Acme Manager"},"auditor":{"name":"Auditor Org","manager":{"name":"Auditor Manager"}}},"auditor":{"name":"Umbrella","manager":{"name":"Umbrella Manager"},"referee":{"name":"Referee Org","manager":{"name":"Referee Manager"}}}}]"#
            )),
        Case(
            name: "self fks children nested",
            target:
                "organizations?select=name,manager(name),auditees:organizations!auditor(name,manager(name),refereeds:organizations!referee(name,manager(name)))&id=eq.2",
            status: 200,
            expect: .json(
                #"[{"name":"Auditor Org","manager":{"name":"Auditor Manager"},"auditees":[{"name":"Acme","manager":{"name":"Acme Manager"},"refereeds":[{"name":"Cyberdyne","manager":{"name":"Cyberdyne Manager"}},{"name":"Oscorp","manager":{"name":"Oscorp Manager"}}]},{"name":"Umbrella","manager":{"name":"Umbrella Manager"},"refereeds":[]}]}]"#
            )),
        Case(
            name: "self reference by column", target: "test?select=id,parent_id,parent:parent_id(id)&order=id", status: 200,
            expect: .json(#"[{"id":1,"parent_id":null,"parent":null},{"id":2,"parent_id":1,"parent":{"id":1}}]"#)),
        Case(
            name: "self reference children by table", target: "test?select=id,parent_id,childs:test(id)&order=id", status: 200,
            expect: .json(#"[{"id":1,"parent_id":null,"childs":[{"id":2}]},{"id":2,"parent_id":1,"childs":[]}]"#)),
        Case(
            name: "embed by column name with table embed", target: "message?select=id,body,sender(id,name)&id=eq.5", status: 200,
            expect: .json(#"[{"id":5,"body":"What's up Jake","sender":{"id":4,"name":"Julie"}}]"#)),
        Case(
            name: "o2o from parent", target: "country?select=name,capital(name)", status: 200,
            expect: .json(#"[{"name":"Afghanistan","capital":{"name":"Kabul"}},{"name":"Algeria","capital":{"name":"Algiers"}}]"#)),
        Case(
            name: "o2o from child", target: "capital?select=name,country(name)", status: 200,
            expect: .json(#"[{"name":"Kabul","country":{"name":"Afghanistan"}},{"name":"Algiers","country":{"name":"Algeria"}}]"#)),
        Case(
            name: "o2o by child column", target: "capital?select=name,country_id(name)", status: 200,
            expect: .json(#"[{"name":"Kabul","country_id":{"name":"Afghanistan"}},{"name":"Algiers","country_id":{"name":"Algeria"}}]"#)),
        Case(
            name: "o2o by fk from child", target: "capital?select=name,capital_country_id_fkey(name)", status: 200,
            expect: .json(
                #"[{"name":"Kabul","capital_country_id_fkey":{"name":"Afghanistan"}},{"name":"Algiers","capital_country_id_fkey":{"name":"Algeria"}}]"#)),
        Case(
            name: "o2o by fk from parent", target: "country?select=name,capital_country_id_fkey(name)", status: 200,
            expect: .json(
                #"[{"name":"Afghanistan","capital_country_id_fkey":{"name":"Kabul"}},{"name":"Algeria","capital_country_id_fkey":{"name":"Algiers"}}]"#)),
        Case(
            name: "o2o by parent column", target: "country?select=name,id(name)", status: 200,
            expect: .json(#"[{"name":"Afghanistan","id":{"name":"Kabul"}},{"name":"Algeria","id":{"name":"Algiers"}}]"#)),
        Case(
            name: "o2o parent column hint", target: "country?select=name,capital!id(name)", status: 200,
            expect: .json(#"[{"name":"Afghanistan","capital":{"name":"Kabul"}},{"name":"Algeria","capital":{"name":"Algiers"}}]"#)),
        Case(
            name: "o2o child column hint from parent", target: "country?select=name,capital!country_id(name)", status: 200,
            expect: .json(#"[{"name":"Afghanistan","capital":{"name":"Kabul"}},{"name":"Algeria","capital":{"name":"Algiers"}}]"#)),
        Case(
            name: "o2o parent column hint from child", target: "capital?select=name,country!id(name)", status: 200,
            expect: .json(#"[{"name":"Kabul","country":{"name":"Afghanistan"}},{"name":"Algiers","country":{"name":"Algeria"}}]"#)),
        Case(
            name: "o2o child column hint", target: "capital?select=name,country!country_id(name)", status: 200,
            expect: .json(#"[{"name":"Kabul","country":{"name":"Afghanistan"}},{"name":"Algiers","country":{"name":"Algeria"}}]"#)),
        Case(
            name: "o2m and two m2m are ambiguous", target: "sites?select=*,big_projects(*)", status: 300,
            expect: .json(
                #"{"code":"PGRST201","details":[{"cardinality":"many-to-one","embedding":"sites with big_projects","relationship":"main_project using sites(main_project_id) and big_projects(big_project_id)"},{"cardinality":"many-to-many","embedding":"sites with big_projects","relationship":"jobs using jobs_site_id_fkey(site_id) and jobs_big_project_id_fkey(big_project_id)"},{"cardinality":"many-to-many","embedding":"sites with big_projects","relationship":"main_jobs using jobs_site_id_fkey(site_id) and jobs_big_project_id_fkey(big_project_id)"}],"hint":"Try changing 'big_projects' to one of the following: 'big_projects!main_project', 'big_projects!jobs', 'big_projects!main_jobs'. Find the desired relationship in the 'details' key.","message":"Could not embed because more than one relationship was found for 'sites' and 'big_projects'"}"#
            ), expectHeaders: ["Content-Length": "828"]),
        Case(
            name: "view junction hint", target: "sites?select=*,big_projects!main_jobs(name)&site_id=in.(1,2)", status: 200,
            expect: .json(
                #"[{"site_id":1,"name":"site 1","main_project_id":1,"big_projects":[{"name":"big project 1"}]},{"site_id":2,"name":"site 2","main_project_id":null,"big_projects":[]}]"#
            )),
        Case(
            name: "view by fk hint then grandparent by fk", target: "tasks?id=eq.1&select=id,name,projects_view!project(id,name,client(id,name))", status: 200,
            expect: .json(#"[{"id":1,"name":"Design w7","projects_view":{"id":1,"name":"Windows 7","client":{"id":1,"name":"Microsoft"}}}]"#)),
        Case(
            name: "view by column hint then grandparent by column",
            target: "tasks?id=eq.1&select=id,name,project:projects_view!project_id(id,name,client:client_id(id,name))", status: 200,
            expect: .json(#"[{"id":1,"name":"Design w7","project":{"id":1,"name":"Windows 7","client":{"id":1,"name":"Microsoft"}}}]"#))
    ]

    static let spreadSweep: [Case] = [
        Case(
            name: "spread m2o", target: "projects?select=id,...clients(client_name:name)", status: 200,
            expect: .json(
                #"[{"id":1,"client_name":"Microsoft"},{"id":2,"client_name":"Microsoft"},{"id":3,"client_name":"Apple"},{"id":4,"client_name":"Apple"},{"id":5,"client_name":null}]"#
            )),
        Case(
            name: "spread nested m2o", target: "grandchild_entities?select=name,...child_entities(parent_name:name,...entities(grandparent_name:name))&limit=3",
            status: 200,
            expect: .json(
                #"[{"name":"grandchild entity 1","parent_name":"child entity 1","grandparent_name":"entity 1"},{"name":"grandchild entity 2","parent_name":"child entity 1","grandparent_name":"entity 1"},{"name":"grandchild entity 3","parent_name":"child entity 2","grandparent_name":"entity 1"}]"#
            )),
        Case(
            name: "spread inside embed", target: "grandchild_entities?select=name,child_entity:child_entities(name,...entities(parent_name:name))&limit=1",
            status: 200, expect: .json(#"[{"name":"grandchild entity 1","child_entity":{"name":"child entity 1","parent_name":"entity 1"}}]"#)),
        Case(
            name: "spread o2o", target: "country?select=name,...capital(capital:name)", status: 200,
            expect: .json(#"[{"name":"Afghanistan","capital":"Kabul"},{"name":"Algeria","capital":"Algiers"}]"#)),
        Case(
            name: "spread through junction with its columns", target: "users?select=*,tasks:users_tasks(*,...tasks(*))&limit=1", status: 200,
            expect: .json(
                #"[{"id":1,"name":"Angela Martin","tasks":[{"user_id":1,"task_id":1,"id":1,"name":"Design w7","project_id":1},{"user_id":1,"task_id":2,"id":2,"name":"Code w7","project_id":1},{"user_id":1,"task_id":3,"id":3,"name":"Design w10","project_id":2},{"user_id":1,"task_id":4,"id":4,"name":"Code w10","project_id":2}]}]"#
            )),
        Case(
            name: "o2m spread column", target: "factories?select=factory:name,...processes(processes:name)&order=name", status: 200,
            expect: .json(
                #"[{"factory":"Factory A","processes":["Process A1","Process A2"]},{"factory":"Factory B","processes":["Process B1","Process B2"]},{"factory":"Factory C","processes":["Process C1","Process C2","Process XX","Process YY"]},{"factory":"Factory D","processes":[]}]"#
            )),
        Case(
            name: "o2m spread two columns", target: "factories?select=factory:name,...processes(name,category_id)&order=name", status: 200,
            expect: .json(
                #"[{"factory":"Factory A","name":["Process A1","Process A2"],"category_id":[1,2]},{"factory":"Factory B","name":["Process B1","Process B2"],"category_id":[1,1]},{"factory":"Factory C","name":["Process C1","Process C2","Process XX","Process YY"],"category_id":[2,2,2,2]},{"factory":"Factory D","name":[],"category_id":[]}]"#
            )),
        Case(
            name: "o2m spread null filter", target: "factories?select=factory:name,...processes(processes:name)&processes=is.null", status: 200,
            expect: .json(#"[{"factory":"Factory D","processes":[]}]"#)),
        Case(
            name: "o2m spread null value kept", target: "managers?select=name,...organizations(organizations:name,referees:referee)&id=eq.1", status: 200,
            expect: .json(#"[{"name":"Referee Manager","organizations":["Referee Org"],"referees":[null]}]"#)),
        Case(
            name: "o2m spread star", target: "factories?select=factory:name,...processes(*)&order=name&limit=2", status: 200,
            expect: .json(
                #"[{"factory":"Factory A","id":[1,2],"name":["Process A1","Process A2"],"factory_id":[1,1],"category_id":[1,2]},{"factory":"Factory B","id":[3,4],"name":["Process B1","Process B2"],"factory_id":[2,2],"category_id":[1,1]}]"#
            )),
        Case(
            name: "o2m spread nested o2o spread",
            target: "factories?select=factory:name,...processes(process:name,...process_costs(process_costs:cost))&order=name&processes.order=name",
            status: 200,
            expect: .json(
                #"[{"factory":"Factory A","process":["Process A1","Process A2"],"process_costs":[150.00,200.00]},{"factory":"Factory B","process":["Process B1","Process B2"],"process_costs":[180.00,70.00]},{"factory":"Factory C","process":["Process C1","Process C2","Process XX","Process YY"],"process_costs":[40.00,70.00,null,40.00]},{"factory":"Factory D","process":[],"process_costs":[]}]"#
            )),
        Case(
            name: "o2m spread nested m2o spread",
            target: "factories?select=factory:name,...processes(process:name,...process_categories(categories:name))&order=name&processes.order=name&limit=2",
            status: 200,
            expect: .json(
                #"[{"factory":"Factory A","process":["Process A1","Process A2"],"categories":["Batch","Mass"]},{"factory":"Factory B","process":["Process B1","Process B2"],"categories":["Batch","Batch"]}]"#
            )),
        Case(
            name: "o2m spread nested o2m spread",
            target:
                "factories?select=factory:name,...processes(process:name,...process_supervisor(supervisor_ids:supervisor_id))&order=name&processes.order=name",
            status: 200,
            expect: .json(
                #"[{"factory":"Factory A","process":["Process A1","Process A2"],"supervisor_ids":[[1],[2]]},{"factory":"Factory B","process":["Process B1","Process B2"],"supervisor_ids":[[3,4],[1,2]]},{"factory":"Factory C","process":["Process C1","Process C2","Process XX","Process YY"],"supervisor_ids":[[3],[3],[],[]]},{"factory":"Factory D","process":[],"supervisor_ids":[]}]"#
            )),
        Case(
            name: "o2m spread nested m2m spread",
            target:
                "factories?select=factory:name,...processes(process:name,...supervisors(supervisors:name))&order=name&processes.order=name&processes.supervisors.order=name",
            status: 200,
            expect: .json(
                #"[{"factory":"Factory A","process":["Process A1","Process A2"],"supervisors":[["Mary"],["John"]]},{"factory":"Factory B","process":["Process B1","Process B2"],"supervisors":[["Peter","Sarah"],["John","Mary"]]},{"factory":"Factory C","process":["Process C1","Process C2","Process XX","Process YY"],"supervisors":[["Peter"],["Peter"],[],[]]},{"factory":"Factory D","process":[],"supervisors":[]}]"#
            )),
        Case(
            name: "o2m spread nested o2o embed",
            target: "factories?select=factory:name,...processes(process:name,process_costs(cost))&order=name&processes.order=name&offset=2", status: 200,
            expect: .json(
                #"[{"factory":"Factory C","process":["Process C1","Process C2","Process XX","Process YY"],"process_costs":[{"cost":40.00},{"cost":70.00},null,{"cost":40.00}]},{"factory":"Factory D","process":[],"process_costs":[]}]"#
            )),
        Case(
            name: "o2m spread nested o2m embed",
            target:
                "factories?select=factory:name,...processes(process:name,process_supervisor(supervisor_id))&order=name&processes.order=name&processes.process_supervisor.order=supervisor_id&limit=2",
            status: 200,
            expect: .json(
                #"[{"factory":"Factory A","process":["Process A1","Process A2"],"process_supervisor":[[{"supervisor_id":1}],[{"supervisor_id":2}]]},{"factory":"Factory B","process":["Process B1","Process B2"],"process_supervisor":[[{"supervisor_id":3},{"supervisor_id":4}],[{"supervisor_id":1},{"supervisor_id":2}]]}]"#
            )),
        Case(
            name: "o2m spread star with nested spread star",
            target: "factories?select=factory:name,...processes(*,...process_costs(*))&order=name&processes.order=name&limit=1", status: 200,
            expect: .json(
                #"[{"factory":"Factory A","id":[1,2],"name":["Process A1","Process A2"],"factory_id":[1,1],"category_id":[1,2],"process_id":[1,2],"cost":[150.00,200.00]}]"#
            )),
        Case(
            name: "o2m spread with filter", target: "factories?select=factory:name,...processes(*)&processes.name=not.like.*1&order=name&processes.order=name",
            status: 200,
            expect: .json(
                #"[{"factory":"Factory A","id":[2],"name":["Process A2"],"factory_id":[1],"category_id":[2]},{"factory":"Factory B","id":[4],"name":["Process B2"],"factory_id":[2],"category_id":[1]},{"factory":"Factory C","id":[6,7,8],"name":["Process C2","Process XX","Process YY"],"factory_id":[3,3,3],"category_id":[2,2,2]},{"factory":"Factory D","id":[],"name":[],"factory_id":[],"category_id":[]}]"#
            )),
        Case(
            name: "o2m spread inner", target: "factories?select=factory:name,...processes!inner(name)&order=name&processes.order=name", status: 200,
            expect: .json(
                #"[{"factory":"Factory A","name":["Process A1","Process A2"]},{"factory":"Factory B","name":["Process B1","Process B2"]},{"factory":"Factory C","name":["Process C1","Process C2","Process XX","Process YY"]}]"#
            )),
        Case(
            name: "o2m spread not null", target: "factories?select=factory:name,...processes(name)&processes=not.is.null&order=name&processes.order=name",
            status: 200,
            expect: .json(
                #"[{"factory":"Factory A","name":["Process A1","Process A2"]},{"factory":"Factory B","name":["Process B1","Process B2"]},{"factory":"Factory C","name":["Process C1","Process C2","Process XX","Process YY"]}]"#
            )),
        Case(
            name: "o2m spread ordered by unselected columns",
            target: "factories?select=factory:name,...processes(name)&processes.order=category_id.asc,name.desc&order=name", status: 200,
            expect: .json(
                #"[{"factory":"Factory A","name":["Process A1","Process A2"]},{"factory":"Factory B","name":["Process B2","Process B1"]},{"factory":"Factory C","name":["Process YY","Process XX","Process C2","Process C1"]},{"factory":"Factory D","name":[]}]"#
            )),
        Case(
            name: "o2m spread ordered by json paths",
            target:
                "factories?select=factory:name,...factory_buildings(*)&factory_buildings.order=inspections->pending.asc.nullsfirst,inspections->ins.desc&order=name&limit=2",
            status: 200,
            expect: .json(
                #"[{"factory":"Factory A","id":[2,1],"code":["A002","A001"],"size":[200,150],"type":["A","A"],"factory_id":[1,1],"inspections":[{"ins":"2025A","pending":true},{"ins":"2024C","pending":true}]},{"factory":"Factory B","id":[4,3],"code":["B002","B001"],"size":[120,50],"type":["C","B"],"factory_id":[2,2],"inspections":[{"ins":"2023A"},{"ins":"2025A","pending":true}]}]"#
            )),
        Case(
            name: "o2m spread ordered by related column",
            target: "factories?select=factory:name,...processes(name,...process_costs(cost))&processes.order=process_costs(cost)&order=name", status: 200,
            expect: .json(
                #"[{"factory":"Factory A","name":["Process A1","Process A2"],"cost":[150.00,200.00]},{"factory":"Factory B","name":["Process B2","Process B1"],"cost":[70.00,180.00]},{"factory":"Factory C","name":["Process C1","Process YY","Process C2","Process XX"],"cost":[40.00,40.00,70.00,null]},{"factory":"Factory D","name":[],"cost":[]}]"#
            )),
        Case(
            name: "m2m spread column", target: "operators?select=operator:name,...processes(name)&order=name&processes.order=name", status: 200,
            expect: .json(
                #"[{"operator":"Alfred","name":["Process C2","Process XX"]},{"operator":"Anne","name":["Process A1","Process A2","Process B2"]},{"operator":"Jeff","name":["Process A2","Process B1","Process B2","Process C2"]},{"operator":"Liz","name":[]},{"operator":"Louis","name":["Process A1","Process A2"]}]"#
            )),
        Case(
            name: "m2m spread null filter", target: "operators?select=operator:name,...processes(processes:name)&processes=is.null", status: 200,
            expect: .json(#"[{"operator":"Liz","processes":[]}]"#)),
        Case(
            name: "m2m spread null element", target: "operators?select=name,...processes(process:name,...process_costs(cost)))&id=eq.5&processes.id=eq.7",
            status: 200, expect: .json(#"[{"name":"Alfred","process":["Process XX"],"cost":[null]}]"#)),
        Case(
            name: "m2m spread nested m2m spread",
            target: "operators?select=operator:name,...processes(process:name,...supervisors(supervisors:name))&order=name&processes.order=name&limit=2",
            status: 200,
            expect: .json(
                #"[{"operator":"Alfred","process":["Process C2","Process XX"],"supervisors":[["Peter"],[]]},{"operator":"Anne","process":["Process A1","Process A2","Process B2"],"supervisors":[["Mary"],["John"],["Mary","John"]]}]"#
            )),
        Case(
            name: "m2m spread inner", target: "supervisors?select=supervisor:name,...processes!inner(name)&order=name&processes.order=name", status: 200,
            expect: .json(
                #"[{"supervisor":"John","name":["Process A2","Process B2"]},{"supervisor":"Mary","name":["Process A1","Process B2"]},{"supervisor":"Peter","name":["Process B1","Process C1","Process C2"]},{"supervisor":"Sarah","name":["Process B1"]}]"#
            )),
        Case(
            name: "m2m spread ordered by json path nulls first",
            target: "processes?select=process:name,...operators(*)&operators.order=status->afk.asc.nullsfirst,status->id.desc&order=name&limit=2", status: 200,
            expect: .json(
                #"[{"process":"Process A1","id":[2,1],"name":["Louis","Anne"],"status":[{"id":"012345"},{"id":"543210","afk":true}]},{"process":"Process A2","id":[2,3,1],"name":["Louis","Jeff","Anne"],"status":[{"id":"012345"},{"id":"666666","afk":true},{"id":"543210","afk":true}]}]"#
            )),
        Case(
            name: "m2m spread ordered by related column",
            target: "supervisors?select=supervisor:name,...processes(name,...process_costs(cost))&processes.order=process_costs(cost)&order=name", status: 200,
            expect: .json(
                #"[{"supervisor":"Jane","name":[],"cost":[]},{"supervisor":"John","name":["Process B2","Process A2"],"cost":[70.00,200.00]},{"supervisor":"Mary","name":["Process B2","Process A1"],"cost":[70.00,150.00]},{"supervisor":"Peter","name":["Process C1","Process C2","Process B1"],"cost":[40.00,70.00,180.00]},{"supervisor":"Sarah","name":["Process B1"],"cost":[180.00]}]"#
            )),
        Case(
            name: "empty spread nested", target: "grandchild_entities?select=name,...child_entities(parent_name:name,...entities())&limit=2", status: 200,
            expect: .json(
                #"[{"name":"grandchild entity 1","parent_name":"child entity 1"},{"name":"grandchild entity 2","parent_name":"child entity 1"}]"#)),
        Case(
            name: "empty o2m spread", target: "factories?select=factory:name,...processes()", status: 200,
            expect: .json(#"[{"factory":"Factory A"},{"factory":"Factory B"},{"factory":"Factory C"},{"factory":"Factory D"}]"#))
    ]

    static let innerJoinSweep: [Case] = [
        Case(
            name: "inner m2o drops null parents", target: "projects?select=id,clients!inner(id)", status: 200,
            expect: .json(#"[{"id":1,"clients":{"id":1}},{"id":2,"clients":{"id":1}},{"id":3,"clients":{"id":2}},{"id":4,"clients":{"id":2}}]"#)),
        Case(
            name: "left hint keeps null parents", target: "projects?select=id,clients!left(id)", status: 200,
            expect: .json(
                #"[{"id":1,"clients":{"id":1}},{"id":2,"clients":{"id":1}},{"id":3,"clients":{"id":2}},{"id":4,"clients":{"id":2}},{"id":5,"clients":null}]"#)),
        Case(
            name: "inner m2o head count", method: "HEAD", target: "projects?select=id,clients!inner(id)", headers: ["Prefer": "count=exact"], status: 200,
            expect: .exact(""), expectHeaders: ["Content-Range": "0-3/4"]),
        Case(
            name: "inner m2o filtered head count", method: "HEAD", target: "projects?select=id,clients!inner(id)&clients.id=eq.1",
            headers: ["Prefer": "count=exact"], status: 200, expect: .exact(""), expectHeaders: ["Content-Range": "0-1/2"]),
        Case(name: "inner m2o filtered to none", target: "projects?select=id,clients!inner(id)&clients.id=eq.0", status: 200, expect: .exact("[]")),
        Case(
            name: "inner two levels", target: "tasks?select=id,projects!inner(id,clients!inner(id))&projects.clients.id=eq.2", status: 200,
            expect: .json(
                #"[{"id":5,"projects":{"id":3,"clients":{"id":2}}},{"id":6,"projects":{"id":3,"clients":{"id":2}}},{"id":7,"projects":{"id":4,"clients":{"id":2}}},{"id":8,"projects":{"id":4,"clients":{"id":2}}}]"#
            )),
        Case(
            name: "inner two levels head count", method: "HEAD", target: "tasks?select=id,projects!inner(id,clients!inner(id))&projects.clients.id=eq.1",
            headers: ["Prefer": "count=exact"], status: 200, expect: .exact(""), expectHeaders: ["Content-Range": "0-3/4"]),
        Case(
            name: "inner only below a left embed", target: "tasks?select=id,projects(id,clients!inner(id))&projects.clients.id=eq.2&order=id", status: 200,
            expect: .json(
                #"[{"id":1,"projects":null},{"id":2,"projects":null},{"id":3,"projects":null},{"id":4,"projects":null},{"id":5,"projects":{"id":3,"clients":{"id":2}}},{"id":6,"projects":{"id":3,"clients":{"id":2}}},{"id":7,"projects":{"id":4,"clients":{"id":2}}},{"id":8,"projects":{"id":4,"clients":{"id":2}}}]"#
            )),
        Case(
            name: "inner only below a left embed head count", method: "HEAD", target: "tasks?select=id,projects(id,clients!inner(id))&projects.clients.id=eq.2",
            headers: ["Prefer": "count=exact"], status: 200, expect: .exact(""), expectHeaders: ["Content-Range": "0-7/8"]),
        Case(
            name: "inner o2m drops empty arrays", target: "entities?select=id,child_entities!inner(id)", status: 200,
            expect: .json(#"[{"id":1,"child_entities":[{"id":1},{"id":2},{"id":4},{"id":5}]},{"id":2,"child_entities":[{"id":3},{"id":6}]}]"#)),
        Case(
            name: "inner o2m head count", method: "HEAD", target: "entities?select=id,child_entities!inner(id)", headers: ["Prefer": "count=exact"],
            status: 200, expect: .exact(""), expectHeaders: ["Content-Range": "0-1/2"]),
        Case(
            name: "inner o2m filtered", target: "entities?select=id,child_entities!inner(id)&child_entities.id=eq.3", status: 200,
            expect: .json(#"[{"id":2,"child_entities":[{"id":3}]}]"#)),
        Case(
            name: "inner o2m two levels",
            target: "entities?select=id,child_entities!inner(id,grandchild_entities!inner(id))&child_entities.grandchild_entities.id=in.(1,5)", status: 200,
            expect: .json(#"[{"id":1,"child_entities":[{"id":1,"grandchild_entities":[{"id":1}]},{"id":2,"grandchild_entities":[{"id":5}]}]}]"#)),
        Case(
            name: "inner o2m above a left embed",
            target: "entities?select=id,child_entities!inner(id,grandchild_entities(id))&child_entities.grandchild_entities.id=eq.2", status: 200,
            expect: .json(
                #"[{"id":1,"child_entities":[{"id":1,"grandchild_entities":[{"id":2}]},{"id":2,"grandchild_entities":[]},{"id":4,"grandchild_entities":[]},{"id":5,"grandchild_entities":[]}]},{"id":2,"child_entities":[{"id":3,"grandchild_entities":[]},{"id":6,"grandchild_entities":[]}]}]"#
            )),
        Case(
            name: "inner o2m above a left embed head count", method: "HEAD",
            target: "entities?select=id,child_entities!inner(id,grandchild_entities(id))&child_entities.grandchild_entities.id=eq.2",
            headers: ["Prefer": "count=exact"], status: 200, expect: .exact(""), expectHeaders: ["Content-Range": "0-1/2"]),
        Case(
            name: "inner m2o and m2m combined", target: "projects?select=name,clients!inner(name),users!inner(name)&order=id&limit=2", status: 200,
            expect: .json(
                #"[{"name":"Windows 7","clients":{"name":"Microsoft"},"users":[{"name":"Angela Martin"},{"name":"Dwight Schrute"}]},{"name":"Windows 10","clients":{"name":"Microsoft"},"users":[{"name":"Angela Martin"}]}]"#
            )),
        Case(
            name: "inner with fk hint", target: "projects?select=id,clients!client!inner(id)&clients.id=eq.2", status: 200,
            expect: .json(#"[{"id":3,"clients":{"id":2}},{"id":4,"clients":{"id":2}}]"#)),
        Case(
            name: "inner by fk name", target: "projects?select=id,client!inner(id)&client.id=eq.2", status: 200,
            expect: .json(#"[{"id":3,"client":{"id":2}},{"id":4,"client":{"id":2}}]"#)),
        Case(
            name: "inner with fk hint head count", method: "HEAD", target: "projects?select=id,clients!client!inner(id)&clients.id=eq.2",
            headers: ["Prefer": "count=exact"], status: 200, expect: .exact(""), expectHeaders: ["Content-Range": "0-1/2"])
    ]

    static let jsonSweep: [Case] = [
        Case(
            name: "json text cast to json", target: "complex_items?id=eq.1&select=settings->>foo::json", status: 200,
            expect: .json(#"[{"foo":{"int":1,"bar":"baz"}}]"#)),
        Case(
            name: "json text cast to json aliased", target: "complex_items?id=eq.1&select=myFoo:settings->>foo::json", status: 200,
            expect: .json(#"[{"myFoo":{"int":1,"bar":"baz"}}]"#)),
        Case(name: "json two levels text", target: "complex_items?id=eq.1&select=settings->foo->>bar", status: 200, expect: .json(#"[{"bar":"baz"}]"#)),
        Case(
            name: "json two levels aliased", target: "complex_items?id=eq.1&select=myBar:settings->foo->>bar", status: 200, expect: .json(#"[{"myBar":"baz"}]"#)
        ),
        Case(name: "json two levels cast", target: "complex_items?id=eq.1&select=settings->foo->>int::integer", status: 200, expect: .json(#"[{"int":1}]"#)),
        Case(
            name: "json two levels cast aliased", target: "complex_items?id=eq.1&select=myInt:settings->foo->>int::integer", status: 200,
            expect: .json(#"[{"myInt":1}]"#)),
        Case(name: "json array index cast", target: "json_arr?select=data->>0::int&id=in.(1,2)", status: 200, expect: .json(#"[{"data":1},{"data":4}]"#)),
        Case(
            name: "json two indexes aliased", target: "json_arr?select=idx0:data->>0::int,idx1:data->>1::int&id=in.(1,2)", status: 200,
            expect: .json(#"[{"idx0":1,"idx1":2},{"idx0":4,"idx1":5}]"#)),
        Case(name: "json nested index", target: "json_arr?select=data->0->>1::int&id=in.(3,4)", status: 200, expect: .json(#"[{"data":8},{"data":7}]"#)),
        Case(
            name: "json deep nested index", target: "json_arr?select=data->0->0->>1::int&id=in.(3,4)", status: 200,
            expect: .json(#"[{"data":null},{"data":6}]"#)),
        Case(name: "json object in array", target: "json_arr?select=data->0->>a&id=in.(5,6)", status: 200, expect: .json(#"[{"a":"A"},{"a":"[1,2,3]"}]"#)),
        Case(
            name: "json index in object in array", target: "json_arr?select=data->0->a->>2&id=in.(5,6)", status: 200, expect: .json(#"[{"a":null},{"a":"3"}]"#)),
        Case(
            name: "json array in object key cast", target: "json_arr?select=data->c->>0::json&id=in.(7,8)", status: 200,
            expect: .json(#"[{"c":1},{"c":{"d":[4,5,6,7,8]}}]"#)),
        Case(name: "json deep index cast", target: "json_arr?select=data->c->0->d->>4::int&id=in.(7,8)", status: 200, expect: .json(#"[{"d":null},{"d":8}]"#)),
        Case(
            name: "json numbers-like keys", target: "json_arr?select=data->0->0xy1->1->23-xy-45->1->xy-6->>0::int&id=eq.9", status: 200,
            expect: .json(#"[{"xy-6":3}]"#)),
        Case(
            name: "json ending in key", target: "json_arr?select=data->c&id=in.(7,8)", status: 200, expect: .json(#"[{"c":[1,2,3]},{"c":[{"d":[4,5,6,7,8]}]}]"#)
        ),
        Case(
            name: "json ending in key below index", target: "json_arr?select=data->0->a&id=in.(5,6)", status: 200, expect: .json(#"[{"a":"A"},{"a":[1,2,3]}]"#)),
        Case(name: "json ending after index", target: "json_arr?select=data->c->0->d&id=eq.8", status: 200, expect: .json(#"[{"d":[4,5,6,7,8]}]"#)),
        Case(
            name: "array arrows", target: "arrays?select=a:numbers->0,b:numbers->1,c:numbers_mult->0->0,d:numbers_mult->1->2", status: 200,
            expect: .json(#"[{"a":1,"b":2,"c":1,"d":6},{"a":11,"b":12,"c":11,"d":16}]"#)),
        Case(
            name: "array double arrows", target: "arrays?select=a:numbers->>0,b:numbers->>1,c:numbers_mult->0->>0,d:numbers_mult->1->>2", status: 200,
            expect: .json(#"[{"a":"1","b":"2","c":"1","d":"6"},{"a":"11","b":"12","c":"11","d":"16"}]"#)),
        Case(name: "json filter deep", target: "json_table?data->foo->>bar=eq.baz", status: 200, expect: .json(#"[{"data":{"id":1,"foo":{"bar":"baz"}}}]"#)),
        Case(name: "json filter none", target: "json_table?data->foo->>bar=eq.fake", status: 200, expect: .json(#"[]"#)),
        Case(name: "json filter not", target: "json_table?data->foo->>bar=not.eq.baz", status: 200, expect: .json(#"[]"#)),
        Case(name: "json filter text", target: "json_table?data->>id=eq.1", status: 200, expect: .json(#"[{"data":{"id":1,"foo":{"bar":"baz"}}}]"#)),
        Case(
            name: "json filter in or", target: "grandchild_entities?or=(jsonb_col->a->>b.eq.foo, jsonb_col->>b.eq.bar)&select=id", status: 200,
            expect: .json(#"[{"id":4},{"id":5}]"#)),
        Case(
            name: "json filter special keys", target: "json_arr?select=data->!@#$%^%26*_d&data->!@#$%^%26*_d->>!@#$%^%26*_e=eq.3", status: 200,
            expect: .json(#"[{"!@#$%^&*_d":{"!@#$%^&*_e":3}}]"#)),
        Case(name: "json filter index", target: "json_arr?select=data&data->>0=eq.1", status: 200, expect: .json(#"[{"data":[1,2,3]}]"#)),
        Case(
            name: "json filter nested index", target: "json_arr?select=data&data->1->>2=eq.13", status: 200, expect: .json(#"[{"data":[[9,8,7],[11,12,13]]}]"#)),
        Case(
            name: "json filter key below index", target: "json_arr?select=data&data->1->>b=eq.B", status: 200,
            expect: .json(#"[{"data":[{"a":"A"},{"b":"B"}]}]"#)),
        Case(
            name: "json filter index below key", target: "json_arr?select=data&data->1->b->>1=eq.5", status: 200,
            expect: .json(#"[{"data":[{"a":[1,2,3]},{"b":[4,5]}]}]"#)),
        Case(name: "jsonb filter whole", target: "jsonb_test?data=eq.{\"e\":1}", status: 200, expect: .json(#"[{"id":4,"data":{"e":1}}]"#)),
        Case(name: "jsonb filter object", target: "jsonb_test?data->a=eq.{\"b\":2}", status: 200, expect: .json(#"[{"id":1,"data":{"a":{"b":2}}}]"#)),
        Case(name: "jsonb filter array", target: "jsonb_test?data->c=eq.[1,2,3]", status: 200, expect: .json(#"[{"id":2,"data":{"c":[1,2,3]}}]"#)),
        Case(
            name: "jsonb filter index object", target: "jsonb_test?data->0=eq.{\"d\":\"test\"}", status: 200,
            expect: .json(#"[{"id":3,"data":[{"d":"test"}]}]"#)),
        Case(name: "array item filter", target: "arrays?select=id&numbers->0=eq.1", status: 200, expect: .json(#"[{"id":0}]"#)),
        Case(name: "array item text filter", target: "arrays?select=id&numbers->>0=eq.11", status: 200, expect: .json(#"[{"id":1}]"#)),
        Case(name: "array 2d item filter", target: "arrays?select=id&numbers_mult->1->1=eq.5", status: 200, expect: .json(#"[{"id":0}]"#)),
        Case(name: "array 2d item text filter", target: "arrays?select=id&numbers_mult->2->>2=eq.19", status: 200, expect: .json(#"[{"id":1}]"#)),
        Case(
            name: "json order asc", target: "json_table?order=data->>id.asc", status: 200,
            expect: .json(#"[{"data":{"id":0}},{"data":{"id":1,"foo":{"bar":"baz"}}},{"data":{"id":3}}]"#)),
        Case(
            name: "json order nullsfirst", target: "json_table?order=data->foo->>bar.nullsfirst", status: 200,
            expect: .json(#"[{"data":{"id":3}},{"data":{"id":0}},{"data":{"id":1,"foo":{"bar":"baz"}}}]"#)),
        Case(name: "array order desc", target: "arrays?select=id&order=numbers->0.desc", status: 200, expect: .json(#"[{"id":1},{"id":0}]"#)),
        Case(name: "array order asc", target: "arrays?select=id&order=numbers->1.asc", status: 200, expect: .json(#"[{"id":0},{"id":1}]"#)),
        Case(name: "array 2d order desc", target: "arrays?select=id&order=numbers_mult->0->0.desc", status: 200, expect: .json(#"[{"id":1},{"id":0}]"#)),
        Case(name: "array 2d order asc", target: "arrays?select=id&order=numbers_mult->2->2.asc", status: 200, expect: .json(#"[{"id":0},{"id":1}]"#)),
        Case(name: "json negative index cast", target: "json_arr?select=data->>-1::int&id=in.(1,2)", status: 200, expect: .json(#"[{"data":3},{"data":6}]"#)),
        Case(
            name: "json negative nested index", target: "json_arr?select=data->0->>-2::int&id=in.(3,4)", status: 200, expect: .json(#"[{"data":8},{"data":7}]"#)
        ),
        Case(name: "json negative index key", target: "json_arr?select=data->-2->>a&id=in.(5,6)", status: 200, expect: .json(#"[{"a":"A"},{"a":"[1,2,3]"}]"#)),
        Case(name: "json negative filter", target: "json_arr?select=data&data->>-3=eq.1", status: 200, expect: .json(#"[{"data":[1,2,3]}]"#)),
        Case(
            name: "json negative nested filter", target: "json_arr?select=data&data->-1->>-3=eq.11", status: 200,
            expect: .json(#"[{"data":[[9,8,7],[11,12,13]]}]"#)),
        Case(
            name: "json negative key filter", target: "json_arr?select=data&data->-1->>b=eq.B", status: 200, expect: .json(#"[{"data":[{"a":"A"},{"b":"B"}]}]"#)
        ),
        Case(
            name: "json negative deep filter", target: "json_arr?select=data&data->-1->b->>-1=eq.5", status: 200,
            expect: .json(#"[{"data":[{"a":[1,2,3]},{"b":[4,5]}]}]"#)),
        Case(
            name: "json cast fails on the value", target: "complex_items?select=settings->foo->>bar::integer", status: 400,
            expect: .json(#"{"code":"22P02","details":null,"hint":null,"message":"invalid input syntax for type integer: \"baz\""}"#)),
        Case(
            name: "json arrow after double arrow index", target: "json_arr?select=data->>c->1", status: 404,
            expect: .json(
                #"{"code":"42883","details":null,"hint":"No operator matches the given name and argument types. You might need to add explicit type casts.","message":"operator does not exist: text -> integer"}"#
            )),
        Case(
            name: "json arrow after double arrow key", target: "json_arr?select=data->>c->b", status: 404,
            expect: .json(
                #"{"code":"42883","details":null,"hint":"No operator matches the given name and argument types. You might need to add explicit type casts.","message":"operator does not exist: text -> unknown"}"#
            )),
        Case(
            name: "json patch by path keeps escapes", method: "PATCH", target: "json_table?data->>id=eq.3", headers: ["Prefer": "return=representation"],
            body: #"{"data":{"id":" \"escaped"}}"#, status: 200, expect: .json(#"[{"data":{"id":" \"escaped"}}]"#))
    ]

    static let relatedSweep: [Case] = [
        Case(
            name: "related order nullsfirst", target: "projects?select=id,clients(name)&order=clients(name).nullsfirst", status: 200,
            expect: .json(
                #"[{"id":5,"clients":null},{"id":3,"clients":{"name":"Apple"}},{"id":4,"clients":{"name":"Apple"}},{"id":1,"clients":{"name":"Microsoft"}},{"id":2,"clients":{"name":"Microsoft"}}]"#
            )),
        Case(
            name: "related order by alias", target: "projects?select=id,client:clients(name)&order=client(name).asc", status: 200,
            expect: .json(
                #"[{"id":3,"client":{"name":"Apple"}},{"id":4,"client":{"name":"Apple"}},{"id":1,"client":{"name":"Microsoft"}},{"id":2,"client":{"name":"Microsoft"}},{"id":5,"client":null}]"#
            )),
        Case(
            name: "related order o2o json path asc", target: "trash?select=id,trash_details(id,jsonb_col)&order=trash_details(jsonb_col->key).asc", status: 200,
            expect: .json(
                #"[{"id":2,"trash_details":{"id":2,"jsonb_col":{"key":6}}},{"id":3,"trash_details":{"id":3,"jsonb_col":{"key":8}}},{"id":1,"trash_details":{"id":1,"jsonb_col":{"key":10}}}]"#
            )),
        Case(
            name: "related order o2o json path desc", target: "trash?select=id,trash_details(id,jsonb_col)&order=trash_details(jsonb_col->key).desc",
            status: 200,
            expect: .json(
                #"[{"id":1,"trash_details":{"id":1,"jsonb_col":{"key":10}}},{"id":3,"trash_details":{"id":3,"jsonb_col":{"key":8}}},{"id":2,"trash_details":{"id":2,"jsonb_col":{"key":6}}}]"#
            )),
        Case(
            name: "related order in embed desc", target: "users?select=name,tasks(id,name,projects(id,name))&tasks.order=projects(id).desc&limit=1",
            status: 200,
            expect: .json(
                #"[{"name":"Angela Martin","tasks":[{"id":3,"name":"Design w10","projects":{"id":2,"name":"Windows 10"}},{"id":4,"name":"Code w10","projects":{"id":2,"name":"Windows 10"}},{"id":1,"name":"Design w7","projects":{"id":1,"name":"Windows 7"}},{"id":2,"name":"Code w7","projects":{"id":1,"name":"Windows 7"}}]}]"#
            )),
        Case(
            name: "related order in embed then name", target: "users?select=name,tasks(id,name,projects(id,name))&tasks.order=projects(id).desc,name&limit=1",
            status: 200,
            expect: .json(
                #"[{"name":"Angela Martin","tasks":[{"id":4,"name":"Code w10","projects":{"id":2,"name":"Windows 10"}},{"id":3,"name":"Design w10","projects":{"id":2,"name":"Windows 10"}},{"id":2,"name":"Code w7","projects":{"id":1,"name":"Windows 7"}},{"id":1,"name":"Design w7","projects":{"id":1,"name":"Windows 7"}}]}]"#
            )),
        Case(
            name: "related order in embed asc", target: "users?select=name,tasks(id,name,projects(id,name))&tasks.order=projects(id).asc&limit=1", status: 200,
            expect: .json(
                #"[{"name":"Angela Martin","tasks":[{"id":1,"name":"Design w7","projects":{"id":1,"name":"Windows 7"}},{"id":2,"name":"Code w7","projects":{"id":1,"name":"Windows 7"}},{"id":3,"name":"Design w10","projects":{"id":2,"name":"Windows 10"}},{"id":4,"name":"Code w10","projects":{"id":2,"name":"Windows 10"}}]}]"#
            )),
        Case(
            name: "m2o not null embed", target: "projects?select=name,clients()&clients=not.is.null", status: 200,
            expect: .json(#"[{"name":"Windows 7"},{"name":"Windows 10"},{"name":"IOS"},{"name":"OSX"}]"#)),
        Case(name: "m2o null embed", target: "projects?select=name,clients()&clients=is.null", status: 200, expect: .json(#"[{"name":"Orphan"}]"#)),
        Case(
            name: "o2m not null embed", target: "entities?select=name,child_entities()&child_entities=not.is.null", status: 200,
            expect: .json(#"[{"name":"entity 1"},{"name":"entity 2"}]"#)),
        Case(
            name: "o2m null embed", target: "entities?select=name,child_entities()&child_entities=is.null", status: 200,
            expect: .json(#"[{"name":"entity 3"},{"name":null}]"#)),
        Case(
            name: "o2m null embed aliased", target: "entities?select=name,childs:child_entities()&childs=is.null", status: 200,
            expect: .json(#"[{"name":"entity 3"},{"name":null}]"#)),
        Case(
            name: "m2m not null filtered embed", target: "users?select=name,tasks()&tasks.id=eq.1&tasks=not.is.null", status: 200,
            expect: .json(#"[{"name":"Angela Martin"},{"name":"Dwight Schrute"}]"#)),
        Case(
            name: "m2m null filtered embed", target: "users?select=name,tasks()&tasks.id=eq.1&tasks=is.null", status: 200,
            expect: .json(#"[{"name":"Michael Scott"}]"#)),
        Case(
            name: "nested not null embeds",
            target: "entities?select=name,child_entities(name,grandchild_entities())&child_entities.grandchild_entities=not.is.null&child_entities=not.is.null",
            status: 200, expect: .json(#"[{"name":"entity 1","child_entities":[{"name":"child entity 1"},{"name":"child entity 2"}]}]"#)),
        Case(
            name: "or across embeds",
            target:
                "client?select=*,clientinfo(),contact()&clientinfo.other=ilike.*main*&contact.name=ilike.*tabby*&or=(clientinfo.not.is.null,contact.not.is.null)",
            status: 200, expect: .json(#"[{"id":1,"name":"Walmart"},{"id":2,"name":"Target"}]"#)),
        Case(
            name: "column embed keeps column filter", target: "projects?select=name,client_id,client:client_id(name)&client_id=eq.2", status: 200,
            expect: .json(#"[{"name":"IOS","client_id":2,"client":{"name":"Apple"}},{"name":"OSX","client_id":2,"client":{"name":"Apple"}}]"#)),
        Case(
            name: "not null embed with a null-column row", target: "table_b?select=name,table_a(name)&table_a=not.is.null", status: 200,
            expect: .json(#"[{"name":"Test 1","table_a":{"name":"Not null 1"}},{"name":"Test 2","table_a":{"name":null}}]"#)),
        Case(name: "null embed without a parent", target: "table_b?select=name,table_a()&table_a=is.null", status: 200, expect: .json(#"[{"name":"Test 3"}]"#)),
        Case(
            name: "related order on to-many", target: "clients?select=*,projects(*)&order=projects(id)", status: 400,
            expect: .json(
                #"{"code":"PGRST118","details":"'clients' and 'projects' do not form a many-to-one or one-to-one relationship","hint":null,"message":"A related order on 'projects' is not possible"}"#
            )),
        Case(
            name: "related order on aliased to-many", target: "clients?select=*,pros:projects(*)&order=pros(id)", status: 400,
            expect: .json(
                #"{"code":"PGRST118","details":"'clients' and 'pros' do not form a many-to-one or one-to-one relationship","hint":null,"message":"A related order on 'pros' is not possible"}"#
            )),
        Case(
            name: "related order not embedded", target: "projects?select=id,clients(name)&order=clientsx(name).nullsfirst", status: 400,
            expect: .json(
                #"{"code":"PGRST108","details":null,"hint":"Verify that 'clientsx' is included in the 'select' query parameter.","message":"'clientsx' is not an embedded resource in this request"}"#
            )),
        Case(
            name: "not null embed exact count", target: "projects?select=name,clients(name)&clients=not.is.null", headers: ["Prefer": "count=exact"],
            status: 200, expectHeaders: ["Content-Range": "0-3/4"]),
        Case(
            name: "null embed exact count", target: "projects?select=name,clients()&clients=is.null", headers: ["Prefer": "count=exact"], status: 200,
            expect: .json(#"[{"name":"Orphan"}]"#), expectHeaders: ["Content-Range": "0-0/1"]),
        Case(
            name: "or across embeds exact count",
            target:
                "client?select=*,clientinfo(),contact()&clientinfo.other=ilike.*main*&contact.name=ilike.*tabby*&or=(clientinfo.not.is.null,contact.not.is.null)",
            headers: ["Prefer": "count=exact"], status: 200, expectHeaders: ["Content-Range": "0-1/2"]),
        Case(
            name: "inner o2m twice", target: "client?select=id,name,contact!inner(name),clientinfo!inner(other)&contact.name=eq.Wally%20Walton", status: 200,
            expect: .json(#"[{"id":1,"name":"Walmart","contact":[{"name":"Wally Walton"}],"clientinfo":[{"other":"123 Main St"}]}]"#)),
        Case(
            name: "inner o2m twice head count", method: "HEAD", target: "client?select=id,name,contact!inner(name),clientinfo!inner(other)",
            headers: ["Prefer": "count=exact"], status: 200, expect: .exact(""), expectHeaders: ["Content-Range": "0-2/3"])
    ]

    static let logicSweep: [Case] = [
        Case(name: "and with a trailing parenthesis", target: "entities?and=(id.eq.1,id.neq.2))&select=id", status: 200, expect: .json(#"[{"id":1}]"#)),
        Case(name: "or lte gte", target: "entities?or=(id.lte.2,id.gte.3)&select=id", status: 200, expect: .json(#"[{"id":1},{"id":2},{"id":3},{"id":4}]"#)),
        Case(name: "array lte", target: "entities?arr=lte.{1,2,3}&select=id", status: 200, expect: .json(#"[{"id":1},{"id":2},{"id":3}]"#)),
        Case(name: "array overlaps one", target: "entities?arr=ov.{3}&select=id", status: 200, expect: .json(#"[{"id":3}]"#)),
        Case(name: "and of one", target: "entities?and=(id.eq.1)&select=id", status: 200, expect: .json(#"[{"id":1}]"#)),
        Case(
            name: "or quoted values with commas and parens",
            target: "grandchild_entities?or=(name.eq.\"(grandchild,entity,4)\",name.eq.\"(grandchild,entity,5)\")&select=id", status: 200,
            expect: .json(#"[{"id":4},{"id":5}]"#)),
        Case(
            name: "or quoted like patterns", target: "grandchild_entities?or=(name.like.\"*ity,4*\",name.ilike.\"*ITY,5)\")&select=id", status: 200,
            expect: .json(#"[{"id":4},{"id":5}]"#)),
        Case(
            name: "or quoted in lists", target: "grandchild_entities?or=(id.in.(\"1\",\"2\"),id.in.(\"3\",\"4\"))&select=id", status: 200,
            expect: .json(#"[{"id":1},{"id":2},{"id":3},{"id":4}]"#)),
        Case(
            name: "logic tree with spaces", target: "entities?and=( and ( id.in.( 1, 2, 3 ) , id.eq.3 ) , or ( id.eq.2 , id.eq.3 ) )&select=id", status: 200,
            expect: .json(#"[{"id":3}]"#)),
        Case(
            name: "empty or on entities", target: "entities?or=()", status: 400,
            expect: .json(
                #"{"code":"PGRST100","details":"unexpected \")\" expecting field name (* or [a..z0..9_$]), negation operator (not) or logic operator (and, or)","hint":null,"message":"\"failed to parse logic tree (())\" (line 1, column 4)"}"#
            ))
    ]

    static let querySweep: [Case] = [
        Case(
            name: "ilike prefix either case", target: "simple_pk?k=ilike.xy*&order=extra.asc", status: 200,
            expect: .json("[{\"k\":\"xyyx\",\"extra\":\"u\"},{\"k\":\"xYYx\",\"extra\":\"v\"}]")),
        Case(
            name: "imatch anchored", target: "simple_pk?k=imatch.^xy&order=extra.asc", status: 200,
            expect: .json("[{\"k\":\"xyyx\",\"extra\":\"u\"},{\"k\":\"xYYx\",\"extra\":\"v\"}]")),
        Case(name: "not imatch", target: "simple_pk?k=not.imatch.^xy&order=extra.asc", status: 200, expect: .json("[]")),
        Case(
            name: "whole row with json and array", target: "complex_items?id=eq.3", status: 200,
            expect: .json("[{\"id\":3,\"name\":\"Three\",\"settings\":{\"foo\":{\"int\":1,\"bar\":\"baz\"}},\"arr_data\":[1,2,3],\"field-with_sep\":3}]")),
        Case(name: "one column of all rows", target: "complex_items?select=id", status: 200, expect: .json("[{\"id\":1},{\"id\":2},{\"id\":3}]")),
        Case(
            name: "json column whole", target: "complex_items?id=eq.1&select=settings", status: 200,
            expect: .json("[{\"settings\":{\"foo\":{\"int\":1,\"bar\":\"baz\"}}}]")),
        Case(
            name: "composite fk parent aliased column", target: "comments?select=*,users_tasks(userId:user_id)", status: 200,
            expect: .json(
                "[{\"id\":1,\"commenter_id\":1,\"user_id\":2,\"task_id\":6,\"content\":\"Needs to be delivered ASAP\",\"users_tasks\":{\"userId\":2}}]")),
        Case(
            name: "composite fk parent other column", target: "comments?select=*,users_tasks(taskId:task_id)", status: 200,
            expect: .json(
                "[{\"id\":1,\"commenter_id\":1,\"user_id\":2,\"task_id\":6,\"content\":\"Needs to be delivered ASAP\",\"users_tasks\":{\"taskId\":6}}]")),
        Case(
            name: "spaces between select items", target: "projects?id=eq.1&select=id, name, clients(id)", status: 200,
            expect: .json("[{\"id\":1,\"name\":\"Windows 7\",\"clients\":{\"id\":1}}]")),
        Case(
            name: "m2m on composite keys from files", target: "files?filename=eq.autoexec.bat&project_id=eq.1&select=filename,users_tasks(user_id,task_id)",
            status: 200, expect: .json("[{\"filename\":\"autoexec.bat\",\"users_tasks\":[{\"user_id\":1,\"task_id\":1},{\"user_id\":3,\"task_id\":1}]}]")),
        Case(
            name: "m2m on composite keys ordered", target: "users_tasks?user_id=eq.1&task_id=eq.1&select=user_id,files(filename,content)&files.order=filename",
            status: 200,
            expect: .json(
                "[{\"user_id\":1,\"files\":[{\"filename\":\"README.md\",\"content\":\"# make $$$!\"},{\"filename\":\"autoexec.bat\",\"content\":\"@ECHO OFF\"},{\"filename\":\"command.com\",\"content\":\"#include <unix.h>\"}]}]"
            )),
        Case(
            name: "m2m on composite keys by junction hint",
            target: "users_tasks?user_id=eq.1&task_id=eq.1&select=user_id,files!touched_files(filename,content)&files.order=filename", status: 200,
            expect: .json(
                "[{\"user_id\":1,\"files\":[{\"filename\":\"README.md\",\"content\":\"# make $$$!\"},{\"filename\":\"autoexec.bat\",\"content\":\"@ECHO OFF\"},{\"filename\":\"command.com\",\"content\":\"#include <unix.h>\"}]}]"
            )),
        Case(
            name: "order asc with range", target: "items?id=lte.2&order=id.asc", status: 200, expect: .json("[{\"id\":1},{\"id\":2}]"),
            expectHeaders: ["Content-Range": "0-1/*"]),
        Case(
            name: "order desc nulls first text", target: "no_pk?order=a.desc.nullsfirst", status: 200,
            expect: .json("[{\"a\":null,\"b\":null},{\"a\":\"2\",\"b\":\"0\"},{\"a\":\"1\",\"b\":\"0\"}]"), expectHeaders: ["Content-Range": "0-2/*"]),
        Case(
            name: "order desc nulls last text", target: "no_pk?order=a.desc.nullslast", status: 200,
            expect: .json("[{\"a\":\"2\",\"b\":\"0\"},{\"a\":\"1\",\"b\":\"0\"},{\"a\":null,\"b\":null}]"), expectHeaders: ["Content-Range": "0-2/*"]),
        Case(
            name: "in one quoted value with a comma", target: "w_or_wo_comma_names?name=in.(\"Hebdon, John\")", status: 200,
            expect: .json("[{\"name\":\"Hebdon, John\"}]")),
        Case(
            name: "in three quoted values", target: "w_or_wo_comma_names?name=in.(\"Hebdon, John\",\"Williams, Mary\",\"Smith, Joseph\")", status: 200,
            expect: .json("[{\"name\":\"Hebdon, John\"},{\"name\":\"Williams, Mary\"},{\"name\":\"Smith, Joseph\"}]")),
        Case(
            name: "not in quoted values", target: "w_or_wo_comma_names?name=not.in.(\"Hebdon, John\",\"Williams, Mary\",\"Smith, Joseph\")&limit=3",
            status: 200, expect: .json("[{\"name\":\"David White\"},{\"name\":\"Larry Thompson\"},{\"name\":\"Double O Seven(007)\"}]")),
        Case(
            name: "in quoted and bare", target: "w_or_wo_comma_names?name=in.(David White,\"Hebdon, John\")", status: 200,
            expect: .json("[{\"name\":\"Hebdon, John\"},{\"name\":\"David White\"}]")),
        Case(
            name: "not in quoted and bare", target: "w_or_wo_comma_names?name=not.in.(\"Hebdon, John\",Larry Thompson,\"Smith, Joseph\")&limit=3", status: 200,
            expect: .json("[{\"name\":\"Williams, Mary\"},{\"name\":\"David White\"},{\"name\":\"Double O Seven(007)\"}]")),
        Case(
            name: "in quoted parens", target: "w_or_wo_comma_names?name=in.(\"Double O Seven(007)\")", status: 200,
            expect: .json("[{\"name\":\"Double O Seven(007)\"}]")),
        Case(
            name: "in escaped quotes", target: "w_or_wo_comma_names?name=in.(\"Double\\\"Quote\\\"McGraw\\\"\")", status: 200,
            expect: .json("[{\"name\":\"Double\\\"Quote\\\"McGraw\\\"\"}]")),
        Case(name: "in escaped backslash", target: "w_or_wo_comma_names?name=in.(\"\\\\\")", status: 200, expect: .json("[{\"name\":\"\\\\\"}]")),
        Case(
            name: "in escaped backslashes between", target: "w_or_wo_comma_names?name=in.(\"/\\\\Slash/\\\\Beast/\\\\\")", status: 200,
            expect: .json("[{\"name\":\"/\\\\Slash/\\\\Beast/\\\\\"}]")),
        Case(
            name: "in any escaped char", target: "w_or_wo_comma_names?name=in.(\"D\\a\\vid W\\h\\ite\")", status: 200,
            expect: .json("[{\"name\":\"David White\"}]"))
    ]

    static let stripSweep: [Case] = [
        Case(
            name: "array strip read", target: "organizations?select=*", headers: ["Accept": "application/vnd.pgrst.array+json;nulls=stripped"], status: 200,
            expect: .json(
                "[{\"id\":1,\"name\":\"Referee Org\",\"manager_id\":1},{\"id\":2,\"name\":\"Auditor Org\",\"manager_id\":2},{\"id\":3,\"name\":\"Acme\",\"referee\":1,\"auditor\":2,\"manager_id\":3},{\"id\":4,\"name\":\"Umbrella\",\"referee\":1,\"auditor\":2,\"manager_id\":4},{\"id\":5,\"name\":\"Cyberdyne\",\"referee\":3,\"auditor\":4,\"manager_id\":5},{\"id\":6,\"name\":\"Oscorp\",\"referee\":3,\"auditor\":4,\"manager_id\":6}]"
            ), expectHeaders: ["Content-Type": "application/vnd.pgrst.array+json;nulls=stripped; charset=utf-8"]),
        Case(
            name: "array strip without +json", target: "organizations?select=*", headers: ["Accept": "application/vnd.pgrst.array;nulls=stripped"], status: 200,
            expect: .json(
                "[{\"id\":1,\"name\":\"Referee Org\",\"manager_id\":1},{\"id\":2,\"name\":\"Auditor Org\",\"manager_id\":2},{\"id\":3,\"name\":\"Acme\",\"referee\":1,\"auditor\":2,\"manager_id\":3},{\"id\":4,\"name\":\"Umbrella\",\"referee\":1,\"auditor\":2,\"manager_id\":4},{\"id\":5,\"name\":\"Cyberdyne\",\"referee\":3,\"auditor\":4,\"manager_id\":5},{\"id\":6,\"name\":\"Oscorp\",\"referee\":3,\"auditor\":4,\"manager_id\":6}]"
            ), expectHeaders: ["Content-Type": "application/vnd.pgrst.array+json;nulls=stripped; charset=utf-8"]),
        Case(
            name: "array strip insert", method: "POST", target: "organizations?select=*",
            headers: ["Accept": "application/vnd.pgrst.array+json;nulls=stripped", "Prefer": "return=representation"],
            body: "{\"id\":7,\"name\":\"John\",\"referee\":null,\"auditor\":null,\"manager_id\":6}", status: 201,
            expect: .json("[{\"id\":7,\"name\":\"John\",\"manager_id\":6}]"),
            expectHeaders: ["Content-Type": "application/vnd.pgrst.array+json;nulls=stripped; charset=utf-8"]),
        Case(
            name: "array strip update", method: "PATCH", target: "organizations?id=eq.3&select=*",
            headers: ["Accept": "application/vnd.pgrst.array+json;nulls=stripped", "Prefer": "return=representation"],
            body: "{\"name\":\"John\",\"referee\":null}", status: 200,
            expect: .json("[{\"id\":3,\"name\":\"John\",\"auditor\":2,\"manager_id\":3}]"),
            expectHeaders: ["Content-Type": "application/vnd.pgrst.array+json;nulls=stripped; charset=utf-8"]),
        Case(
            name: "object strip read", target: "organizations?limit=1", headers: ["Accept": "application/vnd.pgrst.object+json;nulls=stripped"], status: 200,
            expect: .json("{\"id\":1,\"name\":\"Referee Org\",\"manager_id\":1}"),
            expectHeaders: ["Content-Type": "application/vnd.pgrst.object+json;nulls=stripped; charset=utf-8"]),
        Case(
            name: "object strip many rows", target: "organizations?select=*", headers: ["Accept": "application/vnd.pgrst.object+json;nulls=stripped"],
            status: 406,
            expect: .json(
                "{\"code\":\"PGRST116\",\"details\":\"The result contains 6 rows\",\"hint\":null,\"message\":\"Cannot coerce the result to a single JSON object\"}"
            ), expectHeaders: ["Content-Type": "application/json; charset=utf-8"]),
        Case(
            name: "array strip selected columns", target: "organizations?select=id,referee,auditor",
            headers: ["Accept": "application/vnd.pgrst.array+json;nulls=stripped"], status: 200,
            expect: .json(
                "[{\"id\":1},{\"id\":2},{\"id\":3,\"referee\":1,\"auditor\":2},{\"id\":4,\"referee\":1,\"auditor\":2},{\"id\":5,\"referee\":3,\"auditor\":4},{\"id\":6,\"referee\":3,\"auditor\":4}]"
            ), expectHeaders: ["Content-Type": "application/vnd.pgrst.array+json;nulls=stripped; charset=utf-8"]),
        Case(
            name: "array strip insert selected", method: "POST", target: "organizations?select=id,referee,auditor",
            headers: ["Accept": "application/vnd.pgrst.array+json;nulls=stripped", "Prefer": "return=representation"],
            body: "{\"id\":7,\"name\":\"John\",\"referee\":null,\"auditor\":null,\"manager_id\":6}", status: 201,
            expect: .json("[{\"id\":7}]"), expectHeaders: ["Content-Type": "application/vnd.pgrst.array+json;nulls=stripped; charset=utf-8"]),
        Case(
            name: "object strip selected", target: "organizations?select=id,referee,auditor&limit=1",
            headers: ["Accept": "application/vnd.pgrst.object+json;nulls=stripped"], status: 200,
            expect: .json("{\"id\":1}"), expectHeaders: ["Content-Type": "application/vnd.pgrst.object+json;nulls=stripped; charset=utf-8"]),
        Case(
            name: "array without strip keeps nulls", target: "organizations?select=id,referee,auditor&limit=2",
            headers: ["Accept": "application/vnd.pgrst.array+json"], status: 200,
            expect: .json("[{\"id\":1,\"referee\":null,\"auditor\":null},{\"id\":2,\"referee\":null,\"auditor\":null}]"),
            expectHeaders: ["Content-Type": "application/json; charset=utf-8"])
    ]

    static let mediaSweep: [Case] = [
        Case(
            name: "browser accept (firefox)", target: "items?id=eq.1", headers: ["Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"],
            status: 200,
            expect: .json(#"[{"id":1}]"#), expectHeaders: ["Content-Type": "application/json; charset=utf-8"]),
        Case(
            name: "browser accept (chrome)", target: "items?id=eq.1",
            headers: ["Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3"],
            status: 200,
            expect: .json(#"[{"id":1}]"#), expectHeaders: ["Content-Type": "application/json; charset=utf-8"]),
        Case(name: "unicode table read", target: "%D9%85%D9%88%D8%A7%D8%B1%D8%AF", status: 200, expect: .exact("[]")),
        Case(
            name: "unicode table insert", method: "POST", target: "%D9%85%D9%88%D8%A7%D8%B1%D8%AF", headers: ["Prefer": "return=representation"],
            body: #"{ "هویت": 1 }"#, status: 201, expect: .json(#"[{"هویت":1}]"#)),
        Case(
            name: "unicode table delete", method: "DELETE", target: "%D9%85%D9%88%D8%A7%D8%B1%D8%AF", status: 204, expect: .exact(""),
            expectAbsent: ["Content-Type"]),
        Case(
            name: "text/plain not available for a table", target: "items", headers: ["Accept": "text/plain"], status: 406,
            expect: .json(#"{"code":"PGRST107","details":null,"hint":null,"message":"None of these media types are available: text/plain"}"#),
            expectHeaders: ["Content-Type": "application/json; charset=utf-8"]),
        Case(
            name: "vnd.pgrst.object without +json", target: "projects?id=eq.1", headers: ["Accept": "application/vnd.pgrst.object"], status: 200,
            expect: .exact(#"{"id":1,"name":"Windows 7","client_id":1}"#),
            expectHeaders: ["Content-Type": "application/vnd.pgrst.object+json; charset=utf-8", "Content-Length": "41"]),
        Case(
            name: "json chosen beside text/plain", target: "projects?id=eq.1", headers: ["Accept": "text/plain, application/json"], status: 200,
            expectHeaders: ["Content-Type": "application/json; charset=utf-8"]),
        Case(
            name: "table name with a semicolon", target: "Escap3e;", status: 200,
            expect: .json(#"[{"so6meIdColumn":1},{"so6meIdColumn":2},{"so6meIdColumn":3},{"so6meIdColumn":4},{"so6meIdColumn":5}]"#)),
        Case(name: "camel-case table", target: "ghostBusters", status: 200, expect: .json(#"[{"escapeId":1},{"escapeId":3},{"escapeId":5}]"#)),
        Case(
            name: "filter without operator", target: "ghostBusters?id=0", status: 400,
            expect: .json(
                #"{"code":"PGRST100","details":"unexpected \"0\" expecting \"not\" or operator (eq, gt, ...)","hint":null,"message":"\"failed to parse filter (0)\" (line 1, column 1)"}"#
            )),
        Case(
            name: "embed children of a semicolon table", target: "Escap3e;?select=ghostBusters(*)", status: 200,
            expect: .json(
                #"[{"ghostBusters":[{"escapeId":1}]},{"ghostBusters":[]},{"ghostBusters":[{"escapeId":3}]},{"ghostBusters":[]},{"ghostBusters":[{"escapeId":5}]}]"#
            )),
        Case(
            name: "embed by camel-case column", target: "ghostBusters?select=escapeId(*)", status: 200,
            expect: .json(#"[{"escapeId":{"so6meIdColumn":1}},{"escapeId":{"so6meIdColumn":3}},{"escapeId":{"so6meIdColumn":5}}]"#)),
        Case(name: "column named t", target: "clashing_column?select=t", status: 200, expect: .exact("[]")),
        Case(
            name: "names with spaces", target: "Server%20Today?select=Just%20A%20Server%20Model&Just%20A%20Server%20Model=like.*91*", status: 200,
            expect: .json(
                #"[{"Just A Server Model":" IBM,9113-550 (P5-550)"},{"Just A Server Model":" IBM,9113-550 (P5-550)"},{"Just A Server Model":" IBM,9131-52A (P5-52A)"},{"Just A Server Model":" IBM,9133-55A (P5-55A)"}]"#
            )),
        Case(name: "names with dollars", target: "do$llar$s?select=a$num$&a$num$=eq.100", status: 200, expect: .json(#"[{"a$num$":100}]"#)),
        Case(
            name: "quoted names with reserved characters",
            target:
                "pgrst_reserved_chars?select=%22:arr-%3Eow::cast%22,%22(inside,parens)%22,%22a.dotted.column%22,%22%20%20col%20%20w%20%20space%20%20%22&%22*id*%22=eq.1",
            status: 200,
            expect: .json(#"[{":arr->ow::cast":" arrow-1 ","(inside,parens)":" parens-1 ","a.dotted.column":" dotted-1 ","  col  w  space  ":" space-1"}]"#)),
        Case(
            name: "one child relation twice under aliases",
            target: "space?select=id,zones:zone(id,name),stores:zone(id,name)&zones.zone_type_id=eq.2&stores.zone_type_id=eq.3", status: 200,
            expect: .json(
                #"[{"id":1,"zones":[{"id":1,"name":"zone 1"},{"id":2,"name":"zone 2"}],"stores":[{"id":3,"name":"store 3"},{"id":4,"name":"store 4"}]}]"#)),
        Case(
            name: "one m2m relation twice under aliases",
            target: "users?select=id,designTasks:tasks(id,name),codeTasks:tasks(id,name)&designTasks.name=like.*Design*&codeTasks.name=like.*Code*",
            status: 200,
            expect: .json(
                #"[{"id":1,"designTasks":[{"id":1,"name":"Design w7"},{"id":3,"name":"Design w10"}],"codeTasks":[{"id":2,"name":"Code w7"},{"id":4,"name":"Code w10"}]},{"id":2,"designTasks":[{"id":5,"name":"Design IOS"},{"id":7,"name":"Design OSX"}],"codeTasks":[{"id":6,"name":"Code IOS"}]},{"id":3,"designTasks":[{"id":1,"name":"Design w7"},{"id":5,"name":"Design IOS"}],"codeTasks":[]}]"#
            )),
        Case(
            name: "aliased child with a nested filtered m2m",
            target: "projects?select=id,name,designTasks:tasks(name,users(id,name))&designTasks.name=like.*Design*&designTasks.users.id=in.(1,2)", status: 200,
            expect: .json(
                #"[{"id":1,"name":"Windows 7","designTasks":[{"name":"Design w7","users":[{"id":1,"name":"Angela Martin"}]}]},{"id":2,"name":"Windows 10","designTasks":[{"name":"Design w10","users":[{"id":1,"name":"Angela Martin"}]}]},{"id":3,"name":"IOS","designTasks":[{"name":"Design IOS","users":[{"id":2,"name":"Michael Scott"}]}]},{"id":4,"name":"OSX","designTasks":[{"name":"Design OSX","users":[{"id":2,"name":"Michael Scott"}]}]},{"id":5,"name":"Orphan","designTasks":[]}]"#
            ))
    ]

    /// With aggregates off (PostgREST's default, Supabase's too).
    static let aggregateSweep: [Case] = [
        Case(
            name: "count() refused", target: "entities?select=count()", status: 400,
            expect: .json(#"{"code":"PGRST123","details":null,"hint":null,"message":"Use of aggregate functions is not allowed"}"#)),
        Case(
            name: "aliased count() refused", target: "projects?select=c:count(),client_id", status: 400,
            expect: .json(#"{"code":"PGRST123","details":null,"hint":null,"message":"Use of aggregate functions is not allowed"}"#)),
        Case(
            name: "sum() refused", target: "process_costs?select=cost.sum()", status: 400,
            expect: .json(#"{"code":"PGRST123","details":null,"hint":null,"message":"Use of aggregate functions is not allowed"}"#)),
        Case(
            name: "aggregate in an embed refused", target: "clients?select=name,projects(id.count())", status: 400,
            expect: .json(#"{"code":"PGRST123","details":null,"hint":null,"message":"Use of aggregate functions is not allowed"}"#)),
        Case(
            name: "aggregate in a to-many spread refused", target: "factories?select=...processes(id.count())", status: 400,
            expect: .json(#"{"code":"PGRST123","details":null,"hint":null,"message":"Use of aggregate functions is not allowed"}"#)),
        Case(
            name: "aggregate in a to-one spread refused", target: "processes?select=...factories(id.count())", status: 400,
            expect: .json(#"{"code":"PGRST123","details":null,"hint":null,"message":"Use of aggregate functions is not allowed"}"#)),
        // `tbl.count` is PostgreSQL's function-call notation for `count(tbl)`: it counts without aggregates on.
        Case(name: "count as a column counts", target: "entities?select=count", status: 200, expect: .json(#"[{"count":4}]"#)),
        Case(
            name: "count as an embedded column counts", target: "clients?select=name,projects(count)", status: 200,
            expect: .json(#"[{"name":"Microsoft","projects":[{"count":2}]},{"name":"Apple","projects":[{"count":2}]}]"#)),
        Case(
            name: "inner m2m drops empty arrays", target: "products?select=id,suppliers!inner(id)", status: 200,
            expect: .json(#"[{"id":1,"suppliers":[{"id":1},{"id":2}]},{"id":2,"suppliers":[{"id":1},{"id":3}]}]"#)),
        Case(
            name: "left m2m keeps empty arrays", target: "products?select=id,suppliers!left(id)", status: 200,
            expect: .json(#"[{"id":1,"suppliers":[{"id":1},{"id":2}]},{"id":2,"suppliers":[{"id":1},{"id":3}]},{"id":3,"suppliers":[]}]"#)),
        Case(
            name: "inner m2m head count", method: "HEAD", target: "products?select=id,suppliers!inner(id)", headers: ["Prefer": "count=exact"],
            status: 200, expect: .exact(""), expectHeaders: ["Content-Range": "0-1/2"]),
        Case(
            name: "inner m2m filtered", target: "products?select=id,suppliers!inner(id)&suppliers.id=eq.3", status: 200,
            expect: .json(#"[{"id":2,"suppliers":[{"id":3}]}]"#)),
        Case(name: "inner m2m filtered to none", target: "products?select=id,suppliers!inner(id)&suppliers.id=eq.0", status: 200, expect: .exact("[]")),
        Case(
            name: "inner m2m two levels", target: "products?select=id,suppliers!inner(id,trade_unions!inner(id))&suppliers.trade_unions.id=eq.4",
            status: 200, expect: .json(#"[{"id":1,"suppliers":[{"id":2,"trade_unions":[{"id":4}]}]}]"#)),
        Case(
            name: "inner m2m above a left m2m", target: "products?select=id,suppliers!inner(id,trade_unions(id))&suppliers.trade_unions.id=eq.3",
            status: 200,
            expect: .json(
                #"[{"id":1,"suppliers":[{"id":1,"trade_unions":[]},{"id":2,"trade_unions":[{"id":3}]}]},{"id":2,"suppliers":[{"id":1,"trade_unions":[]},{"id":3,"trade_unions":[]}]}]"#
            )),
        Case(
            name: "inner m2m above a left m2m head count", method: "HEAD",
            target: "products?select=id,suppliers!inner(id,trade_unions(id))&suppliers.trade_unions.id=eq.3", headers: ["Prefer": "count=exact"],
            status: 200, expect: .exact(""), expectHeaders: ["Content-Range": "0-1/2"])
    ]
}

extension PostgRESTCaseCorpusTests {
    /// A mutant that never sees `Accept` (every read answered as plain JSON) is rejected by the
    /// `nulls=stripped` cases.
    func testSweepRejectsAnEngineIgnoringAccept() throws {
        var rejected = 0
        for c in Self.onSpecTables(Self.stripSweep) {
            if try run(c, mutate: { h in HTTPHeaders(h.filter { $0.name.lowercased() != "accept" }.map { ($0.name, $0.value) }) }) != nil { rejected += 1 }
        }
        XCTAssertGreaterThan(rejected, Self.stripSweep.count / 2)
    }

    /// A case whose expected PGRST201 candidates are listed in another order than the schema
    /// cache's is reported (the details are compared, not only the status).
    func testSweepRejectsAmbiguityDetailsInAnotherOrder() throws {
        var c = try XCTUnwrap(Self.sweepReadCases.first { $0.name == "circular embed is ambiguous" })
        guard case .json(let text) = c.expect else { return XCTFail("expected a JSON body") }
        let swapped = text.replacingOccurrences(of: "one-to-many", with: "\u{1}").replacingOccurrences(of: "many-to-one", with: "one-to-many")
            .replacingOccurrences(of: "\u{1}", with: "many-to-one")
        c.expect = .json(swapped)
        XCTAssertNotNil(try run(c))
    }
}
