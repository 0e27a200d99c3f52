"""Realtime flows through the official client (supabase-py's `realtime` package, async) against the
mock's `/realtime/v1/websocket`: postgres_changes under RLS as one persona while another writes,
broadcast between two sockets and over the REST endpoint, presence sync, and a filter error
as Realtime reports it. Each flow runs its own event loop (asyncio.run)."""
from __future__ import annotations

import asyncio
import copy
import uuid
from typing import Any

from harness import Context, flow

WAIT = 3.0  # seconds a flow waits for an event that must come (loopback; events arrive in ms)
SILENCE = 1.0  # seconds a flow listens to show an event does not come


def access_token(ctx: Context, persona: str) -> str:
    session = ctx.signed_in(persona).auth.get_session()
    assert session is not None, f"{persona}: no session"
    return session.access_token


async def socket(ctx: Context, token: str | None = None):
    """A connected AsyncRealtimeClient on the served URL; `token` a user's access token."""
    from realtime import AsyncRealtimeClient

    client = AsyncRealtimeClient(f"{ctx.served.url}/realtime/v1", token=ctx.served.anon_key, auto_reconnect=False)
    await client.connect()
    if token:
        await client.set_auth(token)
    return client


async def subscribed(channel) -> None:
    """Subscribes and waits for SUBSCRIBED (raises on CHANNEL_ERROR or TIMED_OUT)."""
    from realtime import RealtimeSubscribeStates

    states: list[Any] = []
    await channel.subscribe(lambda state, err: states.append((state, err)))
    assert any(s == RealtimeSubscribeStates.SUBSCRIBED for s, _ in states), f"{channel.topic}: {states}"


async def until(predicate, timeout: float = WAIT) -> bool:
    end = asyncio.get_running_loop().time() + timeout
    while asyncio.get_running_loop().time() < end:
        if predicate():
            return True
        await asyncio.sleep(0.05)
    return predicate()


def new_row(ctx: Context, table: str, **changes) -> dict:
    row = copy.deepcopy(ctx.app.rows(table)[0])
    for k in ("created_at", "updated_at"):
        row.pop(k, None)
    row.update(changes)
    return row


@flow("civicforge", "realtime: a new post reaches its neighbourhood and its hidden twin only the author (RLS per subscriber)",
      "002 §2 'Subscribe to posts and responses changes in user's neighborhood', §3 same RLS")
def civicforge_board(ctx: Context) -> None:
    async def run() -> None:
        got: dict[str, list[dict]] = {"ben": [], "omar": [], "cal": []}
        clients = []
        for who in got:
            c = await socket(ctx, access_token(ctx, who))
            clients.append(c)
            ch = c.channel(f"board-{who}")
            ch.on_postgres_changes("INSERT", table="posts", callback=lambda p, who=who: got[who].append(p["data"]))
            await subscribed(ch)
        cal = ctx.app.persona("cal").id
        template = next(r for r in ctx.app.rows("posts") if r.get("author_id") == cal and r["neighborhood_id"] == ctx.app.rows("posts")[0]["neighborhood_id"])
        visible, hidden = str(uuid.uuid4()), str(uuid.uuid4())
        svc = ctx.service()
        svc.table("posts").insert(new_row(ctx, "posts", id=visible, title="Need a ladder")).execute()
        hidden_row = {**new_row(ctx, "posts"), **{k: v for k, v in template.items() if k not in ("created_at", "updated_at")}}
        svc.table("posts").insert({**hidden_row, "id": hidden, "title": "Hidden one", "hidden": True}).execute()
        assert await until(lambda: len(got["ben"]) >= 1 and len(got["cal"]) >= 2), f"events: {got}"
        await asyncio.sleep(SILENCE)
        ids = {who: sorted(d["record"]["id"] for d in events) for who, events in got.items()}
        author = template.get("author_id")
        assert ids["ben"] == [visible], f"ben (same neighbourhood) got {ids['ben']}"
        assert ids["omar"] == [], f"omar (another neighbourhood) got {ids['omar']}"
        assert ids["cal"] == sorted([visible, hidden]), f"cal (the author {author}) got {ids['cal']}"
        event = got["ben"][0]
        assert event["type"] == "INSERT" and event["schema"] == "public" and event["table"] == "posts", event
        assert event["errors"] is None and event["commit_timestamp"].endswith("Z"), event
        assert {"name": "id", "type": "uuid"} in event["columns"], event["columns"]
        for c in clients:
            await c.close()

    asyncio.run(run())


@flow("naarscars", "realtime: a message reaches the conversation's participants, not an outsider",
      "001 FR-049/FR-050 realtime; FR-010 RLS on messages")
