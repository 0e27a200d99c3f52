"""TeleportMe through the official Python client (document 000; RLS matrix §4.3).

Expected values come from Contracts/teleportme (fixtures and schema), never from the mock's output.
"""
from __future__ import annotations

from harness import Context, api_error, flow

APP = "teleportme"


@flow(APP, "anon: select with filter, order and limit", "000 §3.6 fetchAllCities; §4.5 cities_continent_idx")
def cities_filtered(ctx: Context) -> None:
    c = ctx.client()
    res = c.table("cities").select("id,name,continent").eq("continent", "Europe").order("name").limit(5).execute()
    europe = sorted((r for r in ctx.app.rows("cities") if r["continent"] == "Europe"), key=lambda r: r["name"])
    assert [r["id"] for r in res.data] == [r["id"] for r in europe[:5]], res.data
    assert all(set(r) == {"id", "name", "continent"} for r in res.data), "select= limits the columns"
    desc = c.table("cities").select("name").gte("population", 1_000_000).order("population", desc=True).limit(3).execute()
    big = sorted((r for r in ctx.app.rows("cities") if (r.get("population") or 0) >= 1_000_000), key=lambda r: -r["population"])
    assert [r["name"] for r in desc.data] == [r["name"] for r in big[:3]], desc.data
    search = c.table("cities").select("id").ilike("name", "%ber%").execute()
    assert sorted(r["id"] for r in search.data) == sorted(r["id"] for r in ctx.app.rows("cities") if "ber" in r["name"].lower())


@flow(APP, "anon: count=exact, with rows and head-only", "000 §4.2 cities; PostgREST Content-Range")
def cities_count(ctx: Context) -> None:
    c = ctx.client()
    europe = sum(1 for r in ctx.app.rows("cities") if r["continent"] == "Europe")
    res = c.table("cities").select("id", count="exact").eq("continent", "Europe").limit(2).execute()
    assert res.count == europe and len(res.data) == 2, (res.count, len(res.data))
    head = c.table("cities").select("*", count="exact", head=True).execute()
    assert head.count == len(ctx.app.rows("cities")), head.count
    assert not head.data, "HEAD returns no rows"


@flow(APP, "anon: single and maybe_single", "000 §5.1 getCityWithScores")
def city_single(ctx: Context) -> None:
    c = ctx.client()
    berlin = next(r for r in ctx.app.rows("cities") if r["id"] == "berlin")
    one = c.table("cities").select("id,name,country").eq("id", "berlin").single().execute()
    assert one.data == {"id": "berlin", "name": berlin["name"], "country": berlin["country"]}, one.data
    err = api_error(lambda: c.table("cities").select("id").eq("id", "atlantis").single().execute())
    assert err.code == "PGRST116", (err.code, err.message)
    none = c.table("cities").select("id").eq("id", "atlantis").maybe_single().execute()
    assert none is None or none.data is None
    scores = c.table("city_scores").select("category,score").eq("city_id", "berlin").execute()
    assert len(scores.data) == sum(1 for r in ctx.app.rows("city_scores") if r["city_id"] == "berlin")


@flow(APP, "sign in; RLS: own saved cities only; anon sees none", "000 §4.3 saved_cities Own only")
def saved_cities_rls(ctx: Context) -> None:
    ana, ben = ctx.app.persona("ana"), ctx.app.persona("ben")
    c = ctx.signed_in("ana")
    res = c.table("saved_cities").select("city_id,user_id").order("city_id").execute()
    expected = sorted(r["city_id"] for r in ctx.app.rows("saved_cities") if r["user_id"] == ana.id)
    assert [r["city_id"] for r in res.data] == expected, res.data
    assert all(r["user_id"] == ana.id for r in res.data)
    theirs = c.table("saved_cities").select("id").eq("user_id", ben.id).execute()
    assert theirs.data == [], "another user's rows are filtered out, not an error"
    assert ctx.client().table("saved_cities").select("id").execute().data == [], "anon reads nothing"
    all_rows = ctx.service().table("saved_cities").select("id", count="exact", head=True).execute()
    assert all_rows.count == len(ctx.app.rows("saved_cities")), "the service role bypasses RLS"


@flow(APP, "insert saved city; duplicate 23505; other user's row 42501", "000 §5.3 save; UNIQUE(user_id, city_id)")
def saved_city_insert(ctx: Context) -> None:
    ana, ben = ctx.app.persona("ana"), ctx.app.persona("ben")
    c = ctx.signed_in("ana")
    taken = {r["city_id"] for r in ctx.app.rows("saved_cities") if r["user_id"] == ana.id}
    city = next(r["id"] for r in ctx.app.rows("cities") if r["id"] not in taken)
    row = c.table("saved_cities").insert({"user_id": ana.id, "city_id": city}).execute()
    assert len(row.data) == 1 and row.data[0]["city_id"] == city and row.data[0]["user_id"] == ana.id, row.data
    assert len(row.data[0]["id"]) == 36, "id defaults to gen_random_uuid()"
    dup = api_error(lambda: c.table("saved_cities").insert({"user_id": ana.id, "city_id": city}).execute())
    assert dup.code == "23505", (dup.code, dup.message)
    other = api_error(lambda: c.table("saved_cities").insert({"user_id": ben.id, "city_id": city}).execute())
    assert other.code == "42501", (other.code, other.message)
    assert 'row-level security policy for table "saved_cities"' in other.message, other.message
    anon = api_error(lambda: ctx.client().table("saved_cities").insert({"user_id": ana.id, "city_id": "paris"}).execute())
    assert anon.code == "42501", (anon.code, anon.message)


