import XCTest
@testable import MockSupabase

/// Plain tables shaped like those PostgREST's hspec suites query (test/spec/fixtures/schema.sql
/// and data.sql: `items`, `simple_pk`, `no_pk`, `chores`, the clients → projects → tasks ↔ users
/// chain with its renamed foreign keys `client` and `project`, `complex_items` with a `json`
/// column and an integer array, `entities` → `child_entities` → `grandchild_entities`,
/// `users_projects`, `comments`, `files` and `touched_files` with their composite foreign keys,
/// `arrays` with a two-dimensional integer array, and the write suites' `tiobe_pls`, `employees`
/// (a `money` column), `single_unique`, `compound_unique`, `only_pk`, the surrogate-key upsert
/// tables, `UnitTest`, `web_content`, `artists` → `albums` (cascading), `students` ↔ `students_info`,
/// `organizations`, `timestamps`, the safe-update tables, `auto_incrementing_pk`, `insertonly`, `compound_pk_view`, `complex_items_view` (a view column default), `foo` (a stored generated column); the views `projects_view`, `projects_view_alt` (renamed keys),
/// `projects_count_grouped_by` (projects counted per client), `students_view`, `students_info_view`,
/// `player_view` and `contract_view` (a five-column compound key), `foos`/`bars` over `Foo`/`bar`,
/// `v1`/`v2` over `a`/`b` (columns in another order), `authors`, `publishers`, `books` and the
/// decade views of books over the `private` schema's tables (not exposed, as in the suite),
/// `orders_view`/`consumers_view`/`consumers_view_view` (a view over a view) over the empty
/// `public_orders`/`public_consumers`, and issue 2459's empty `i2459_simple_*`/`i2459_composite_*`
/// views showing one base column under two names),
/// written in the contract format, in the schema `test` PostgREST's suites expose (`db-schemas`),
/// so messages name it as theirs do. The rows are the suite's data, so a request the specs send
/// gets the rows PostgREST's own answer holds.
final class SpecTablesFixture {
    static let schemaJSON = #"""
        {"exposedSchemas": ["test"], "maxRows": null,
         "enums": {"enum_menagerie_type": ["foo", "bar"], "visit_type": ["vacation", "work"]},
         "domains": [
          {"name": "devil_int", "type": "integer", "default": {"value": 666}},
          {"name": "tsvector_not_null", "type": "tsvector", "check": {"notNull": {"column": "value"}}, "constraint": "tsvector is required"},
          {"name": "tsvector_not_empty", "type": "tsvector", "checks": [
            {"name": "tsvector is required", "expr": {"notNull": {"column": "value"}}},
            {"name": "tsvector is required and not empty", "expr": {"neq": [{"column": "value"}, {"value": ""}]}}]}],
         "tables": [
          {"name": "items", "columns": [{"name": "id", "type": "bigserial", "primaryKey": true}]},
          {"name": "simple_pk", "columns": [
            {"name": "k", "type": "character varying", "primaryKey": true},
            {"name": "extra", "type": "character varying", "nullable": false}]},
          {"name": "no_pk", "columns": [
            {"name": "a", "type": "character varying"},
            {"name": "b", "type": "character varying"}]},
          {"name": "nullable_integer", "columns": [{"name": "a", "type": "integer"}]},
          {"name": "chores", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"},
            {"name": "done", "type": "boolean"}]},
          {"name": "clients", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text", "nullable": false}]},
          {"name": "projects", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text", "nullable": false},
            {"name": "client_id", "type": "integer"}],
           "foreignKeys": [{"name": "client", "columns": ["client_id"], "references": {"table": "clients", "columns": ["id"]}}]},
          {"name": "tasks", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text", "nullable": false},
            {"name": "project_id", "type": "integer"}],
           "foreignKeys": [{"name": "project", "columns": ["project_id"], "references": {"table": "projects", "columns": ["id"]}}]},
          {"name": "users", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text", "nullable": false}]},
          {"name": "users_tasks", "columns": [
            {"name": "user_id", "type": "integer", "primaryKey": true},
            {"name": "task_id", "type": "integer", "primaryKey": true}],
           "foreignKeys": [
            {"name": "users_tasks_user_id_fkey", "columns": ["user_id"], "references": {"table": "users", "columns": ["id"]}},
            {"name": "users_tasks_task_id_fkey", "columns": ["task_id"], "references": {"table": "tasks", "columns": ["id"]}}]},
          {"name": "users_projects", "columns": [
            {"name": "user_id", "type": "integer", "primaryKey": true},
            {"name": "project_id", "type": "integer", "primaryKey": true}],
           "foreignKeys": [
            {"name": "users_projects_user_id_fkey", "columns": ["user_id"], "references": {"table": "users", "columns": ["id"]}},
            {"name": "users_projects_project_id_fkey", "columns": ["project_id"], "references": {"table": "projects", "columns": ["id"]}}]},
          {"name": "comments", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "commenter_id", "type": "integer", "nullable": false},
            {"name": "user_id", "type": "integer", "nullable": false},
            {"name": "task_id", "type": "integer", "nullable": false},
            {"name": "content", "type": "text", "nullable": false}],
           "foreignKeys": [
            {"name": "user", "columns": ["commenter_id"], "references": {"table": "users", "columns": ["id"]}},
            {"name": "comments_task_id_fkey", "columns": ["task_id", "user_id"], "references": {"table": "users_tasks", "columns": ["task_id", "user_id"]}}]},
          {"name": "files", "columns": [
            {"name": "project_id", "type": "integer", "primaryKey": true},
            {"name": "filename", "type": "text", "primaryKey": true},
            {"name": "content", "type": "text", "nullable": false}]},
          {"name": "touched_files", "columns": [
            {"name": "user_id", "type": "integer", "primaryKey": true},
            {"name": "task_id", "type": "integer", "primaryKey": true},
            {"name": "project_id", "type": "integer", "primaryKey": true},
            {"name": "filename", "type": "text", "primaryKey": true}],
           "foreignKeys": [
            {"name": "fk_users_tasks", "columns": ["user_id", "task_id"], "references": {"table": "users_tasks", "columns": ["user_id", "task_id"]}},
            {"name": "fk_upload", "columns": ["project_id", "filename"], "references": {"table": "files", "columns": ["project_id", "filename"]}}]},
          {"name": "complex_items", "columns": [
            {"name": "id", "type": "bigint", "nullable": false},
            {"name": "name", "type": "text"},
            {"name": "settings", "type": "json"},
            {"name": "arr_data", "type": "integer[]"},
            {"name": "field-with_sep", "type": "integer", "nullable": false, "default": {"value": 1}}]},
          {"name": "complex_items_view", "view": {"from": "complex_items"}, "columns": [
            {"name": "id", "type": "bigint"},
            {"name": "name", "type": "text", "default": {"value": "Default"}},
            {"name": "settings", "type": "json"},
            {"name": "arr_data", "type": "integer[]"},
            {"name": "field-with_sep", "type": "integer"}]},
          {"name": "w_or_wo_comma_names", "columns": [{"name": "name", "type": "text"}]},
          {"name": "articles", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "body", "type": "text"},
            {"name": "owner", "type": "text", "nullable": false, "default": {"value": "postgrest_test_anonymous"}}]},
          {"name": "entities", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"},
            {"name": "arr", "type": "integer[]"},
            {"name": "text_search_vector", "type": "tsvector"}]},
          {"name": "child_entities", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"},
            {"name": "parent_id", "type": "integer"}],
           "foreignKeys": [{"name": "child_entities_parent_id_fkey", "columns": ["parent_id"], "references": {"table": "entities", "columns": ["id"]}}]},
          {"name": "grandchild_entities", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"},
            {"name": "parent_id", "type": "integer"},
            {"name": "or_starting_col", "type": "text"},
            {"name": "and_starting_col", "type": "text"},
            {"name": "jsonb_col", "type": "jsonb"}],
           "foreignKeys": [{"name": "grandchild_entities_parent_id_fkey", "columns": ["parent_id"], "references": {"table": "child_entities", "columns": ["id"]}}]},
          {"name": "json_arr", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "data", "type": "json"}]},
          {"name": "jsonb_test", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "data", "type": "jsonb"}]},
          {"name": "json_table", "columns": [{"name": "data", "type": "json"}]},
          {"name": "arrays", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "numbers", "type": "integer[]"},
            {"name": "numbers_mult", "type": "integer[][]"}]},
          {"name": "empty_string", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "string", "type": "text"}]},
          {"name": "big_projects", "columns": [
            {"name": "big_project_id", "type": "serial", "primaryKey": true},
            {"name": "name", "type": "text"}]},
          {"name": "sites", "columns": [
            {"name": "site_id", "type": "serial", "primaryKey": true},
            {"name": "name", "type": "text"},
            {"name": "main_project_id", "type": "integer"}],
           "foreignKeys": [{"name": "main_project", "columns": ["main_project_id"], "references": {"table": "big_projects", "columns": ["big_project_id"]}}]},
          {"name": "jobs", "columns": [
            {"name": "job_id", "type": "uuid", "primaryKey": true},
            {"name": "name", "type": "text"},
            {"name": "site_id", "type": "integer", "primaryKey": true},
            {"name": "big_project_id", "type": "integer", "primaryKey": true}],
           "foreignKeys": [
            {"columns": ["site_id"], "references": {"table": "sites", "columns": ["site_id"]}},
            {"columns": ["big_project_id"], "references": {"table": "big_projects", "columns": ["big_project_id"]}}]},
          {"name": "main_jobs", "view": {"from": "jobs", "where": {"exists": {"table": "sites", "where": {"all": [
            {"eq": [{"column": "site_id"}, {"outer": "site_id"}]}, {"notNull": {"column": "main_project_id"}}]}}}}, "columns": [
            {"name": "job_id", "type": "uuid"},
            {"name": "name", "type": "text"},
            {"name": "site_id", "type": "integer"},
            {"name": "big_project_id", "type": "integer"}]},
          {"name": "projects_view", "view": {"from": "projects"}, "columns": [
            {"name": "id", "type": "integer"},
            {"name": "name", "type": "text"},
            {"name": "client_id", "type": "integer"}]},
          {"name": "projects_view_alt", "view": {"from": "projects", "renamed": {"t_id": "id", "t_client_id": "client_id"}}, "columns": [
            {"name": "t_id", "type": "integer"},
            {"name": "name", "type": "text"},
            {"name": "t_client_id", "type": "integer"}]},
          {"name": "projects_count_grouped_by", "view": {"from": "projects", "groupBy": ["client_id"], "counts": {"number_of_projects": "id"}}, "columns": [
            {"name": "client_id", "type": "integer"},
            {"name": "number_of_projects", "type": "bigint"}]},
          {"name": "students_view", "view": {"from": "students"}, "columns": [
            {"name": "id", "type": "integer"},
            {"name": "code", "type": "text"},
            {"name": "name", "type": "text"}]},
          {"name": "students_info_view", "view": {"from": "students_info"}, "columns": [
            {"name": "id", "type": "integer"},
            {"name": "code", "type": "text"},
            {"name": "address", "type": "text"}]},
          {"name": "player", "columns": [
            {"name": "id", "type": "integer", "nullable": false},
            {"name": "first_name", "type": "text", "nullable": false},
            {"name": "last_name", "type": "text", "nullable": false},
            {"name": "birth_date", "type": "date"}],
           "primaryKey": ["last_name", "id", "first_name", "birth_date"]},
          {"name": "contract", "columns": [
            {"name": "tournament", "type": "text", "nullable": false},
            {"name": "time", "type": "tsrange", "nullable": false},
            {"name": "purchase_price", "type": "integer", "nullable": false},
            {"name": "id", "type": "integer", "nullable": false},
            {"name": "first_name", "type": "text", "nullable": false},
            {"name": "last_name", "type": "text", "nullable": false},
            {"name": "birth_date", "type": "date"}],
           "foreignKeys": [{"columns": ["last_name", "id", "first_name", "birth_date"], "references": {"table": "player", "columns": ["last_name", "id", "first_name", "birth_date"]}}]},
          {"name": "player_view", "view": {"from": "player"}, "columns": [
            {"name": "id", "type": "integer"},
            {"name": "first_name", "type": "text"},
            {"name": "last_name", "type": "text"},
            {"name": "birth_date", "type": "date"}]},
          {"name": "contract_view", "view": {"from": "contract"}, "columns": [
            {"name": "tournament", "type": "text"},
            {"name": "time", "type": "tsrange"},
            {"name": "purchase_price", "type": "integer"},
            {"name": "id", "type": "integer"},
            {"name": "first_name", "type": "text"},
            {"name": "last_name", "type": "text"},
            {"name": "birth_date", "type": "date"}]},
          {"name": "Foo", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"}]},
          {"name": "bar", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"},
            {"name": "fooId", "type": "integer"}],
           "foreignKeys": [{"columns": ["fooId"], "references": {"table": "Foo", "columns": ["id"]}}]},
          {"name": "foos", "view": {"from": "Foo"}, "columns": [
            {"name": "id", "type": "integer"},
            {"name": "name", "type": "text"}]},
          {"name": "bars", "view": {"from": "bar"}, "columns": [
            {"name": "id", "type": "integer"},
            {"name": "fooId", "type": "integer"},
            {"name": "name", "type": "text"}]},
          {"name": "a", "columns": [
            {"name": "c1", "type": "integer", "primaryKey": true},
            {"name": "c2", "type": "boolean", "primaryKey": true}]},
          {"name": "b", "columns": [
            {"name": "c2", "type": "boolean"},
            {"name": "c1", "type": "integer"}],
           "foreignKeys": [{"columns": ["c1", "c2"], "references": {"table": "a", "columns": ["c1", "c2"]}}]},
          {"name": "v1", "view": {"from": "a"}, "columns": [
            {"name": "c1", "type": "integer"},
            {"name": "c2", "type": "boolean"}]},
          {"name": "v2", "view": {"from": "b"}, "columns": [
            {"name": "c2", "type": "boolean"},
            {"name": "c1", "type": "integer"}]},
          {"name": "authors", "schema": "private", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"}]},
          {"name": "publishers", "schema": "private", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"}]},
          {"name": "books", "schema": "private", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "title", "type": "text"},
            {"name": "publication_year", "type": "smallint"},
            {"name": "author_id", "type": "integer"},
            {"name": "first_publisher_id", "type": "integer"}],
           "foreignKeys": [
            {"columns": ["author_id"], "references": {"table": "private.authors", "columns": ["id"]}},
            {"columns": ["first_publisher_id"], "references": {"table": "private.publishers", "columns": ["id"]}}]},
          {"name": "authors", "view": {"from": "private.authors"}, "columns": [
            {"name": "id", "type": "integer"},
            {"name": "name", "type": "text"}]},
          {"name": "publishers", "view": {"from": "private.publishers"}, "columns": [
            {"name": "id", "type": "integer"},
            {"name": "name", "type": "text"}]},
          {"name": "books", "view": {"from": "private.books"}, "columns": [
            {"name": "id", "type": "integer"},
            {"name": "title", "type": "text"},
            {"name": "publication_year", "type": "smallint"},
            {"name": "author_id", "type": "integer"},
            {"name": "first_publisher_id", "type": "integer"}]},
          {"name": "forties_books", "view": {"from": "private.books", "where": {"all": [
            {"gte": [{"column": "publication_year"}, 1940]}, {"lt": [{"column": "publication_year"}, 1950]}]}}, "columns": [
            {"name": "id", "type": "integer"},
            {"name": "title", "type": "text"},
            {"name": "publication_year", "type": "smallint"},
            {"name": "author_id", "type": "integer"}]},
          {"name": "fifties_books", "view": {"from": "private.books", "where": {"all": [
            {"gte": [{"column": "publication_year"}, 1950]}, {"lt": [{"column": "publication_year"}, 1960]}]}}, "columns": [
            {"name": "id", "type": "integer"},
            {"name": "title", "type": "text"},
            {"name": "publication_year", "type": "smallint"},
            {"name": "author_id", "type": "integer"}]},
          {"name": "sixties_books", "view": {"from": "private.books", "where": {"all": [
            {"gte": [{"column": "publication_year"}, 1960]}, {"lt": [{"column": "publication_year"}, 1970]}]}}, "columns": [
            {"name": "id", "type": "integer"},
            {"name": "title", "type": "text"},
            {"name": "publication_year", "type": "smallint"},
            {"name": "author_id", "type": "integer"}]},
          {"name": "article_stars", "schema": "private", "columns": [
            {"name": "article_id", "type": "integer", "primaryKey": true},
            {"name": "user_id", "type": "integer", "primaryKey": true},
            {"name": "created_at", "type": "timestamp", "nullable": false, "default": {"fn": "now()"}}],
           "foreignKeys": [
            {"name": "article", "columns": ["article_id"], "references": {"table": "articles", "columns": ["id"]}},
            {"name": "user", "columns": ["user_id"], "references": {"table": "users", "columns": ["id"]}}]},
          {"name": "articleStars", "view": {"from": "private.article_stars", "renamed": {"articleId": "article_id", "userId": "user_id", "createdAt": "created_at"}},
           "columns": [
            {"name": "articleId", "type": "integer"},
            {"name": "userId", "type": "integer"},
            {"name": "createdAt", "type": "timestamp"}]},
          {"name": "pages", "schema": "private", "columns": [
            {"name": "link", "type": "integer", "nullable": false},
            {"name": "url", "type": "text"}],
           "unique": [["link"]]},
          {"name": "referrals", "schema": "private", "columns": [
            {"name": "site", "type": "text"},
            {"name": "link", "type": "integer", "nullable": false}],
           "foreignKeys": [{"columns": ["link"], "references": {"table": "private.pages", "columns": ["link"]}}]},
          {"name": "pages", "view": {"from": "private.pages"}, "columns": [
            {"name": "link", "type": "integer"},
            {"name": "url", "type": "text"}]},
          {"name": "referrals", "view": {"from": "private.referrals"}, "columns": [
            {"name": "site", "type": "text"},
            {"name": "link", "type": "integer"}]},
          {"name": "public_consumers", "columns": [
            {"name": "id", "type": "serial", "primaryKey": true},
            {"name": "name", "type": "text", "nullable": false}]},
          {"name": "public_orders", "columns": [
            {"name": "id", "type": "serial", "primaryKey": true},
            {"name": "consumer", "type": "integer", "nullable": false},
            {"name": "number", "type": "integer", "nullable": false}],
           "foreignKeys": [{"columns": ["consumer"], "references": {"table": "public_consumers", "columns": ["id"]}}]},
          {"name": "orders_view", "view": {"from": "public_orders"}, "columns": [
            {"name": "id", "type": "integer"},
            {"name": "consumer", "type": "integer"},
            {"name": "number", "type": "integer"}]},
          {"name": "consumers_view", "view": {"from": "public_consumers"}, "columns": [
            {"name": "id", "type": "integer"},
            {"name": "name", "type": "text"}]},
          {"name": "consumers_view_view", "view": {"from": "consumers_view"}, "columns": [
            {"name": "id", "type": "integer"},
            {"name": "name", "type": "text"}]},
          {"name": "i2459_simple_t1", "columns": [{"name": "id", "type": "integer", "primaryKey": true}]},
          {"name": "i2459_simple_t2", "columns": [{"name": "t1_id", "type": "integer"}],
           "foreignKeys": [{"columns": ["t1_id"], "references": {"table": "i2459_simple_t1", "columns": ["id"]}}]},
          {"name": "i2459_simple_v1", "view": {"from": "i2459_simple_t1"}, "columns": [{"name": "id", "type": "integer"}]},
          {"name": "i2459_simple_v2", "view": {"from": "i2459_simple_t2", "renamed": {"t1_id1": "t1_id", "t1_id2": "t1_id"}}, "columns": [
            {"name": "t1_id1", "type": "integer"},
            {"name": "t1_id2", "type": "integer"}]},
          {"name": "i2459_composite_t1", "columns": [
            {"name": "a", "type": "integer", "primaryKey": true},
            {"name": "b", "type": "integer", "primaryKey": true}]},
          {"name": "i2459_composite_t2", "columns": [
            {"name": "t1_a", "type": "integer"},
            {"name": "t1_b", "type": "integer"}],
           "foreignKeys": [{"name": "i2459_composite_t2_t1_a_t1_b_fkey", "columns": ["t1_a", "t1_b"], "references": {"table": "i2459_composite_t1", "columns": ["a", "b"]}}]},
          {"name": "i2459_composite_v1", "view": {"from": "i2459_composite_t1"}, "columns": [
            {"name": "a", "type": "integer"},
            {"name": "b", "type": "integer"}]},
          {"name": "i2459_composite_v2", "view": {"from": "i2459_composite_t2", "renamed": {"t1_a1": "t1_a", "t1_b1": "t1_b", "t1_a2": "t1_a", "t1_b2": "t1_b"}}, "columns": [
            {"name": "t1_a1", "type": "integer"},
            {"name": "t1_b1", "type": "integer"},
            {"name": "t1_a2", "type": "integer"},
            {"name": "t1_b2", "type": "integer"}]},
          {"name": "whatev_projects", "columns": [
            {"name": "id", "type": "serial", "primaryKey": true},
            {"name": "name", "type": "text"}]},
          {"name": "whatev_sites", "columns": [
            {"name": "id", "type": "serial", "primaryKey": true},
            {"name": "name", "type": "text"}]},
          {"name": "whatev_jobs", "columns": [
            {"name": "job_id", "type": "uuid", "primaryKey": true},
            {"name": "name", "type": "text"},
            {"name": "site_id_1", "type": "integer", "primaryKey": true},
            {"name": "project_id_1", "type": "integer", "primaryKey": true},
            {"name": "site_id_2", "type": "integer", "primaryKey": true},
            {"name": "project_id_2", "type": "integer", "primaryKey": true}],
           "foreignKeys": [
            {"columns": ["site_id_1"], "references": {"table": "whatev_sites", "columns": ["id"]}},
            {"columns": ["project_id_1"], "references": {"table": "whatev_projects", "columns": ["id"]}},
            {"columns": ["site_id_2"], "references": {"table": "whatev_sites", "columns": ["id"]}},
            {"columns": ["project_id_2"], "references": {"table": "whatev_projects", "columns": ["id"]}}]},
          {"name": "agents", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"},
            {"name": "department_id", "type": "integer"}],
           "foreignKeys": [{"name": "agents_department_id_fkey", "columns": ["department_id"], "references": {"table": "departments", "columns": ["id"]}}]},
          {"name": "departments", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"},
            {"name": "head_id", "type": "integer"}],
           "foreignKeys": [{"columns": ["head_id"], "references": {"table": "agents", "columns": ["id"]}}]},
          {"name": "second", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"}]},
          {"name": "first", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"},
            {"name": "second_id_1", "type": "integer"},
            {"name": "second_id_2", "type": "integer"}],
           "unique": [["second_id_1"], ["second_id_2"]],
           "foreignKeys": [
            {"columns": ["second_id_1"], "references": {"table": "second", "columns": ["id"]}},
            {"columns": ["second_id_2"], "references": {"table": "second", "columns": ["id"]}}]},
          {"name": "addresses", "columns": [
            {"name": "id", "type": "integer", "nullable": false},
            {"name": "address", "type": "text", "nullable": false}],
           "unique": [["id"]]},
          {"name": "orders", "columns": [
            {"name": "id", "type": "integer", "nullable": false},
            {"name": "name", "type": "text", "nullable": false},
            {"name": "billing_address_id", "type": "integer"},
            {"name": "shipping_address_id", "type": "integer"}],
           "unique": [["id"]],
           "foreignKeys": [
            {"name": "billing", "columns": ["billing_address_id"], "references": {"table": "addresses", "columns": ["id"]}},
            {"name": "shipping", "columns": ["shipping_address_id"], "references": {"table": "addresses", "columns": ["id"]}}]},
          {"name": "person", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "character varying", "nullable": false}]},
          {"name": "message", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "body", "type": "text", "nullable": false, "default": {"value": ""}},
            {"name": "sender", "type": "bigint", "nullable": false},
            {"name": "recipient", "type": "bigint", "nullable": false}],
           "foreignKeys": [
            {"columns": ["sender"], "references": {"table": "person", "columns": ["id"]}},
            {"columns": ["recipient"], "references": {"table": "person", "columns": ["id"]}}]},
          {"name": "family_tree", "columns": [
            {"name": "id", "type": "text", "primaryKey": true},
            {"name": "name", "type": "text", "nullable": false},
            {"name": "parent", "type": "text"}],
           "foreignKeys": [{"name": "pptr", "columns": ["parent"], "references": {"table": "family_tree", "columns": ["id"]}}]},
          {"name": "managers", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"}]},
          {"name": "tiobe_pls", "columns": [
            {"name": "name", "type": "text", "primaryKey": true},
            {"name": "rank", "type": "smallint"}]},
          {"name": "employees", "columns": [
            {"name": "first_name", "type": "text", "primaryKey": true},
            {"name": "last_name", "type": "text", "primaryKey": true},
            {"name": "salary", "type": "money"},
            {"name": "company", "type": "text"},
            {"name": "occupation", "type": "text"}]},
          {"name": "single_unique", "columns": [
            {"name": "unique_key", "type": "integer", "nullable": false},
            {"name": "value", "type": "text"}], "unique": [["unique_key"]]},
          {"name": "compound_unique", "columns": [
            {"name": "key1", "type": "integer", "nullable": false},
            {"name": "key2", "type": "integer", "nullable": false},
            {"name": "value", "type": "text"}], "unique": [["key1", "key2"]]},
          {"name": "only_pk", "columns": [{"name": "id", "type": "integer", "primaryKey": true}]},
          {"name": "surr_serial_upsert", "columns": [
            {"name": "id", "type": "serial", "primaryKey": true},
            {"name": "name", "type": "text"},
            {"name": "extra", "type": "text"}]},
          {"name": "surr_gen_default_upsert", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true, "identity": "by default"},
            {"name": "name", "type": "text"},
            {"name": "extra", "type": "text"}]},
          {"name": "Surr_Gen_Default_Upsert", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true, "identity": "by default"},
            {"name": "name", "type": "text"},
            {"name": "extra", "type": "text"}]},
          {"name": "UnitTest", "columns": [
            {"name": "idUnitTest", "type": "integer", "primaryKey": true},
            {"name": "nameUnitTest", "type": "text"}]},
          {"name": "web_content", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"},
            {"name": "p_web_id", "type": "integer"}],
           "foreignKeys": [{"columns": ["p_web_id"], "references": {"table": "web_content", "columns": ["id"]}}]},
          {"name": "artists", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"}]},
          {"name": "albums", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "title", "type": "text"},
            {"name": "artist_id", "type": "integer"}],
           "foreignKeys": [{"name": "fk_artist", "columns": ["artist_id"], "references": {"table": "artists", "columns": ["id"]}, "onDelete": "cascade"}]},
          {"name": "students", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "code", "type": "text", "primaryKey": true},
            {"name": "name", "type": "text"}]},
          {"name": "students_info", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "code", "type": "text", "primaryKey": true},
            {"name": "address", "type": "text"}],
           "foreignKeys": [{"columns": ["code", "id"], "references": {"table": "students", "columns": ["code", "id"]}, "onDelete": "cascade"}]},
          {"name": "organizations", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"},
            {"name": "referee", "type": "integer"},
            {"name": "auditor", "type": "integer"},
            {"name": "manager_id", "type": "integer"}],
           "foreignKeys": [
            {"columns": ["referee"], "references": {"table": "organizations", "columns": ["id"]}},
            {"columns": ["auditor"], "references": {"table": "organizations", "columns": ["id"]}},
            {"name": "manager", "columns": ["manager_id"], "references": {"table": "managers", "columns": ["id"]}}]},
          {"name": "posters", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"}]},
          {"name": "subscriptions", "columns": [
            {"name": "subscriber", "type": "integer", "primaryKey": true},
            {"name": "subscribed", "type": "integer", "primaryKey": true}],
           "foreignKeys": [
            {"columns": ["subscriber"], "references": {"table": "posters", "columns": ["id"]}},
            {"columns": ["subscribed"], "references": {"table": "posters", "columns": ["id"]}}]},
          {"name": "test", "columns": [
            {"name": "id", "type": "bigint", "primaryKey": true},
            {"name": "parent_id", "type": "bigint"}],
           "foreignKeys": [{"name": "parent_test", "columns": ["parent_id"], "references": {"table": "test", "columns": ["id"]}}]},
          {"name": "country", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"}]},
          {"name": "capital", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"},
            {"name": "country_id", "type": "integer"}],
           "unique": [["country_id"]],
           "foreignKeys": [{"columns": ["country_id"], "references": {"table": "country", "columns": ["id"]}}]},
          {"name": "factories", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"}]},
          {"name": "process_categories", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"}]},
          {"name": "processes", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"},
            {"name": "factory_id", "type": "integer"},
            {"name": "category_id", "type": "integer"}],
           "foreignKeys": [
            {"columns": ["factory_id"], "references": {"table": "factories", "columns": ["id"]}},
            {"columns": ["category_id"], "references": {"table": "process_categories", "columns": ["id"]}}]},
          {"name": "process_costs", "columns": [
            {"name": "process_id", "type": "integer", "primaryKey": true},
            {"name": "cost", "type": "numeric"}],
           "foreignKeys": [{"columns": ["process_id"], "references": {"table": "processes", "columns": ["id"]}}]},
          {"name": "supervisors", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"}]},
          {"name": "process_supervisor", "columns": [
            {"name": "process_id", "type": "integer", "primaryKey": true},
            {"name": "supervisor_id", "type": "integer", "primaryKey": true}],
           "foreignKeys": [
            {"columns": ["process_id"], "references": {"table": "processes", "columns": ["id"]}},
            {"columns": ["supervisor_id"], "references": {"table": "supervisors", "columns": ["id"]}}]},
          {"name": "operators", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"},
            {"name": "status", "type": "jsonb"}]},
          {"name": "process_operator", "columns": [
            {"name": "process_id", "type": "integer", "primaryKey": true},
            {"name": "operator_id", "type": "integer", "primaryKey": true}],
           "foreignKeys": [
            {"columns": ["process_id"], "references": {"table": "processes", "columns": ["id"]}},
            {"columns": ["operator_id"], "references": {"table": "operators", "columns": ["id"]}}]},
          {"name": "factory_buildings", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "code", "type": "char(4)"},
            {"name": "size", "type": "numeric"},
            {"name": "type", "type": "char(1)"},
            {"name": "factory_id", "type": "integer"},
            {"name": "inspections", "type": "jsonb"}],
           "foreignKeys": [{"columns": ["factory_id"], "references": {"table": "factories", "columns": ["id"]}}]},
          {"name": "budget_categories", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "category_name", "type": "text"},
            {"name": "budget_owner", "type": "text"},
            {"name": "budget_amount", "type": "numeric"}]},
          {"name": "budget_expenses", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "expense_amount", "type": "numeric"},
            {"name": "budget_category_id", "type": "integer"}],
           "foreignKeys": [{"columns": ["budget_category_id"], "references": {"table": "budget_categories", "columns": ["id"]}}]},
          {"name": "client", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"}]},
          {"name": "contact", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"},
            {"name": "clientid", "type": "integer"}],
           "foreignKeys": [{"columns": ["clientid"], "references": {"table": "client", "columns": ["id"]}}]},
          {"name": "clientinfo", "columns": [
            {"name": "id", "type": "serial", "primaryKey": true},
            {"name": "clientid", "type": "integer"},
            {"name": "other", "type": "text"}],
           "foreignKeys": [{"columns": ["clientid"], "references": {"table": "client", "columns": ["id"]}}]},
          {"name": "table_a", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"}]},
          {"name": "table_b", "columns": [
            {"name": "table_a_id", "type": "integer"},
            {"name": "name", "type": "text"}],
           "foreignKeys": [{"columns": ["table_a_id"], "references": {"table": "table_a", "columns": ["id"]}}]},
          {"name": "trash", "columns": [{"name": "id", "type": "integer", "primaryKey": true}]},
          {"name": "موارد", "columns": [{"name": "هویت", "type": "integer"}]},
          {"name": "Escap3e;", "columns": [{"name": "so6meIdColumn", "type": "integer", "primaryKey": true}]},
          {"name": "ghostBusters", "columns": [{"name": "escapeId", "type": "integer", "nullable": false}],
           "foreignKeys": [{"columns": ["escapeId"], "references": {"table": "Escap3e;", "columns": ["so6meIdColumn"]}}]},
          {"name": "clashing_column", "columns": [{"name": "t", "type": "text"}]},
          {"name": "products", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"}]},
          {"name": "suppliers", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"}]},
          {"name": "products_suppliers", "columns": [
            {"name": "product_id", "type": "integer", "primaryKey": true},
            {"name": "supplier_id", "type": "integer", "primaryKey": true}],
           "foreignKeys": [
            {"columns": ["product_id"], "references": {"table": "products", "columns": ["id"]}},
            {"columns": ["supplier_id"], "references": {"table": "suppliers", "columns": ["id"]}}]},
          {"name": "trade_unions", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"}]},
          {"name": "suppliers_trade_unions", "columns": [
            {"name": "supplier_id", "type": "integer", "primaryKey": true},
            {"name": "trade_union_id", "type": "integer", "primaryKey": true}],
           "foreignKeys": [
            {"columns": ["supplier_id"], "references": {"table": "suppliers", "columns": ["id"]}},
            {"columns": ["trade_union_id"], "references": {"table": "trade_unions", "columns": ["id"]}}]},
          {"name": "space", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"}]},
          {"name": "zone", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"},
            {"name": "zone_type_id", "type": "integer"},
            {"name": "space_id", "type": "integer"}],
           "foreignKeys": [{"columns": ["space_id"], "references": {"table": "space", "columns": ["id"]}}]},
          {"name": "pgrst_reserved_chars", "columns": [
            {"name": "*id*", "type": "integer"},
            {"name": ":arr->ow::cast", "type": "text"},
            {"name": "(inside,parens)", "type": "text"},
            {"name": "a.dotted.column", "type": "text"},
            {"name": "  col  w  space  ", "type": "text"}]},
          {"name": "Server Today", "columns": [
            {"name": "cHostname", "type": "text"},
            {"name": "Just A Server Model", "type": "text"}]},
          {"name": "do$llar$s", "columns": [{"name": "a$num$", "type": "numeric"}]},
          {"name": "trash_details", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "jsonb_col", "type": "jsonb"}],
           "foreignKeys": [{"columns": ["id"], "references": {"table": "trash", "columns": ["id"]}}]},
          {"name": "menagerie", "columns": [
            {"name": "integer", "type": "integer", "nullable": false},
            {"name": "double", "type": "double precision", "nullable": false},
            {"name": "varchar", "type": "character varying", "nullable": false},
            {"name": "boolean", "type": "boolean", "nullable": false},
            {"name": "date", "type": "date", "nullable": false},
            {"name": "money", "type": "money", "nullable": false},
            {"name": "enum", "type": "enum_menagerie_type", "nullable": false}]},
          {"name": "compound_pk", "columns": [
            {"name": "k1", "type": "integer", "primaryKey": true},
            {"name": "k2", "type": "text", "primaryKey": true},
            {"name": "extra", "type": "integer"}]},
          {"name": "tbl_w_json", "columns": [
            {"name": "id", "type": "integer"},
            {"name": "data", "type": "json"}]},
          {"name": "project_invoices", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "invoice_total", "type": "numeric"},
            {"name": "project_id", "type": "integer"}],
           "foreignKeys": [{"columns": ["project_id"], "references": {"table": "projects", "columns": ["id"]}}]},
          {"name": "timestamps", "columns": [{"name": "t", "type": "timestamptz"}]},
          {"name": "unsafe_update_items", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"},
            {"name": "observation", "type": "text"}]},
          {"name": "safe_update_items", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"},
            {"name": "observation", "type": "text"}]},
          {"name": "safe_delete_items", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"},
            {"name": "observation", "type": "text"}]},
          {"name": "unsafe_delete_items", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"},
            {"name": "observation", "type": "text"}]},
          {"name": "tsearch", "columns": [{"name": "text_search_vector", "type": "tsvector"}]},
          {"name": "tsearch_to_tsvector", "columns": [
            {"name": "text_search", "type": "text"},
            {"name": "jsonb_search", "type": "jsonb"},
            {"name": "text_search_domain", "type": "tsvector_not_null", "default": {"value": ""}},
            {"name": "text_search_rec_domain", "type": "tsvector_not_empty", "default": {"value": "."}}]},
          {"name": "ranges", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "range", "type": "numrange"}]},
          {"name": "items_with_different_col_types", "columns": [
            {"name": "int_data", "type": "integer"},
            {"name": "text_data", "type": "text"},
            {"name": "bool_data", "type": "boolean"},
            {"name": "bin_data", "type": "bytea"},
            {"name": "char_data", "type": "character varying"},
            {"name": "date_data", "type": "date"},
            {"name": "real_data", "type": "real"},
            {"name": "time_data", "type": "time"}]},
          {"name": "app_users", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "email", "type": "text", "nullable": false},
            {"name": "password", "type": "text", "nullable": false}],
           "unique": [["email"]]},
          {"name": "car_brands", "columns": [{"name": "name", "type": "varchar(64)", "primaryKey": true}]},
          {"name": "car_models", "columns": [
            {"name": "name", "type": "varchar(64)", "primaryKey": true},
            {"name": "year", "type": "integer", "primaryKey": true},
            {"name": "car_brand_name", "type": "varchar(64)"}],
           "foreignKeys": [{"columns": ["car_brand_name"], "references": {"table": "car_brands", "columns": ["name"]}}]},
          {"name": "car_model_sales", "columns": [
            {"name": "date", "type": "varchar(64)", "primaryKey": true},
            {"name": "quantity", "type": "integer", "nullable": false},
            {"name": "car_model_name", "type": "varchar(64)", "primaryKey": true},
            {"name": "car_model_year", "type": "integer", "primaryKey": true}],
           "foreignKeys": [{"columns": ["car_model_name", "car_model_year"], "references": {"table": "car_models", "columns": ["name", "year"]}}]},
          {"name": "car_racers", "columns": [
            {"name": "name", "type": "varchar(64)", "primaryKey": true},
            {"name": "car_model_name", "type": "varchar(64)"},
            {"name": "car_model_year", "type": "integer"}],
           "foreignKeys": [{"columns": ["car_model_name", "car_model_year"], "references": {"table": "car_models", "columns": ["name", "year"]}}]},
          {"name": "car_dealers", "columns": [
            {"name": "name", "type": "varchar(64)", "primaryKey": true},
            {"name": "city", "type": "varchar(64)", "primaryKey": true}]},
          {"name": "car_models_car_dealers", "columns": [
            {"name": "car_model_name", "type": "varchar(64)", "primaryKey": true},
            {"name": "car_model_year", "type": "integer", "primaryKey": true},
            {"name": "car_dealer_name", "type": "varchar(64)", "primaryKey": true},
            {"name": "car_dealer_city", "type": "varchar(64)", "primaryKey": true},
            {"name": "quantity", "type": "integer", "primaryKey": true}],
           "foreignKeys": [
            {"columns": ["car_model_name", "car_model_year"], "references": {"table": "car_models", "columns": ["name", "year"]}},
            {"columns": ["car_dealer_name", "car_dealer_city"], "references": {"table": "car_dealers", "columns": ["name", "city"]}}]},
          {"name": "being", "columns": [{"name": "being", "type": "integer", "primaryKey": true}]},
          {"name": "descendant", "columns": [
            {"name": "descendant", "type": "integer", "primaryKey": true},
            {"name": "being", "type": "integer"}],
           "foreignKeys": [{"columns": ["being"], "references": {"table": "being", "columns": ["being"]}}]},
          {"name": "part", "columns": [{"name": "part", "type": "integer", "primaryKey": true}]},
          {"name": "being_part", "columns": [
            {"name": "being", "type": "integer", "primaryKey": true},
            {"name": "part", "type": "integer", "primaryKey": true}],
           "foreignKeys": [
            {"columns": ["being"], "references": {"table": "being", "columns": ["being"]}},
            {"columns": ["part"], "references": {"table": "part", "columns": ["part"]}}]},
          {"name": "withUnique", "columns": [
            {"name": "uni", "type": "text"},
            {"name": "extra", "type": "text"}], "unique": [["uni"]]},
          {"name": "simple_pk2", "columns": [
            {"name": "k", "type": "character varying", "primaryKey": true},
            {"name": "extra", "type": "character varying", "nullable": false}]},
          {"name": "empty_table", "columns": [
            {"name": "k", "type": "character varying", "nullable": false},
            {"name": "extra", "type": "character varying", "nullable": false}]},
          {"name": "places", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true, "identity": "always"},
            {"name": "name", "type": "text", "nullable": false}]},
          {"name": "visits", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true, "identity": "always"},
            {"name": "place_id", "type": "integer", "nullable": false},
            {"name": "start_time", "type": "timestamp"},
            {"name": "end_time", "type": "timestamp"},
            {"name": "visit_type", "type": "visit_type"}],
           "foreignKeys": [{"columns": ["place_id"], "references": {"table": "places", "columns": ["id"]}}]},
          {"name": "has_count_column", "columns": [{"name": "count", "type": "integer"}],
           "decision": "PostgREST's fixture is the view `SELECT 1 AS count`: a table holding its one row reads the same."},
          {"name": "plate", "columns": [{"name": "plate_id", "type": "integer", "primaryKey": true}]},
          {"name": "well", "columns": [
            {"name": "well_id", "type": "integer", "primaryKey": true},
            {"name": "plate_id", "type": "integer", "nullable": false},
            {"name": "parent_well_id", "type": "integer"}],
           "foreignKeys": [
            {"name": "well_parent_well_id_fkey", "columns": ["parent_well_id"], "references": {"table": "well", "columns": ["well_id"]}},
            {"name": "well_plate_id_fkey", "columns": ["plate_id"], "references": {"table": "plate", "columns": ["plate_id"]}}]},
          {"name": "profiles", "columns": [
            {"name": "id", "type": "uuid", "primaryKey": true},
            {"name": "username", "type": "text"}]},
          {"name": "user_friend", "columns": [
            {"name": "id", "type": "bigint", "primaryKey": true},
            {"name": "user1", "type": "uuid"},
            {"name": "user2", "type": "uuid"}],
           "foreignKeys": [
            {"columns": ["user1"], "references": {"table": "profiles", "columns": ["id"]}},
            {"columns": ["user2"], "references": {"table": "profiles", "columns": ["id"]}}]},
          {"name": "status", "columns": [{"name": "id", "type": "bigint", "primaryKey": true}]},
          {"name": "tournaments", "columns": [
            {"name": "id", "type": "bigint", "primaryKey": true},
            {"name": "status", "type": "bigint"}],
           "foreignKeys": [{"columns": ["status"], "references": {"table": "status", "columns": ["id"]}}]},
          {"name": "channels", "columns": [
            {"name": "id", "type": "bigint", "primaryKey": true, "identity": "by default"},
            {"name": "data", "type": "jsonb", "default": {"value": {"foo": "bar"}}},
            {"name": "slug", "type": "text"}]},
          {"name": "evil_friends", "columns": [{"name": "id", "type": "devil_int"}, {"name": "name", "type": "text"}]},
          {"name": "evil_friends_with_column_default", "columns": [
            {"name": "id", "type": "devil_int", "default": {"value": 420}},
            {"name": "name", "type": "text"}]},
          {"name": "compound_pk_view", "view": {"from": "compound_pk"}, "columns": [
            {"name": "k1", "type": "integer"}, {"name": "k2", "type": "text"}, {"name": "extra", "type": "integer"}]},
          {"name": "insertonly", "columns": [{"name": "v", "type": "text", "nullable": false}]},
          {"name": "auto_incrementing_pk", "columns": [
            {"name": "id", "type": "serial", "primaryKey": true},
            {"name": "nullable_string", "type": "character varying"},
            {"name": "non_nullable_string", "type": "character varying", "nullable": false},
            {"name": "inserted_at", "type": "timestamptz", "default": {"fn": "now()"}}]},
          {"name": "foo", "columns": [
            {"name": "a", "type": "text"},
            {"name": "b", "type": "text", "generated": {"case": [
              {"when": {"eq": [{"column": "a"}, {"value": "telegram"}]}, "then": {"value": "im"}},
              {"when": {"eq": [{"column": "a"}, {"value": "proton"}]}, "then": {"value": "email"}},
              {"when": {"eq": [{"column": "a"}, {"value": "infinity"}]}, "then": {"value": "idea"}}], "else": {"value": "bad idea"}},
             "generatedSQL": "CASE WHEN (a = 'telegram'::text) THEN 'im'::text WHEN (a = 'proton'::text) THEN 'email'::text WHEN (a = 'infinity'::text) THEN 'idea'::text ELSE 'bad idea'::text END"}]},
          {"name": "schedules", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"},
            {"name": "start_at", "type": "time with time zone"},
            {"name": "end_at", "type": "time with time zone"}]},
          {"name": "activities", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "schedule_id", "type": "integer", "primaryKey": true},
            {"name": "car_id", "type": "text"},
            {"name": "camera_id", "type": "text"}],
           "foreignKeys": [{"name": "schedule", "columns": ["schedule_id"], "references": {"table": "schedules", "columns": ["id"]}}]},
          {"name": "unit_workdays", "columns": [
            {"name": "unit_id", "type": "integer", "primaryKey": true},
            {"name": "day", "type": "date", "primaryKey": true},
            {"name": "fst_shift_activity_id", "type": "integer"},
            {"name": "fst_shift_schedule_id", "type": "integer"},
            {"name": "snd_shift_activity_id", "type": "integer"},
            {"name": "snd_shift_schedule_id", "type": "integer"}],
           "foreignKeys": [
            {"name": "fst_shift", "columns": ["fst_shift_activity_id", "fst_shift_schedule_id"], "references": {"table": "activities", "columns": ["id", "schedule_id"]}},
            {"name": "snd_shift", "columns": ["snd_shift_activity_id", "snd_shift_schedule_id"], "references": {"table": "activities", "columns": ["id", "schedule_id"]}}]},
          {"name": "unit_workdays_fst_shift", "view": {"from": "unit_workdays", "where": {"all": [
            {"notNull": {"column": "fst_shift_activity_id"}}, {"notNull": {"column": "fst_shift_schedule_id"}}]}}, "columns": [
            {"name": "unit_id", "type": "integer"},
            {"name": "day", "type": "date"},
            {"name": "fst_shift_activity_id", "type": "integer"},
            {"name": "fst_shift_schedule_id", "type": "integer"}]},
          {"name": "screens", "schema": "private", "columns": [
            {"name": "id", "type": "serial", "primaryKey": true},
            {"name": "name", "type": "text", "nullable": false, "default": {"value": "new screen"}}]},
          {"name": "labels", "schema": "private", "columns": [
            {"name": "id", "type": "serial", "primaryKey": true},
            {"name": "name", "type": "text", "nullable": false, "default": {"value": "new label"}}]},
          {"name": "label_screen", "schema": "private", "columns": [
            {"name": "label_id", "type": "integer", "primaryKey": true},
            {"name": "screen_id", "type": "integer", "primaryKey": true}],
           "foreignKeys": [
            {"columns": ["label_id"], "references": {"table": "private.labels", "columns": ["id"]}, "onDelete": "cascade"},
            {"columns": ["screen_id"], "references": {"table": "private.screens", "columns": ["id"]}, "onDelete": "cascade"}]},
          {"name": "labels", "view": {"from": "private.labels"}, "columns": [
            {"name": "id", "type": "integer"},
            {"name": "name", "type": "text"}]},
          {"name": "screens", "view": {"from": "private.screens"}, "columns": [
            {"name": "id", "type": "integer"},
            {"name": "name", "type": "text"}]},
          {"name": "label_screen", "view": {"from": "private.label_screen"}, "columns": [
            {"name": "label_id", "type": "integer"},
            {"name": "screen_id", "type": "integer"}]},
          {"name": "actors", "schema": "private", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"}]},
          {"name": "films", "schema": "private", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "title", "type": "text"}]},
          {"name": "personnages", "schema": "private", "columns": [
            {"name": "film_id", "type": "integer", "primaryKey": true},
            {"name": "role_id", "type": "integer", "primaryKey": true},
            {"name": "character", "type": "text", "nullable": false}],
           "foreignKeys": [
            {"name": "personnages_film_id_fkey", "columns": ["film_id"], "references": {"table": "private.films", "columns": ["id"]}},
            {"name": "personnages_role_id_fkey", "columns": ["role_id"], "references": {"table": "private.actors", "columns": ["id"]}}]},
          {"name": "actors", "view": {"from": "private.actors"}, "columns": [
            {"name": "id", "type": "integer"},
            {"name": "name", "type": "text"}]},
          {"name": "films", "view": {"from": "private.films"}, "columns": [
            {"name": "id", "type": "integer"},
            {"name": "title", "type": "text"}]},
          {"name": "personnages", "view": {"from": "private.personnages"}, "columns": [
            {"name": "film_id", "type": "integer"},
            {"name": "role_id", "type": "integer"},
            {"name": "character", "type": "text"}]},
          {"name": "end_1", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"}]},
          {"name": "end_2", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"}]},
          {"name": "junction", "schema": "private", "columns": [
            {"name": "end_1_id", "type": "integer", "primaryKey": true},
            {"name": "end_2_id", "type": "integer", "primaryKey": true}],
           "foreignKeys": [
            {"columns": ["end_1_id"], "references": {"table": "end_1", "columns": ["id"]}, "onDelete": "cascade"},
            {"columns": ["end_2_id"], "references": {"table": "end_2", "columns": ["id"]}, "onDelete": "cascade"}]},
          {"name": "schauspieler", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "name", "type": "text"}]},
          {"name": "filme", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "titel", "type": "text"}]},
          {"name": "rollen", "schema": "private", "columns": [
            {"name": "film_id", "type": "integer", "primaryKey": true},
            {"name": "rolle_id", "type": "integer", "primaryKey": true},
            {"name": "charakter", "type": "text", "nullable": false}],
           "foreignKeys": [
            {"columns": ["film_id"], "references": {"table": "filme", "columns": ["id"]}},
            {"columns": ["rolle_id"], "references": {"table": "schauspieler", "columns": ["id"]}}]},
          {"name": "internal_job", "schema": "private", "columns": [
            {"name": "id", "type": "integer", "primaryKey": true},
            {"name": "parent_id", "type": "integer"}],
           "foreignKeys": [{"name": "parent_fk", "columns": ["parent_id"], "references": {"table": "private.internal_job", "columns": ["id"]}}]},
          {"name": "job", "view": {"from": "private.internal_job"}, "columns": [
            {"name": "id", "type": "integer"},
            {"name": "parent_id", "type": "integer"}]},
          {"name": "series", "columns": [
            {"name": "id", "type": "bigint", "primaryKey": true},
            {"name": "title", "type": "text", "nullable": false}]},
          {"name": "adaptation_notifications", "columns": [
            {"name": "id", "type": "bigint", "primaryKey": true},
            {"name": "series", "type": "bigint"},
            {"name": "status", "type": "text"}],
           "foreignKeys": [{"columns": ["series"], "references": {"table": "series", "columns": ["id"]}}]},
          {"name": "series_popularity", "view": {"from": "series"}, "columns": [{"name": "id", "type": "bigint"}]},
          {"name": "ta", "schema": "public", "columns": [
            {"name": "a1", "type": "integer", "primaryKey": true},
            {"name": "a2", "type": "integer"}],
           "unique": [["a1", "a2"]]},
          {"name": "tb", "schema": "public", "columns": [
            {"name": "b1", "type": "integer"},
            {"name": "b2", "type": "integer"}],
           "foreignKeys": [
            {"columns": ["b1"], "references": {"table": "public.ta", "columns": ["a1"]}},
            {"columns": ["b1", "b2"], "references": {"table": "public.ta", "columns": ["a1", "a2"]}}]},
          {"name": "va", "view": {"from": "public.ta"}, "columns": [{"name": "a1", "type": "integer"}]},
          {"name": "vb", "view": {"from": "public.tb"}, "columns": [{"name": "b1", "type": "integer"}]}
        ]}
        """#

    let backend: MockSupabase

    /// `schemaJSON` with other PostgREST settings (`"maxRows": 2`) in place of the suites'
    /// defaults (no `db-max-rows`); nil keeps them.
    static func schemaJSON(settings: String?) -> String {
        guard let settings else { return schemaJSON }
        let keep = settings.contains(#""maxRows""#) ? "" : #""maxRows": null, "#
        return schemaJSON.replacingOccurrences(of: #""maxRows": null,"#, with: keep + settings + ",")
    }

    /// The fixture on `schemaJSON` (a test's deliberately wrong variant of the schema).
    init(schemaJSON: String = SpecTablesFixture.schemaJSON) throws {
        let prepared = try Self.prepared.schema(schemaJSON)
        let spec = AppSpec(
            app: "spectables", folder: URL(fileURLWithPath: "/nonexistent"), schema: prepared.schema,
            policies: PolicySet(definitions: [:], definitionDocs: [:], tables: []), fixtures: .empty)
        backend = try MockSupabase(configuration: MockConfiguration(spec: spec, clock: ManualClock(), ids: SeededIDGenerator(seed: 7)))
        let db = backend.database
        // The corpus builds a fixture per case (a case's writes must not reach the next): the
        // schema is decoded and the rows loaded once per schema text, then replayed, as the mock
        // replays an app's fixture load (`SeedRecording`); decoding and loading were 85% of the
        // corpus's time.
        if let recording = prepared.recording {
            db.replaySeed(recording)
        } else {
            Self.prepared.keep(try db.recordingSeed { try loadRows(db) }, for: schemaJSON)
        }
    }

    /// Decoded schemas and recorded row loads, by schema text, shared by every fixture built
    /// in this process.
    private static let prepared = PreparedFixtures()

    /// Loads PostgREST's test rows (data.sql) into a fresh database.
    private func loadRows(_ db: Database) throws {
        try db.seed("items", rows: (1...15).map { JSONValue.object(["id": .int(Int64($0))]) })
        try seedSearchAndTypeTables(db)
        try db.seed("has_count_column", rows: [["count": 1]])
        try db.seed("simple_pk", rows: [["k": "xyyx", "extra": "u"], ["k": "xYYx", "extra": "v"]])
        try db.seed("no_pk", rows: [["a": nil, "b": nil], ["a": "1", "b": "0"], ["a": "2", "b": "0"]])
        try db.seed("nullable_integer", rows: [["a": nil]])
        try db.seed(
            "chores",
            rows: [
                ["id": 1, "name": "take out the garbage", "done": true], ["id": 2, "name": "do the laundry", "done": false],
                ["id": 3, "name": "wash the dishes", "done": nil]
            ])
        try db.seed("clients", rows: [["id": 1, "name": "Microsoft"], ["id": 2, "name": "Apple"]])
        try db.seed(
            "projects",
            rows: [
                ["id": 1, "name": "Windows 7", "client_id": 1], ["id": 2, "name": "Windows 10", "client_id": 1],
                ["id": 3, "name": "IOS", "client_id": 2], ["id": 4, "name": "OSX", "client_id": 2], ["id": 5, "name": "Orphan", "client_id": nil]
            ])
        try db.seed(
            "tasks",
            rows: [
                ["id": 1, "name": "Design w7", "project_id": 1], ["id": 2, "name": "Code w7", "project_id": 1],
                ["id": 3, "name": "Design w10", "project_id": 2], ["id": 4, "name": "Code w10", "project_id": 2],
                ["id": 5, "name": "Design IOS", "project_id": 3], ["id": 6, "name": "Code IOS", "project_id": 3],
                ["id": 7, "name": "Design OSX", "project_id": 4], ["id": 8, "name": "Code OSX", "project_id": 4]
            ])
        try db.seed("users", rows: [["id": 1, "name": "Angela Martin"], ["id": 2, "name": "Michael Scott"], ["id": 3, "name": "Dwight Schrute"]])
        try db.seed(
            "users_tasks",
            rows: [[1, 1], [1, 2], [1, 3], [1, 4], [2, 5], [2, 6], [2, 7], [3, 1], [3, 5]].map { (p: [Int64]) in
                JSONValue.object(["user_id": .int(p[0]), "task_id": .int(p[1])])
            })
        try db.seed(
            "users_projects",
            rows: [[1, 1], [1, 2], [2, 3], [2, 4], [3, 1], [3, 3]].map { (p: [Int64]) in
                JSONValue.object(["user_id": .int(p[0]), "project_id": .int(p[1])])
            })
        try db.seed("comments", rows: [["id": 1, "commenter_id": 1, "user_id": 2, "task_id": 6, "content": "Needs to be delivered ASAP"]])
        try db.seed(
            "files",
            rows: [
                (1, "command.com", "#include <unix.h>"), (1, "autoexec.bat", "@ECHO OFF"), (1, "io.sys", "TODO"), (2, "README.md", "# make $$$!"),
                (2, "marketing.key", "$-$")
            ].map { (p: (Int64, String, String)) in JSONValue.object(["project_id": .int(p.0), "filename": .string(p.1), "content": .string(p.2)]) })
        try db.seed(
            "touched_files",
            rows: [(1, 1, 1, "command.com"), (1, 1, 1, "autoexec.bat"), (1, 1, 2, "README.md"), (3, 1, 1, "autoexec.bat")].map {
                (p: (Int64, Int64, Int64, String)) in
                JSONValue.object(["user_id": .int(p.0), "task_id": .int(p.1), "project_id": .int(p.2), "filename": .string(p.3)])
            })
        try db.seed(
            "complex_items",
            rows: [
                ["id": 1, "name": "One", "settings": ["foo": ["int": 1, "bar": "baz"]], "arr_data": [1], "field-with_sep": 1],
                ["id": 2, "name": "Two", "settings": ["foo": ["int": 1, "bar": "baz"]], "arr_data": [1, 2], "field-with_sep": 1],
                ["id": 3, "name": "Three", "settings": ["foo": ["int": 1, "bar": "baz"]], "arr_data": [1, 2, 3], "field-with_sep": 3]
            ],
            // data.sql's text for the json column, which PostgREST prints as written.
            texts: Array(repeating: ["settings": #"{"foo":{"int":1,"bar":"baz"}}"#], count: 3))
        try db.seed(
            "w_or_wo_comma_names",
            rows: [
                "Hebdon, John", "Williams, Mary", "Smith, Joseph", "David White", "Larry Thompson", "Double O Seven(007)",
                "\"", "Double\"Quote\"McGraw\"", "\\", "/\\Slash/\\Beast/\\"
            ].map { JSONValue.object(["name": .string($0)]) })
        try db.seed(
            "articles",
            rows: [
                ["id": 1, "body": "No… It's a thing; it's like a plan, but with more greatness.", "owner": "diogo"],
                ["id": 2, "body": "Stop talking, brain thinking. Hush.", "owner": "diogo"],
                ["id": 3, "body": "It's a fez. I wear a fez now. Fezes are cool.", "owner": "diogo"]
            ])
        try db.seed(
            "entities",
            rows: [
                ["id": 1, "name": "entity 1", "arr": [1], "text_search_vector": "'bar':2 'foo':1"],
                ["id": 2, "name": "entity 2", "arr": [1, 2], "text_search_vector": "'baz':1 'qux':2"],
                ["id": 3, "name": "entity 3", "arr": [1, 2, 3], "text_search_vector": nil],
                ["id": 4, "name": nil, "arr": nil, "text_search_vector": nil]
            ])
        try db.seed(
            "child_entities",
            rows: [(1, 1), (2, 1), (3, 2), (4, 1), (5, 1), (6, 2)].map { (p: (Int64, Int64)) in
                JSONValue.object(["id": .int(p.0), "name": .string("child entity \(p.0)"), "parent_id": .int(p.1)])
            })
        try db.seed(
            "grandchild_entities",
            rows: [
                ["id": 1, "name": "grandchild entity 1", "parent_id": 1, "jsonb_col": nil],
                ["id": 2, "name": "grandchild entity 2", "parent_id": 1, "jsonb_col": nil],
                ["id": 3, "name": "grandchild entity 3", "parent_id": 2, "jsonb_col": nil],
                ["id": 4, "name": "(grandchild,entity,4)", "parent_id": 2, "jsonb_col": ["a": ["b": "foo"]]],
                ["id": 5, "name": "(grandchild,entity,5)", "parent_id": 2, "jsonb_col": ["b": "bar"]]
            ])
        func parsed(_ text: String) throws -> JSONValue { try JSONValue.parse(text) }
        let jsonTableTexts = [#"{"foo":{"bar":"baz"},"id":1}"#, #"{"id":3}"#, #"{"id":0}"#]
        let jsonArrTexts = [
            "[1, 2, 3]", "[4, 5, 6]", "[[9, 8, 7], [11, 12, 13]]", "[[[5, 6], 7, 8]]", #"[{"a": "A"}, {"b": "B"}]"#,
            #"[{"a": [1,2,3]}, {"b": [4,5]}]"#, #"{"c": [1,2,3], "d": [4,5]}"#, #"{"c": [{"d": [4,5,6,7,8]}]}"#,
            #"[{"0xy1": [1,{"23-xy-45": [2, {"xy-6": [3]}]}]}]"#,
            #"{"!@#$%^&*_a": [{"!@#$%^&*_b": 1}, {"!@#$%^&*_c": [2]}], "!@#$%^&*_d": {"!@#$%^&*_e": 3}}"#
        ]
        try db.seed(
            "json_arr",
            rows: try zip(Int64(1)..., jsonArrTexts).map { ($0, $1) }
                .map { (p: (Int64, String)) in JSONValue.object(["id": .int(p.0), "data": try parsed(p.1)]) },
            texts: jsonArrTexts.map { ["data": $0] })
        try db.seed(
            "jsonb_test",
            rows: try [(1, #"{ "a": {"b": 2} }"#), (2, #"{ "c": [1,2,3] }"#), (3, #"[{ "d": "test" }]"#), (4, #"{ "e": 1 }"#)]
                .map { (p: (Int64, String)) in JSONValue.object(["id": .int(p.0), "data": try parsed(p.1)]) })
        try db.seed(
            "json_table", rows: try jsonTableTexts.map { JSONValue.object(["data": try parsed($0)]) }, texts: jsonTableTexts.map { ["data": $0] })
        try db.seed(
            "arrays",
            rows: [
                ["id": 0, "numbers": [1, 2, 3], "numbers_mult": [[1, 2, 3], [4, 5, 6], [7, 8, 9]]],
                ["id": 1, "numbers": [11, 12, 13], "numbers_mult": [[11, 12, 13], [14, 15, 16], [17, 18, 19]]]
            ])
        try db.seed("empty_string", rows: [["id": 1, "string": ""], ["id": 2, "string": "X"]])
        try seedDisambiguationTables(db)
        try seedSpreadTables(db)
        try db.seed("tiobe_pls", rows: [["name": "Java", "rank": 1], ["name": "C", "rank": 2], ["name": "Python", "rank": 4]])
        try db.seed(
            "employees",
            rows: [
                ("Frances M.", "Roe", "24000", "One-Up Realty", "Author"), ("Daniel B.", "Lyon", "36000", "Dubrow's Cafeteria", "Packer"),
                ("Edwin S.", "Smith", "48000", "Pro Garden Management", "Marine biologist")
            ].map { (p: (String, String, String, String, String)) in
                JSONValue.object(
                    ["first_name": .string(p.0), "last_name": .string(p.1), "salary": .string(p.2), "company": .string(p.3), "occupation": .string(p.4)])
            })
        try db.seed("single_unique", rows: [["unique_key": 1, "value": "A"]])
        try db.seed("compound_unique", rows: [["key1": 1, "key2": 1, "value": "A"]])
        try db.seed("only_pk", rows: [["id": 1], ["id": 2]])
        try db.seed("surr_serial_upsert", rows: [["id": 1, "name": "value", "extra": "existing value"]])
        try db.seed("surr_gen_default_upsert", rows: [["id": 1, "name": "value", "extra": "existing value"]])
        try db.seed("Surr_Gen_Default_Upsert", rows: [["id": 1, "name": "value", "extra": "existing value cs"]])
        try db.seed("UnitTest", rows: [["idUnitTest": 1, "nameUnitTest": "name of unittest 1"]])
        try db.seed(
            "web_content",
            rows: [
                ["id": 5, "name": "wat", "p_web_id": nil], ["id": 0, "name": "tardis", "p_web_id": 5], ["id": 1, "name": "fezz", "p_web_id": 0],
                ["id": 2, "name": "foo", "p_web_id": 0], ["id": 3, "name": "bar", "p_web_id": 0], ["id": 4, "name": "wut", "p_web_id": 1]
            ])
        try db.seed("artists", rows: [["id": 1, "name": "duster"], ["id": 2, "name": "black country, new road"], ["id": 3, "name": "bjork"]])
        try db.seed(
            "albums",
            rows: [
                ["id": 1, "title": "stratosphere", "artist_id": 1], ["id": 2, "title": "ants from up above", "artist_id": 2],
                ["id": 3, "title": "vespertine", "artist_id": 3], ["id": 4, "title": "contemporary movement", "artist_id": 1]
            ])
        try db.seed("students", rows: [["id": 1, "code": "0001", "name": "John Doe"], ["id": 2, "code": "0002", "name": "Jane Doe"]])
        // data.sql's private.article_stars (articles stand for the suite's view over private.articles).
        try db.seed(
            "private.article_stars",
            rows: [(1, 1), (1, 2), (2, 3), (3, 2), (1, 3)].map { (a: Int64, u: Int64) in
                JSONValue.object(["article_id": .int(a), "user_id": .int(u), "created_at": "2015-12-08 04:22:57.472738"])
            })
        try db.seed(
            "private.pages", rows: [["link": 1, "url": "http://postgrest.org/en/v6.0/api.html"], ["link": 2, "url": "http://postgrest.org/en/v6.0/admin.html"]])
        try db.seed("private.referrals", rows: [["site": "github.com", "link": 1], ["site": "hub.docker.com", "link": 2]])
        // data.sql's private.authors, private.publishers and private.books.
        let authors = [
            "George Orwell", "Anne Frank", "Antoine de Saint-Exupéry", "J.D. Salinger", "Ray Bradbury", "William Golding", "Harper Lee", "Kurt Vonnegut",
            "Ken Kesey", "Fyodor Dostoevsky"
        ]
        try db.seed("private.authors", rows: authors.enumerated().map { JSONValue.object(["id": .int(Int64($0.offset + 1)), "name": .string($0.element)]) })
        let publishers = [
            "Secker & Warburg", "Contact Publishing", "Reynal & Hitchcock", "Little, Brown and Company", "Ballantine Books", "Faber and Faber",
            "J. B. Lippincott & Co.", "Delacorte", "Viking Press & Signet Books"
        ]
        try db.seed(
            "private.publishers", rows: publishers.enumerated().map { JSONValue.object(["id": .int(Int64($0.offset + 1)), "name": .string($0.element)]) })
        let books: [(String, Int64)] = [
            ("1984", 1949), ("The Diary of a Young Girl", 1947), ("The Little Prince", 1947), ("The Catcher in the Rye", 1951), ("Farenheit 451", 1953),
            ("Lord of the Flies", 1954), ("To Kill a Mockingbird", 1960), ("Slaughterhouse-Five", 1969), ("One Flew Over the Cuckoo's Nest", 1962),
            ("Crime and Punishment", 1866)
        ]
        try db.seed(
            "private.books",
            rows: books.enumerated().map { i, b in
                let n = Int64(i + 1)
                return JSONValue.object([
                    "id": .int(n), "title": .string(b.0), "publication_year": .int(b.1), "author_id": .int(n), "first_publisher_id": n == 10 ? .null : .int(n)
                ])
            })
        // data.sql: players 1…12 and contracts 1…6 (the contract's range starts at the load time there).
        try db.seed(
            "player",
            rows: (1...12).map { n in
                JSONValue.object([
                    "id": .int(Int64(n)), "first_name": .string("first_name_\(n)"), "last_name": .string("last_name_\(n)"), "birth_date": "2018-10-11"
                ])
            })
        try db.seed(
            "contract",
            rows: (1...6).map { n in
                JSONValue.object([
                    "tournament": .string("tournament_\(n)"), "time": "[\"2024-01-01 00:00:00\",)", "purchase_price": .int(Int64(10 * n)), "id": .int(Int64(n)),
                    "first_name": .string("first_name_\(n)"), "last_name": .string("last_name_\(n)"), "birth_date": "2018-10-11"
                ])
            })
        try db.seed("students_info", rows: [["id": 1, "code": "0001", "address": "Street 1"], ["id": 2, "code": "0002", "address": "Street 2"]])
        try db.seed(
            "project_invoices",
            rows: [(1, 100, 1), (2, 200, 1), (3, 500, 2), (4, 700, 2), (5, 1200, 3), (6, 2000, 3), (7, 100, 4), (8, 4000, 4)].map {
                (p: (Int64, Int64, Int64)) in
                JSONValue.object(["id": .int(p.0), "invoice_total": .int(p.1), "project_id": .int(p.2)])
            })
        try db.seed(
            "timestamps",
            rows: ["2023-10-18 12:37:59.611000+0000", "2023-10-18 14:37:59.611000+0000", "2023-10-18 16:37:59.611000+0000"].map {
                JSONValue.object(["t": .string($0)])
            })
        // data.sql leaves auto_incrementing_pk empty with its sequence at 1 (`setval(…, 1, true)`):
        // a row loaded and deleted moves the sequence the same way.
        try db.seed("auto_incrementing_pk", rows: [["id": 1, "non_nullable_string": "x"]])
        _ = try db.delete(from: "auto_incrementing_pk", as: .serviceRole, where: nil)
        for table in ["unsafe_update_items", "safe_update_items", "safe_delete_items", "unsafe_delete_items"] {
            try db.seed(table, rows: (1...3).map { JSONValue.object(["id": .int(Int64($0)), "name": .string("item-\($0)"), "observation": .null]) })
        }
        try seedReadSweep2Tables(db)
    }

    /// Sends `method path?query` as the service role, as `RestSpecFixture.send` does.
    @discardableResult
    func send(_ method: String, _ pathAndQuery: String, headers: HTTPHeaders = [:], body: String? = nil) throws -> HTTPResponse {
        var h = headers
        h["apikey"] = backend.serviceRoleKey
        h["Authorization"] = "Bearer \(backend.serviceRoleKey)"
        if body != nil && h["Content-Type"] == nil { h["Content-Type"] = "application/json" }
        return try backend.handle(HTTPRequest(method: method, target: "/rest/v1/" + pathAndQuery, headers: h, body: Data((body ?? "").utf8)))
    }
}

extension SpecTablesFixture {
    /// The rows of the tables EmbedDisambiguationSpec.hs embeds through (data.sql's `sites`,
    /// `agents`, `orders`, `message`, `family_tree`, `organizations`, `posters`, …).
    func seedDisambiguationTables(_ db: Database) throws {
        func rows(_ cols: [String], _ values: [[JSONValue]]) -> [JSONValue] {
            values.map { v in JSONValue.object(Dictionary(uniqueKeysWithValues: zip(cols, v))) }
        }
        try db.seed("big_projects", rows: rows(["big_project_id", "name"], [[1, "big project 1"], [2, "big project 2"]]))
        try db.seed(
            "sites", rows: rows(["site_id", "name", "main_project_id"], [[1, "site 1", 1], [2, "site 2", nil], [3, "site 3", 2], [4, "site 4", nil]]))
        try db.seed(
            "jobs",
            rows: rows(
                ["job_id", "name", "site_id", "big_project_id"],
                [
                    ["bc5d5362-b881-438f-b9f5-7417e08704ed", "job 1-1", 1, 1], ["3bd52697-033b-4edd-8a28-46a9c04b7c1e", "job 2-1", 2, 1],
                    ["e6e67e4e-19b1-11e9-ab14-d663bd873d93", "job 2-2", 2, 2]
                ]))
        try db.seed("agents", rows: rows(["id", "name"], [[1, "agent 1"], [2, "agent 2"], [3, "agent 3"], [4, "agent 4"]]))
        try db.seed("departments", rows: rows(["id", "name", "head_id"], [[1, "dep 1", 1], [2, "dep 3", 3]]))
        try send("PATCH", "agents?id=in.(1,2)", body: #"{"department_id":1}"#)
        try send("PATCH", "agents?id=in.(3,4)", body: #"{"department_id":2}"#)
        try db.seed("addresses", rows: rows(["id", "address"], [[1, "address 1"], [2, "address 2"], [3, "address 3"], [4, "address 4"]]))
        try db.seed(
            "orders", rows: rows(["id", "name", "billing_address_id", "shipping_address_id"], [[1, "order 1", 1, 2], [2, "order 2", 3, 4]]))
        try db.seed("person", rows: rows(["id", "name"], [[1, "John"], [2, "Jane"], [3, "Jake"], [4, "Julie"]]))
        try db.seed(
            "message",
            rows: rows(
                ["id", "body", "sender", "recipient"],
                [[1, "Hello Jane", 1, 2], [2, "Hi John", 2, 1], [3, "How are you doing?", 1, 2], [4, "Hey Julie", 3, 4], [5, "What's up Jake", 4, 3]]))
        try db.seed(
            "family_tree",
            rows: rows(
                ["id", "name", "parent"],
                [["1", "Parental Unit", nil], ["2", "Kid One", "1"], ["3", "Kid Two", "1"], ["4", "Grandkid One", "2"], ["5", "Grandkid Two", "3"]]))
        try db.seed(
            "managers",
            rows: rows(
                ["id", "name"],
                [
                    [1, "Referee Manager"], [2, "Auditor Manager"], [3, "Acme Manager"], [4, "Umbrella Manager"], [5, "Cyberdyne Manager"],
                    [6, "Oscorp Manager"]
                ]))
        try db.seed(
            "organizations",
            rows: rows(
                ["id", "name", "referee", "auditor", "manager_id"],
                [
                    [1, "Referee Org", nil, nil, 1], [2, "Auditor Org", nil, nil, 2], [3, "Acme", 1, 2, 3], [4, "Umbrella", 1, 2, 4],
                    [5, "Cyberdyne", 3, 4, 5], [6, "Oscorp", 3, 4, 6]
                ]))
        try db.seed("posters", rows: rows(["id", "name"], [[1, "Mark"], [2, "Elon"], [3, "Bill"], [4, "Jeff"]]))
        try db.seed("subscriptions", rows: rows(["subscriber", "subscribed"], [[3, 1], [4, 1], [1, 2]]))
        try db.seed("test", rows: rows(["id", "parent_id"], [[1, nil], [2, 1]]))
        try db.seed("country", rows: rows(["id", "name"], [[1, "Afghanistan"], [2, "Algeria"]]))
        try db.seed("capital", rows: rows(["id", "name", "country_id"], [[1, "Kabul", 1], [2, "Algiers", 2]]))
        try db.seed("client", rows: rows(["id", "name"], [[1, "Walmart"], [2, "Target"], [3, "Big Lots"]]))
        try db.seed(
            "contact",
            rows: rows(
                ["id", "name", "clientid"],
                [[1, "Wally Walton", 1], [2, "Wilma Wellers", 1], [3, "Tabby Targo", 2], [4, "Bobby Bots", 3], [5, "Bonnie Bits", 3], [6, "Billy Boats", 3]]))
        try db.seed(
            "clientinfo", rows: rows(["id", "clientid", "other"], [[1, 1, "123 Main St"], [2, 2, "456 South 3rd St"], [3, 3, "789 Palm Tree Ln"]]))
        try db.seed("table_a", rows: rows(["id", "name"], [[1, "Not null 1"], [2, nil], [3, "Not null 2"]]))
        try db.seed("table_b", rows: rows(["table_a_id", "name"], [[1, "Test 1"], [2, "Test 2"], [nil, "Test 3"]]))
        try db.seed("trash", rows: rows(["id"], [[1], [2], [3]]))
        try db.seed("Escap3e;", rows: rows(["so6meIdColumn"], [[1], [2], [3], [4], [5]]))
        try db.seed("ghostBusters", rows: rows(["escapeId"], [[1], [3], [5]]))
        try db.seed("space", rows: rows(["id", "name"], [[1, "space 1"]]))
        try db.seed("products", rows: rows(["id", "name"], [[1, "product-1"], [2, "product-2"], [3, "product-3"]]))
        try db.seed("suppliers", rows: rows(["id", "name"], [[1, "supplier-1"], [2, "supplier-2"], [3, "supplier-3"]]))
        try db.seed("products_suppliers", rows: rows(["product_id", "supplier_id"], [[1, 1], [1, 2], [2, 1], [2, 3]]))
        try db.seed("trade_unions", rows: rows(["id", "name"], [[1, "union-1"], [2, "union-2"], [3, "union-3"], [4, "union-4"]]))
        try db.seed("suppliers_trade_unions", rows: rows(["supplier_id", "trade_union_id"], [[1, 1], [1, 2], [2, 3], [2, 4]]))
        try db.seed(
            "zone",
            rows: rows(["id", "name", "zone_type_id", "space_id"], [[1, "zone 1", 2, 1], [2, "zone 2", 2, 1], [3, "store 3", 3, 1], [4, "store 4", 3, 1]]))
        try db.seed(
            "pgrst_reserved_chars",
            rows: rows(
                ["*id*", ":arr->ow::cast", "(inside,parens)", "a.dotted.column", "  col  w  space  "],
                (1...3).map { n in [.int(Int64(n)), .string(" arrow-\(n) "), .string(" parens-\(n) "), .string(" dotted-\(n) "), .string(" space-\(n)")] }))
        try db.seed(
            "Server Today",
            rows: rows(
                ["cHostname", "Just A Server Model"],
                [
                    ["argnim1    ", " IBM,9113-550 (P5-550)"], ["argnim2    ", " IBM,9113-550 (P5-550)"], ["daaa2nim71 ", " IBM,9131-52A (P5-52A)"],
                    ["daah3nim71 ", " IBM,8406-71Y (P7-PS701)"], ["hbnim1     ", " IBM,9133-55A (P5-55A)"]
                ]))
        try db.seed("do$llar$s", rows: rows(["a$num$"], [["100"], ["200"], ["300"]]))
        try db.seed("trash_details", rows: rows(["id", "jsonb_col"], [[1, ["key": 10]], [2, ["key": 6]], [3, ["key": 8]]]))
    }

    /// The rows SpreadQueriesSpec.hs and AggregateFunctionsSpec.hs spread (data.sql's factories,
    /// processes and their costs, categories, supervisors and operators, budget categories and
    /// expenses).
    func seedSpreadTables(_ db: Database) throws {
        func rows(_ cols: [String], _ values: [[JSONValue]]) -> [JSONValue] {
            values.map { v in JSONValue.object(Dictionary(uniqueKeysWithValues: zip(cols, v))) }
        }
        try db.seed("factories", rows: rows(["id", "name"], [[1, "Factory A"], [2, "Factory B"], [3, "Factory C"], [4, "Factory D"]]))
        try db.seed("process_categories", rows: rows(["id", "name"], [[1, "Batch"], [2, "Mass"]]))
        try db.seed(
            "processes",
            rows: rows(
                ["id", "name", "factory_id", "category_id"],
                [
                    [1, "Process A1", 1, 1], [2, "Process A2", 1, 2], [3, "Process B1", 2, 1], [4, "Process B2", 2, 1], [5, "Process C1", 3, 2],
                    [6, "Process C2", 3, 2], [7, "Process XX", 3, 2], [8, "Process YY", 3, 2]
                ]))
        let costs: [(Int64, String)] = [(1, "150.00"), (2, "200.00"), (3, "180.00"), (4, "70.00"), (5, "40.00"), (6, "70.00"), (8, "40.00")]
        // As strings: a JSON number's written scale (`150.00`) does not survive `JSONValue`.
        try db.seed("process_costs", rows: costs.map { JSONValue.object(["process_id": .int($0.0), "cost": .string($0.1)]) })
        let categories: [(Int64, String, String, String)] = [
            (1, "Beanie Babies", "Brian Smith", "1000.31"), (2, "DVDs", "Jane Clarkson", "2000.12"), (3, "Pizza", "Brian Smith", "1000.11"),
            (4, "Opera Tickets", "Jane Clarkson", "7000.41"), (5, "Nuclear Fusion Research", "Sally Hughes", "500.23"),
            (6, "T-5hirts", "Dana de Groot", "500.33")
        ]
        try db.seed(
            "budget_categories",
            rows: categories.map {
                JSONValue.object(["id": .int($0.0), "category_name": .string($0.1), "budget_owner": .string($0.2), "budget_amount": .string($0.3)])
            })
        let expenses: [(Int64, String, Int64)] = [(1, "200.26", 1), (2, "400.26", 3), (3, "100.22", 4), (5, "900.27", 5)]
        try db.seed(
            "budget_expenses",
            rows: expenses.map { JSONValue.object(["id": .int($0.0), "expense_amount": .string($0.1), "budget_category_id": .int($0.2)]) })
        try db.seed("supervisors", rows: rows(["id", "name"], [[1, "Mary"], [2, "John"], [3, "Peter"], [4, "Sarah"], [5, "Jane"]]))
        try db.seed(
            "process_supervisor",
            rows: rows(["process_id", "supervisor_id"], [[1, 1], [2, 2], [3, 3], [3, 4], [4, 1], [4, 2], [5, 3], [6, 3]]))
        try db.seed(
            "operators",
            rows: rows(
                ["id", "name", "status"],
                [
                    [1, "Anne", ["id": "543210", "afk": true]], [2, "Louis", ["id": "012345"]], [3, "Jeff", ["id": "666666", "afk": true]],
                    [4, "Liz", ["id": "999999"]], [5, "Alfred", ["id": "000000"]]
                ]))
        try db.seed(
            "process_operator",
            rows: rows(["process_id", "operator_id"], [[1, 1], [1, 2], [2, 1], [2, 2], [2, 3], [3, 3], [4, 1], [4, 3], [6, 3], [6, 5], [7, 5]]))
        let buildings: [(Int, String, Int, String, Int, String)] = [
            (1, "A001", 150, "A", 1, #"{"ins": "2024C", "pending": true}"#), (2, "A002", 200, "A", 1, #"{"ins": "2025A", "pending": true}"#),
            (3, "B001", 50, "B", 2, #"{"ins": "2025A", "pending": true}"#), (4, "B002", 120, "C", 2, #"{"ins": "2023A"}"#),
            (5, "C001", 240, "B", 3, #"{"ins": "2022B"}"#), (6, "D001", 310, "A", 4, #"{"ins": "2024C", "pending": true}"#)
        ]
        for b in buildings {
            try send(
                "POST", "factory_buildings",
                body: "{\"id\":\(b.0),\"code\":\"\(b.1)\",\"size\":\(b.2),\"type\":\"\(b.3)\",\"factory_id\":\(b.4),\"inspections\":\(b.5)}")
        }
    }
}

extension SpecTablesFixture {
    /// data.sql's `tsearch` (vectors as `to_tsvector` made them: english for the first three,
    /// french and german for the last two), `tsearch_to_tsvector` (the same sentences as text, as
    /// jsonb `{"text_search": …}` and as `simple` vectors in the domain columns), `ranges`,
    /// `items_with_different_col_types`, `app_users`, the car tables (partitioned in data.sql, plain
    /// here: partitions are not relations PostgREST embeds through), `being` ↔ `part`, `withUnique`,
    /// `simple_pk2`, `empty_table` and `places` → `visits`.
    func seedSearchAndTypeTables(_ db: Database) throws {
        try db.seed(
            "tsearch",
            rows: [
                "'fun':5 'imposs':9 'kind':3", "'also':2 'fun':3 'possibl':8", "'ate':3 'cat':2 'fat':1 'rat':4",
                "'amus':5 'fair':7 'impossibl':9 'peu':4", "'art':4 'spass':5 'unmog':7"
            ].map { JSONValue.object(["text_search_vector": .string($0)]) })
        let sentences: [(String, String)] = [
            ("It's kind of fun to do the impossible", "'do':7 'fun':5 'impossible':9 'it':1 'kind':3 'of':4 's':2 'the':8 'to':6"),
            ("But also fun to do what is possible", "'also':2 'but':1 'do':5 'fun':3 'is':7 'possible':8 'to':4 'what':6"),
            ("Fat cats ate rats", "'ate':3 'cats':2 'fat':1 'rats':4"),
            ("C'est un peu amusant de faire l'impossible", "'amusant':5 'c':1 'de':6 'est':2 'faire':7 'impossible':9 'l':8 'peu':4 'un':3"),
            (
                "Es ist eine Art Spaß, das Unmögliche zu machen",
                "'art':4 'das':6 'eine':3 'es':1 'ist':2 'machen':9 'spaß':5 'unmögliche':7 'zu':8"
            )
        ]
        try db.seed(
            "tsearch_to_tsvector",
            rows: sentences.map { s in
                JSONValue.object([
                    "text_search": .string(s.0), "jsonb_search": .object(["text_search": .string(s.0)]), "text_search_domain": .string(s.1),
                    "text_search_rec_domain": .string(s.1)
                ])
            })
        try db.seed(
            "ranges",
            rows: [["id": 1, "range": "[1,3]"], ["id": 2, "range": "[3,6]"], ["id": 3, "range": "[6,9]"], ["id": 4, "range": "[9,12]"], ["id": 5, "range": nil]]
        )
        try db.seed("items_with_different_col_types", rows: [["int_data": 1]])
        func rows(_ cols: [String], _ values: [[JSONValue]]) -> [JSONValue] {
            values.map { v in JSONValue.object(Dictionary(uniqueKeysWithValues: zip(cols, v))) }
        }
        try db.seed("car_brands", rows: rows(["name"], [["DMC"], ["Ferrari"], ["Lamborghini"]]))
        try db.seed(
            "car_models",
            rows: rows(
                ["name", "year", "car_brand_name"],
                [["DeLorean", 1981, "DMC"], ["F310-B", 1997, "Ferrari"], ["Veneno", 2013, "Lamborghini"], ["Murcielago", 2001, "Lamborghini"]]))
        try db.seed(
            "car_model_sales",
            rows: rows(
                ["date", "quantity", "car_model_name", "car_model_year"],
                [
                    ["2021-01-14", 7, "DeLorean", 1981], ["2021-01-15", 9, "DeLorean", 1981], ["2021-02-11", 1, "Murcielago", 2001],
                    ["2021-02-12", 3, "Murcielago", 2001]
                ]))
        try db.seed(
            "car_racers",
            rows: rows(
                ["name", "car_model_name", "car_model_year"], [["Alain Prost", nil, nil], ["Michael Schumacher", "F310-B", 1997]]))
        try db.seed("car_dealers", rows: rows(["name", "city"], [["Springfield Cars S.A.", "Springfield"], ["The Best Deals S.A.", "Franklin"]]))
        try db.seed(
            "car_models_car_dealers",
            rows: rows(
                ["car_model_name", "car_model_year", "car_dealer_name", "car_dealer_city", "quantity"],
                [["DeLorean", 1981, "Springfield Cars S.A.", "Springfield", 15], ["Murcielago", 2001, "The Best Deals S.A.", "Franklin", 2]]))
        try db.seed("being", rows: rows(["being"], [[1], [2], [3], [4]]))
        try db.seed("descendant", rows: rows(["descendant", "being"], [[1, 1], [2, 1], [3, 1], [4, 2]]))
        try db.seed("part", rows: rows(["part"], [[1], [2], [3], [4]]))
        try db.seed("being_part", rows: rows(["being", "part"], [[1, 1], [2, 1], [3, 2], [4, 3]]))
        try db.seed("withUnique", rows: rows(["uni", "extra"], [["nodup", "blah"]]))
        try db.seed("places", rows: rows(["id", "name"], [[1, "Lake"], [2, "Mountain"], [3, "Beach"]]))
        try db.seed(
            "visits",
            rows: rows(
                ["id", "place_id", "start_time", "end_time", "visit_type"],
                [
                    [1, 1, "2025-01-01 10:00", "2025-01-01 11:00", "vacation"], [2, 1, "2025-01-01 15:00", "2025-01-01 16:00", "vacation"],
                    [3, 1, "2025-01-01 20:00", "2025-01-01 21:00", "work"], [4, 2, "2024-11-01 09:00", "2024-11-01 10:00", "vacation"],
                    [5, 3, "2024-12-02 13:00", "2024-12-02 14:00", "vacation"], [6, 1, "2023-01-02 20:00", "2023-01-01 21:00", "work"]
                ]))
        try db.seed(
            "app_users",
            rows: [
                ["id": 1, "email": "test@123.com", "password": "pass"], ["id": 2, "email": "abc@123.com", "password": "pass"],
                ["id": 3, "email": "def@123.com", "password": "pass"]
            ])
    }
}
