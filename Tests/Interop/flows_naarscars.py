"""Naar's Cars through the official Python client (document 001: RLS matrix FR-010, security tests
SEC-DB-001..010, buckets FR-017, functions FR-014/FR-019, seed users FR-021 / Appendix B).

Expected values come from Contracts/naarscars (fixtures and schema), never from the mock's output.
"""
from __future__ import annotations

import httpx

from harness import Context, api_error, flow

APP = "naarscars"
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00\x00\x00\rIHDR" + b"\x00" * 64


def _ride(user_id: str, **extra) -> dict:
    row = {"user_id": user_id, "date": "2031-05-01", "time": "08:30:00", "pickup": "Interop Street 1",
           "destination": "Airport"}
    row.update(extra)
    return row


@flow(APP, "RLS: approved bob sees every ride; pending eve and anon see none", "001 FR-010 rides SELECT approved users")
def rides_visibility(ctx: Context) -> None:
    rides = ctx.app.rows("rides")
    assert rides, "Contracts/naarscars/fixtures.json seeds rides (FR-021)"
    bob = ctx.signed_in("bob").table("rides").select("id").execute().data
    assert sorted(r["id"] for r in bob) == sorted(r["id"] for r in rides), (len(bob), len(rides))
    assert ctx.signed_in("eve").table("rides").select("id").execute().data == [], "eve (pending) sees no rides"
    assert ctx.client().table("rides").select("id").execute().data == [], "anon sees no rides"


@flow(APP, "select with filter, order, limit; count (rows and head-only); single", "001 FR-016 rides(status), ORDER BY date")
def rides_queries(ctx: Context) -> None:
    c = ctx.signed_in("bob")
    open_rides = sorted((r for r in ctx.app.rows("rides") if r.get("status", "open") == "open"), key=lambda r: (r["date"], r["id"]))
    res = c.table("rides").select("id,status,date").eq("status", "open").order("date").order("id").limit(2).execute()
    assert [r["id"] for r in res.data] == [r["id"] for r in open_rides[:2]], res.data
    counted = c.table("rides").select("id", count="exact").eq("status", "open").limit(1).execute()
    assert counted.count == len(open_rides) and len(counted.data) == min(1, len(open_rides)), counted.count
    head = c.table("rides").select("*", count="exact", head=True).execute()
    assert head.count == len(ctx.app.rows("rides")) and not head.data, head.count
    bob = ctx.app.persona("bob")
    me = c.table("profiles").select("id,email,approved,is_admin").eq("id", bob.id).single().execute().data
    assert me == {"id": bob.id, "email": bob.email, "approved": True, "is_admin": False}, me


@flow(APP, "insert: bob cannot insert a ride for alice (SEC-DB-009); his own works with defaults", "001 FR-010 rides INSERT own only; FR-003")
def rides_insert(ctx: Context) -> None:
    alice, bob = ctx.app.persona("alice"), ctx.app.persona("bob")
    c = ctx.signed_in("bob")
    err = api_error(lambda: c.table("rides").insert(_ride(alice.id)).execute())
    assert err.code == "42501" and 'row-level security policy for table "rides"' in err.message, (err.code, err.message)
    row = c.table("rides").insert(_ride(bob.id, notes="interop")).execute().data
    assert len(row) == 1 and row[0]["user_id"] == bob.id, row
    assert row[0]["status"] == "open" and row[0]["seats"] == 1 and row[0]["claimed_by"] is None, row[0]
    eve = ctx.app.persona("eve")
    pending = api_error(lambda: ctx.signed_in("eve").table("rides").insert(_ride(eve.id)).execute())
    assert pending.code == "42501", "a pending user cannot post (inserting needs an approved profile)"


@flow(APP, "update: own ride yes, another user's ride unchanged", "001 FR-010 rides UPDATE own or claimed")
def rides_update(ctx: Context) -> None:
    from postgrest.exceptions import APIError

    bob = ctx.app.persona("bob")
    mine = ctx.signed_in("bob").table("rides").insert(_ride(bob.id)).execute().data[0]
    changed = ctx.signed_in("bob").table("rides").update({"notes": "two bags"}).eq("id", mine["id"]).execute().data
    assert len(changed) == 1 and changed[0]["notes"] == "two bags", changed
    # Carol is neither owner nor claimer: RLS hides the row (no rows) or a guard refuses (42501);
    # either way nothing changes.
    carol = ctx.signed_in("carol")
    try:
        assert carol.table("rides").update({"notes": "carol was here"}).eq("id", mine["id"]).execute().data == []
    except APIError as e:
        assert e.code == "42501", (e.code, e.message)
    now = ctx.service().table("rides").select("notes").eq("id", mine["id"]).single().execute().data
    assert now["notes"] == "two bags", now


@flow(APP, "delete: only the owner deletes", "001 FR-010 rides DELETE own only")
def rides_delete(ctx: Context) -> None:
    bob = ctx.app.persona("bob")
    mine = ctx.signed_in("bob").table("rides").insert(_ride(bob.id)).execute().data[0]
    assert ctx.signed_in("carol").table("rides").delete().eq("id", mine["id"]).execute().data == []
    gone = ctx.signed_in("bob").table("rides").delete().eq("id", mine["id"]).execute().data
    assert [r["id"] for r in gone] == [mine["id"]], gone
    assert ctx.service().table("rides").select("id").eq("id", mine["id"]).execute().data == []