@flow(APP, "delete saved city (unsave); another user's row untouched", "000 §5.3 unsave")
def saved_city_delete(ctx: Context) -> None:
    ana, ben = ctx.app.persona("ana"), ctx.app.persona("ben")
    c = ctx.signed_in("ana")
    mine = next(r for r in ctx.app.rows("saved_cities") if r["user_id"] == ana.id)
    gone = c.table("saved_cities").delete().eq("city_id", mine["city_id"]).execute()
    assert [r["id"] for r in gone.data] == [mine["id"]], gone.data
    assert c.table("saved_cities").select("id").eq("city_id", mine["city_id"]).execute().data == []
    theirs = next(r for r in ctx.app.rows("saved_cities") if r["user_id"] == ben.id)
    assert c.table("saved_cities").delete().eq("id", theirs["id"]).execute().data == [], "RLS hides the row from DELETE"
    still = ctx.service().table("saved_cities").select("id").eq("id", theirs["id"]).execute()
    assert len(still.data) == 1, "ben's row survives"


@flow(APP, "upsert preferences on_conflict=user_id", "000 §5.2 savePreferences upsert; UNIQUE(user_id)")
def preferences_upsert(ctx: Context) -> None:
    ana = ctx.app.persona("ana")
    c = ctx.signed_in("ana")
    res = c.table("user_preferences").upsert(
        {"user_id": ana.id, "cost_preference": 9.0, "climate_preference": 4.5, "culture_preference": 8.0,
         "job_market_preference": 6.0}, on_conflict="user_id").execute()
    assert len(res.data) == 1 and res.data[0]["cost_preference"] == 9.0, res.data
    rows = c.table("user_preferences").select("id,cost_preference").execute().data
    fixture = [r for r in ctx.app.rows("user_preferences") if r["user_id"] == ana.id]
    assert len(rows) == 1 and rows[0]["cost_preference"] == 9.0, rows
    if fixture:
        assert rows[0]["id"] == fixture[0]["id"], "the existing row was updated, not a second one inserted"


@flow(APP, "update own profile; another user's profile silently untouched", "000 §4.3 profiles UPDATE Own only")
def profile_update(ctx: Context) -> None:
    ana, ben = ctx.app.persona("ana"), ctx.app.persona("ben")
    c = ctx.signed_in("ana")
    res = c.table("profiles").update({"name": "Ana Interop"}).eq("id", ana.id).execute()
    assert len(res.data) == 1 and res.data[0]["name"] == "Ana Interop", res.data
    assert c.table("profiles").update({"name": "hijacked"}).eq("id", ben.id).execute().data == []
    ben_name = ctx.service().table("profiles").select("name").eq("id", ben.id).single().execute().data["name"]
    assert ben_name != "hijacked"


@flow(APP, "rpc search_cities (fuzzy)", "000 §4.4 search_cities")
def rpc_search(ctx: Context) -> None:
    ctx.need_rpc("search_cities")
    res = ctx.client().rpc("search_cities", {"search_term": "berln"}).execute()
    assert res.data and res.data[0]["id"] == "berlin", res.data
    assert len(res.data) <= 20


@flow(APP, "functions.invoke generate-report as a signed-in user", "000 §4.6 generate-report")
def generate_report(ctx: Context) -> None:
    ctx.need_function("generate-report")
    import json as _json

    ana = ctx.app.persona("ana")
    c = ctx.signed_in("ana")
    raw = c.functions.invoke("generate-report", invoke_options={"body": {
        "current_city_id": "san-francisco", "preferences": {"cost": 7.0, "climate": 6.0, "culture": 8.0, "job_market": 5.0}}})
    body = _json.loads(raw)
    assert body["current_city"]["id"] == "san-francisco", body.get("current_city")
    assert body["matches"] and all(m["city_id"] != "san-francisco" for m in body["matches"]), body["matches"]
    assert [m["rank"] for m in body["matches"]] == list(range(1, len(body["matches"]) + 1))
    saved = c.table("city_reports").select("id,user_id").eq("id", body["report_id"]).execute().data
    assert saved == [{"id": body["report_id"], "user_id": ana.id}], "the report is saved for its caller"


@flow(APP, "sign up, wrong password, sign out revokes the refresh token", "000 §6.1 GoTrue email/password, no confirmation")
def auth_lifecycle(ctx: Context) -> None:
    from supabase_auth.errors import AuthApiError

    c = ctx.client()
    email = ctx.unique_email("newcomer")
    up = c.auth.sign_up({"email": email, "password": "secret-123"})
    assert up.user is not None and up.user.email == email, up
    assert up.session is not None, "no e-mail confirmation: sign-up returns a session (000 §6.1)"
    assert c.auth.get_user().user.id == up.user.id
    try:
        ctx.client().auth.sign_in_with_password({"email": email, "password": "wrong-password"})
        raise AssertionError("a wrong password signed in")
    except AuthApiError as e:
        assert e.status == 400 and "Invalid login credentials" in e.message, (e.status, e.message)
    again = ctx.client()
    session = again.auth.sign_in_with_password({"email": email, "password": "secret-123"}).session
    refresh = session.refresh_token
    again.auth.sign_out()
    assert again.auth.get_session() is None
    try:
        ctx.client().auth.refresh_session(refresh)
        raise AssertionError("a refresh token survived sign-out")
    except AuthApiError as e:
        assert e.status in (400, 401), e.status


@flow(APP, "sign-up creates the profile row (handle_new_user trigger)", "000 §4.4 handle_new_user")
def signup_profile(ctx: Context) -> None:
    ctx.need_server_pieces("handle_new_user trigger")
    c = ctx.client()
    email = ctx.unique_email("profiled")
    up = c.auth.sign_up({"email": email, "password": "secret-123"})
    rows = c.table("profiles").select("id,email").eq("id", up.user.id).execute().data
    assert rows == [{"id": up.user.id, "email": email}], rows