def naarscars_messages(ctx: Context) -> None:
    async def run() -> None:
        got: dict[str, list[dict]] = {"bob": [], "dave": []}
        clients = []
        for who in got:
            c = await socket(ctx, access_token(ctx, who))
            clients.append(c)
            ch = c.channel(f"messages-{who}")
            ch.on_postgres_changes("*", table="messages", callback=lambda p, who=who: got[who].append(p["data"]))
            await subscribed(ch)
        message = str(uuid.uuid4())
        ctx.service().table("messages").insert(new_row(ctx, "messages", id=message, content="On my way")).execute()
        assert await until(lambda: len(got["bob"]) >= 1), f"bob got nothing: {got}"
        await asyncio.sleep(SILENCE)
        assert [d["record"]["id"] for d in got["bob"]] == [message], got["bob"]
        assert got["dave"] == [], f"dave is not a participant but got {got['dave']}"
        for c in clients:
            await c.close()

    asyncio.run(run())


@flow("civicforge", "realtime: a filter with an operator Realtime lacks is a system error on a joined channel",
      "supabase/realtime subscriptions.ex parse_subscription_params")
def civicforge_bad_filter(ctx: Context) -> None:
    async def run() -> None:
        c = await socket(ctx, access_token(ctx, "ben"))
        errors: list[Any] = []
        ch = c.channel("bad-filter")
        ch.on_postgres_changes("*", table="posts", filter="title=foo.x", callback=lambda p: None)
        ch.on_system(lambda p: errors.append(("ok", p)))
        original = ch.on_error

        def on_error(payload):
            errors.append(("error", payload))
            return original(payload) if callable(original) else None

        ch.on_error = on_error  # type: ignore[method-assign]
        await subscribed(ch)
        assert await until(lambda: errors), "no system message"
        kind, payload = errors[0]
        message = payload.get("message") if isinstance(payload, dict) else getattr(payload, "message", None)
        assert kind == "error" and message == 'Error parsing `filter` params: ["foo", "x"]', errors
        await c.close()

    asyncio.run(run())


@flow("civicforge", "realtime: broadcast between two sockets (not echoed without self) and over POST /realtime/v1/api/broadcast",
      "Realtime broadcast")
def civicforge_broadcast(ctx: Context) -> None:
    async def run() -> None:
        a, b = await socket(ctx), await socket(ctx)
        seen_a: list[dict] = []
        seen_b: list[dict] = []
        ca = a.channel("street-chat")
        ca.on_broadcast("wave", lambda p: seen_a.append(p))
        cb = b.channel("street-chat")
        cb.on_broadcast("wave", lambda p: seen_b.append(p))
        await subscribed(ca)
        await subscribed(cb)
        await ca.send_broadcast("wave", {"from": "a"})
        assert await until(lambda: seen_b), "b did not receive a's broadcast"
        assert seen_b[0]["payload"] == {"from": "a"} and seen_b[0]["event"] == "wave", seen_b
        import httpx

        r = httpx.post(f"{ctx.served.url}/realtime/v1/api/broadcast",
                       headers={"apikey": ctx.served.anon_key, "Authorization": f"Bearer {ctx.served.anon_key}"},
                       json={"messages": [{"topic": "street-chat", "event": "wave", "payload": {"from": "http"}}]})
        assert r.status_code == 202 and r.text == "", (r.status_code, r.text)
        assert await until(lambda: any(p["payload"] == {"from": "http"} for p in seen_a)), f"a: {seen_a}"
        assert not any(p["payload"] == {"from": "a"} for p in seen_a), "a received its own broadcast without self: true"
        bad = httpx.post(f"{ctx.served.url}/realtime/v1/api/broadcast", headers={"apikey": ctx.served.anon_key}, json={})
        assert bad.status_code == 422 and bad.json() == {"errors": {"messages": ["can't be blank"]}}, (bad.status_code, bad.text)
        await a.close()
        await b.close()

    asyncio.run(run())


@flow("civicforge", "realtime: presence track reaches the other socket's state, untrack leaves it",
      "Realtime presence")
def civicforge_presence(ctx: Context) -> None:
    async def run() -> None:
        a, b = await socket(ctx), await socket(ctx)
        ca = a.channel("lobby", {"config": {"presence": {"key": "ana", "enabled": True}}})
        cb = b.channel("lobby", {"config": {"presence": {"key": "ben", "enabled": True}}})
        synced: list[int] = []
        cb.on_presence_sync(lambda: synced.append(1))
        await subscribed(ca)
        await subscribed(cb)
        await ca.track({"status": "online"})
        assert await until(lambda: "ana" in cb.presence_state()), f"b's state: {cb.presence_state()}"
        metas = cb.presence_state()["ana"]
        assert metas and metas[0].get("status") == "online", metas
        await ca.untrack()
        assert await until(lambda: "ana" not in cb.presence_state()), f"after untrack: {cb.presence_state()}"
        assert synced, "no presence sync callback ran"
        await a.close()
        await b.close()

    asyncio.run(run())