@flow(APP, "profiles: anon none (SEC-DB-001), eve only her own (SEC-DB-002), bob the approved (SEC-DB-003)", "001 §8")
def profiles_visibility(ctx: Context) -> None:
    eve = ctx.app.persona("eve")
    assert ctx.client().table("profiles").select("id").execute().data == []
    assert [r["id"] for r in ctx.signed_in("eve").table("profiles").select("id").execute().data] == [eve.id]
    approved = sorted(r["id"] for r in ctx.app.rows("profiles") if r.get("approved"))
    seen = sorted(r["id"] for r in ctx.signed_in("bob").table("profiles").select("id").execute().data)
    assert seen == approved, (seen, approved)


@flow(APP, "upsert own profile on_conflict=id", "001 FR-010 profiles INSERT/UPDATE own only")
def profile_upsert(ctx: Context) -> None:
    bob = ctx.app.persona("bob")
    c = ctx.signed_in("bob")
    current = c.table("profiles").select("name,email").eq("id", bob.id).single().execute().data
    res = c.table("profiles").upsert({"id": bob.id, "name": current["name"], "email": current["email"], "car": "Blue Civic"},
                                     on_conflict="id").execute().data
    assert len(res) == 1 and res[0]["car"] == "Blue Civic", res
    assert c.table("profiles").select("id", count="exact", head=True).eq("id", bob.id).execute().count == 1


@flow(APP, "bob cannot make himself admin (SEC-DB-005) nor approve eve (SEC-DB-007); alice can (SEC-DB-006)", "001 §8, FR-011, FR-013")
def admin_fields(ctx: Context) -> None:
    from postgrest.exceptions import APIError

    bob, eve = ctx.app.persona("bob"), ctx.app.persona("eve")
    c = ctx.signed_in("bob")
    try:
        c.table("profiles").update({"is_admin": True}).eq("id", bob.id).execute()
    except APIError:
        pass  # refused by protect_admin_fields: either outcome leaves the flag alone
    svc = ctx.service()
    assert svc.table("profiles").select("is_admin").eq("id", bob.id).single().execute().data["is_admin"] is False
    assert c.table("profiles").update({"approved": True}).eq("id", eve.id).execute().data == []
    assert svc.table("profiles").select("approved").eq("id", eve.id).single().execute().data["approved"] is False
    approved = ctx.signed_in("alice").table("profiles").update({"approved": True}).eq("id", eve.id).execute().data
    assert len(approved) == 1 and approved[0]["approved"] is True, approved
    assert ctx.signed_in("eve").table("rides").select("id").execute().data, "approved eve now sees rides"


@flow(APP, "rpc get_user_stats", "001 FR-014")
def rpc_user_stats(ctx: Context) -> None:
    ctx.need_rpc("get_user_stats")
    bob = ctx.app.persona("bob")
    res = ctx.signed_in("bob").rpc("get_user_stats", {"user_id": bob.id}).execute().data
    row = res[0] if isinstance(res, list) else res
    assert {"avg_rating", "review_count", "fulfilled_count"} <= set(row), row


@flow(APP, "functions.invoke send-push-notification", "001 FR-019, FR-020")
def push_function(ctx: Context) -> None:
    ctx.need_function("send-push-notification")
    bob = ctx.app.persona("bob")
    from supabase_functions.errors import FunctionsHttpError

    c = ctx.signed_in("alice")
    raw = c.functions.invoke("send-push-notification", invoke_options={"body": {"user_id": bob.id, "title": "Ride claimed", "body": "Dave claimed your ride"}})
    assert raw is not None
    try:
        ctx.client().functions.invoke("send-push-notification", invoke_options={"headers": {"Authorization": "Bearer not-a-jwt"},
                                                                                 "body": {"user_id": bob.id, "title": "t", "body": "b"}})
        raise AssertionError("an invalid JWT reached the function")
    except FunctionsHttpError as e:
        assert e.status == 401, e.status


@flow(APP, "storage: bob uploads his avatar, not into alice's folder, not over 200 KB", "001 FR-017 avatars")
def avatar_upload(ctx: Context) -> None:
    ctx.need_bucket("avatars")
    from storage3.exceptions import StorageApiError

    alice, bob = ctx.app.persona("alice"), ctx.app.persona("bob")
    c = ctx.signed_in("bob")
    bucket = c.storage.from_("avatars")
    up = bucket.upload(f"{bob.id}/avatar.png", PNG, {"content-type": "image/png"})
    assert up.path == f"{bob.id}/avatar.png", up
    public = bucket.get_public_url(f"{bob.id}/avatar.png")
    assert httpx.get(public).content == PNG, "public read of an avatar"
    for path, data, what in [(f"{alice.id}/avatar.png", PNG, "another user's folder"),
                             (f"{bob.id}/big.png", PNG + b"\x00" * (200 * 1024), "over 200 KB")]:
        try:
            bucket.upload(path, data, {"content-type": "image/png"})
            raise AssertionError(f"upload into {what} accepted")
        except StorageApiError:
            pass
