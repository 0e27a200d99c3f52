"""Interop harness: serves an app's mock with `contracts serve`, runs flows through the official
Supabase Python client, prints one line per flow and `N passed, M failed, K skipped`.

A flow is skipped only when the served app lacks something it needs by name (an edge function,
a database function, a storage bucket, a contracts folder): `contracts serve` prints what it has.
Every other problem, including an unexpected response, is a failure.
"""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
import traceback
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parents[2]


class Skip(Exception):
    """Raised by a flow whose prerequisite is not part of the served app."""


@dataclass
class Persona:
    name: str
    id: str
    email: str
    password: str
    label: str


@dataclass
class Served:
    """What `contracts serve` printed."""

    app: str
    url: str
    anon_key: str
    service_role_key: str
    functions: list[str]
    rpcs: list[str]
    buckets: list[str]
    process: subprocess.Popen
    output: list[str] = field(default_factory=list)


class Server:
    """Starts `contracts serve --app APP --port 0` and stops it (SIGINT, then SIGKILL)."""

    def __init__(self, binary: str, app: str, timeout: float = 120.0):
        self.binary, self.app, self.timeout = binary, app, timeout
        self.served: Served | None = None

    def __enter__(self) -> Served:
        proc = subprocess.Popen(
            [self.binary, "serve", "--app", self.app, "--port", "0"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1,
        )
        lines: list[str] = []
        values: dict[str, str] = {}
        deadline = time.monotonic() + self.timeout
        done = threading.Event()

        def read() -> None:
            for line in proc.stdout:  # type: ignore[union-attr]
                lines.append(line.rstrip("\n"))
                if line.startswith("limits:"):
                    done.set()
            done.set()

        reader = threading.Thread(target=read, daemon=True)
        reader.start()
        done.wait(max(0.0, deadline - time.monotonic()))
        for line in lines:
            m = re.match(r"^(SUPABASE_[A-Z_]+)=(.*)$", line)
            if m:
                values[m.group(1)] = m.group(2)
        if "SUPABASE_URL" not in values:
            self._stop(proc)
            raise RuntimeError(f"contracts serve --app {self.app} printed no URL:\n" + "\n".join(lines[-20:]))

        def listed(prefix: str) -> list[str]:
            for line in lines:
                if line.startswith(prefix):
                    rest = line[len(prefix):].strip()
                    return [] if rest == "(none)" else [x.strip() for x in rest.split(",")]
            return []

        self.served = Served(
            app=self.app, url=values["SUPABASE_URL"], anon_key=values["SUPABASE_ANON_KEY"],
            service_role_key=values["SUPABASE_SERVICE_ROLE_KEY"], functions=listed("edge functions:"),
            rpcs=listed("database functions:"), buckets=listed("storage buckets:"), process=proc, output=lines,
        )
        self._proc = proc
        return self.served

    @staticmethod
    def _stop(proc: subprocess.Popen) -> None:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    def __exit__(self, *exc) -> None:
        self._stop(self._proc)


class App:
    """An app's contracts as the flows need them: personas and fixture rows."""

    def __init__(self, name: str):
        self.name = name
        self.folder = ROOT / "Contracts" / name
        fixtures = self.folder / "fixtures.json"
        if not fixtures.exists():
            raise Skip(f"Contracts/{name}/fixtures.json is not there yet")
        data = json.loads(fixtures.read_text())
        self.personas = {p["name"]: Persona(p["name"], p["id"], p["email"], p["password"], p.get("label", ""))
                         for p in data.get("personas", [])}
        self.tables: dict[str, list[dict]] = {}
        for entry in data.get("tables", []):
            rows = entry.get("rows")
            if rows is None and "file" in entry:
                rows = json.loads((self.folder / entry["file"]).read_text())
            self.tables.setdefault(entry["table"], []).extend(rows or [])
        schema = self.folder / "schema.json"
        self.schema = json.loads(schema.read_text()) if schema.exists() else {"tables": []}

    def persona(self, name: str) -> Persona:
        if name not in self.personas:
            raise Skip(f"persona '{name}' is not in Contracts/{self.name}/fixtures.json")
        return self.personas[name]

    def rows(self, table: str) -> list[dict]:
        return self.tables.get(table, [])

    def table_schema(self, table: str) -> dict:
        for t in self.schema.get("tables", []):
            if t["name"] == table:
                return t
        raise Skip(f"table '{table}' is not in Contracts/{self.name}/schema.json")


class Context:
    """What a flow gets: the served mock, the app's contracts, client factories."""

    def __init__(self, served: Served, app: App):
        self.served, self.app = served, app

    def client(self, key: str | None = None):
        """A fresh official client with its own in-memory session."""
        from supabase import ClientOptions, create_client
        from supabase_auth import SyncMemoryStorage

        options = ClientOptions(storage=SyncMemoryStorage(), auto_refresh_token=False, persist_session=False)
        return create_client(self.served.url, key or self.served.anon_key, options)

    def signed_in(self, persona: str):
        p = self.app.persona(persona)
        c = self.client()
        res = c.auth.sign_in_with_password({"email": p.email, "password": p.password})
        assert res.session is not None and res.user is not None, f"{persona}: no session"
        assert res.user.id == p.id, f"{persona}: signed in as {res.user.id}, fixtures say {p.id}"
        return c

    def service(self):
        return self.client(self.served.service_role_key)

    def need_function(self, name: str) -> None:
        if name not in self.served.functions:
            raise Skip(f"edge function '{name}' is not registered by the {self.app.name} module yet")

    def need_rpc(self, name: str) -> None:
        if name not in self.served.rpcs:
            raise Skip(f"database function '{name}' is not registered by the {self.app.name} module yet")

    def need_bucket(self, name: str) -> None:
        if name not in self.served.buckets:
            raise Skip(f"storage bucket '{name}' is not in Contracts/{self.app.name}/storage.json yet")
        # The bucket is configured; is Storage itself served? Its stub answers every request 404
        # "Storage is not configured". Any other answer is Storage's own, and is tested.
        import httpx

        r = httpx.get(f"{self.served.url}/storage/v1/bucket", headers={
            "apikey": self.served.service_role_key, "Authorization": f"Bearer {self.served.service_role_key}"})
        if r.status_code == 404 and "not configured" in r.text:
            raise Skip(f"Storage is not served yet (GET /storage/v1/bucket answers 404: {r.json().get('message')})")

    def need_server_pieces(self, what: str) -> None:
        """For behaviour that lives in the app module's triggers: skip while the module registers
        nothing at all (no edge function, no database function), i.e. has not landed."""
        if not self.served.functions and not self.served.rpcs:
            raise Skip(f"{what}: the {self.app.name} module registers no server-side pieces yet")

    @staticmethod
    def unique_email(prefix: str) -> str:
        return f"{prefix}-{uuid.uuid4().hex[:10]}@interop.test"


def api_error(call: Callable[[], object]):
    """Runs `call`, which must fail with PostgREST's APIError; returns the error."""
    from postgrest.exceptions import APIError

    try:
        result = call()
    except APIError as e:
        return e
    raise AssertionError(f"expected a PostgREST error, got {getattr(result, 'data', result)!r}")


@dataclass
class Flow:
    app: str
    name: str
    source: str
    run: Callable[[Context], None]


FLOWS: list[Flow] = []


def flow(app: str, name: str, source: str = ""):
    """Registers a flow: `source` names the document section it comes from."""

    def register(fn: Callable[[Context], None]) -> Callable[[Context], None]:
        FLOWS.append(Flow(app, name, source, fn))
        return fn

    return register


def run_all(binary: str, apps: list[str], only: str | None = None) -> int:
    passed = failed = skipped = 0
    for app_name in apps:
        flows = [f for f in FLOWS if f.app == app_name and (only is None or only in f.name)]
        if not flows:
            continue
        try:
            app = App(app_name)
        except Skip as s:
            for f in flows:
                print(f"SKIP {app_name} · {f.name} · {s}")
            skipped += len(flows)
            continue
        try:
            server = Server(binary, app_name)
            served = server.__enter__()
        except Exception as e:  # the server itself did not come up: every flow fails
            for f in flows:
                print(f"FAIL {app_name} · {f.name} · server did not start: {e}")
            failed += len(flows)
            continue
        try:
            print(f"# {app_name}: {served.url} — functions: {served.functions or '-'}; rpc: {served.rpcs or '-'}; buckets: {served.buckets or '-'}")
            ctx = Context(served, app)
            for f in flows:
                started = time.monotonic()
                try:
                    f.run(ctx)
                except Skip as s:
                    skipped += 1
                    print(f"SKIP {app_name} · {f.name} · {s}")
                except Exception as e:  # noqa: BLE001 — every failure is reported, none stops the run
                    failed += 1
                    detail = "".join(traceback.format_exception_only(type(e), e)).strip().replace("\n", " ")
                    where = traceback.extract_tb(e.__traceback__)[-1]
                    print(f"FAIL {app_name} · {f.name} · {detail} ({Path(where.filename).name}:{where.lineno})")
                else:
                    passed += 1
                    print(f"PASS {app_name} · {f.name} ({(time.monotonic() - started) * 1000:.0f} ms)")
                sys.stdout.flush()
        finally:
            server.__exit__(None, None, None)
            tail = [l for l in served.output if l.startswith("contracts serve: stopped")]
            if tail:
                print(f"# {tail[-1]}")
    print(f"{passed} passed, {failed} failed, {skipped} skipped")
    return 1 if failed else 0
