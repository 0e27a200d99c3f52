#!/usr/bin/env python3
"""Mixed traffic against `contracts serve --app naarscars` for scripts/soak (Python stdlib only).

Runs for a fixed time, then stops by itself:
- user workers (personas alice, bob, carol): password sign-in, token refresh, REST reads under RLS,
  ride inserts with a unique marker (each acknowledged 201 recorded), RPC, an edge function,
  storage uploads into the user's own folder and downloads back;
- a sign-up worker (new e-mail each time);
- a fresh-client probe in a process of its own (a new connection every 2 s);
- hostile clients in one selector loop: idle sockets, slowloris heads (a byte every few seconds),
  slow bodies (a head, then a byte every few seconds);
then reconciles every acknowledged write through the service role (each marker present exactly
once, none that was never sent) and prints one JSON object with the counts.

Traffic goes to 127.0.0.1 only.
"""
import http.client
import json
import multiprocessing
import os
import random
import selectors
import socket
import sys
import threading
import time
import uuid

HOST = "127.0.0.1"


class Tally:
    """Counts by class, shared by the workers."""

    def __init__(self):
        self.lock = threading.Lock()
        self.counts = {}

    def add(self, key, n=1):
        with self.lock:
            self.counts[key] = self.counts.get(key, 0) + n


class Client:
    """One keep-alive connection; reconnects after a transport error."""

    def __init__(self, port, anon, tally):
        self.port, self.anon, self.tally = port, anon, tally
        self.conn = None

    def request(self, method, path, body=None, token=None, headers=None, expect=None):
        h = {"apikey": self.anon, "Authorization": "Bearer " + (token or self.anon)}
        if body is not None and not isinstance(body, (bytes, bytearray)):
            body = json.dumps(body).encode()
            h["Content-Type"] = "application/json"
        h.update(headers or {})
        for attempt in range(2):
            try:
                if self.conn is None:
                    self.conn = http.client.HTTPConnection(HOST, self.port, timeout=30)
                self.conn.request(method, path, body=body, headers=h)
                r = self.conn.getresponse()
                data = r.read()
                self.tally.add("requests")
                self.tally.add("%dxx" % (r.status // 100))
                if expect is not None and r.status not in expect:
                    self.tally.add("unexpected status")
                    with self.tally.lock:
                        samples = self.tally.counts.setdefault("_samples", {})
                        key = "%s %s -> %d" % (method, path.split("?")[0], r.status)
                        if key not in samples and len(samples) < 10:
                            samples[key] = data[:160].decode("utf-8", "replace")
                return r.status, data
            except (OSError, http.client.HTTPException) as e:
                self.tally.add("transport error: " + type(e).__name__)
                try:
                    self.conn.close()
                except Exception:
                    pass
                self.conn = None
        return 0, b""


def user_worker(port, anon, persona, stop_at, tally, acked, sent, seed):
    rnd = random.Random(seed)
    c = Client(port, anon, tally)
    st, data = c.request("POST", "/auth/v1/token?grant_type=password",
                         {"email": persona["email"], "password": persona["password"]}, expect=[200])
    if st != 200:
        tally.add("sign-in failed")
        return
    session = json.loads(data)
    token, refresh = session["access_token"], session["refresh_token"]
    uid = session["user"]["id"]
    n = 0
    next_write = 0.0
    while time.time() < stop_at:
        n += 1
        op = rnd.random()
        # Writes that add state (rides) are paced, so that memory can be judged flat.
        if 0.30 <= op < 0.50 and time.time() < next_write:
            op = 0.0
        if op < 0.30:
            c.request("GET", "/rest/v1/rides?select=id,status,pickup&order=created_at.desc&limit=20", token=token, expect=[200])
        elif op < 0.50:
            next_write = time.time() + 0.1
            marker = "soak-%s" % uuid.UUID(int=rnd.getrandbits(128))
            with tally.lock:
                sent.add(marker)
            st, _ = c.request("POST", "/rest/v1/rides", {
                "user_id": uid, "date": "2026-02-01", "time": "09:00", "pickup": marker, "destination": "soak"},
                token=token, headers={"Prefer": "return=minimal"}, expect=[201])
            if st == 201:
                with tally.lock:
                    acked.append(marker)
        elif op < 0.60:
            c.request("POST", "/rest/v1/rpc/get_leaderboard", {"time_filter": "month", "limit_count": 10}, token=token, expect=[200])
        elif op < 0.68:
            st, data = c.request("POST", "/auth/v1/token?grant_type=refresh_token", {"refresh_token": refresh}, expect=[200])
            if st == 200:
                s = json.loads(data)
                token, refresh = s["access_token"], s["refresh_token"]
        elif op < 0.74:
            c.request("GET", "/auth/v1/user", token=token, expect=[200])
        elif op < 0.84:
            name = "%s/soak-%d.png" % (uid, n % 8)  # upserts over a few names: storage does not grow
            png = b"\x89PNG\r\n\x1a\n" + bytes(rnd.getrandbits(8) for _ in range(512))
            st, _ = c.request("POST", "/storage/v1/object/avatars/" + name, png, token=token,
                              headers={"Content-Type": "image/png", "x-upsert": "true"}, expect=[200])
            if st == 200:
                st2, body = c.request("GET", "/storage/v1/object/authenticated/avatars/" + name, token=token, expect=[200])
                if st2 == 200 and body != png:
                    tally.add("storage read back differs")
        elif op < 0.92:
            c.request("POST", "/functions/v1/refresh-leaderboard", {}, token=token, expect=[200, 401, 403])
        else:
            # RLS: another user's profile update affects nothing.
            c.request("PATCH", "/rest/v1/profiles?id=neq.%s" % uid, {"name": "x"}, token=token,
                      headers={"Prefer": "return=representation"}, expect=[200])


def signup_worker(port, anon, stop_at, tally, seed):
    rnd = random.Random(seed)
    c = Client(port, anon, tally)
    while time.time() < stop_at:
        email = "soak-%x@soak.test" % rnd.getrandbits(64)
        c.request("POST", "/auth/v1/signup", {"email": email, "password": "Soak-password-1"}, expect=[200])
        time.sleep(0.2)  # paced: each sign-up adds a user


def fresh_client_probe(port, anon, stop_at, queue):
    """Every 2 s a brand-new connection asks for one page: how long a newcomer waits.

    Runs in a process of its own, so that what it measures is the server (and the machine), not
    this script's other threads holding the interpreter lock while they reopen a thousand sockets.
    Puts (latencies, {problem: count}) on `queue` at the end."""
    latencies, problems = [], {}
    while time.time() < stop_at:
        t0 = time.monotonic()
        try:
            conn = http.client.HTTPConnection(HOST, port, timeout=30)
            conn.request("GET", "/rest/v1/rides?select=id&limit=1", headers={"apikey": anon})
            status = conn.getresponse().status
            conn.close()
            latencies.append(time.monotonic() - t0)
            if status != 200:
                key = "fresh client status %d" % status
                problems[key] = problems.get(key, 0) + 1
        except (OSError, http.client.HTTPException) as e:
            key = "transport error: fresh client " + type(e).__name__
            problems[key] = problems.get(key, 0) + 1
        time.sleep(2)
    queue.put((latencies, problems))


def hostile_loop(port, stop_at, tally, idle, slowloris, slowbody, interval):
    """Holds idle, slowloris and slow-body connections; reopens any the server closes."""
    sel = selectors.DefaultSelector()
    kinds = ["idle"] * idle + ["slowloris"] * slowloris + ["slowbody"] * slowbody
    state = {}

    def open_one(kind):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setblocking(False)
        try:
            s.connect((HOST, port))
        except BlockingIOError:
            pass
        except OSError:
            tally.add("hostile connect failed")
            return
        sel.register(s, selectors.EVENT_READ, kind)
        payload = b""
        if kind == "slowbody":
            payload = b"POST /rest/v1/rides HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n"
        elif kind == "slowloris":
            payload = b"GET /rest/v1/rides HTTP/1.1\r\nHost: h\r\n"
        state[s] = [kind, payload, 0.0]
        tally.add("hostile opened: " + kind)

    for k in kinds:
        open_one(k)
    while time.time() < stop_at:
        for key, _ in sel.select(timeout=0.5):
            s = key.fileobj
            kind = key.data
            try:
                data = s.recv(65536)
            except OSError:
                data = b""
            if not data:
                sel.unregister(s)
                s.close()
                state.pop(s, None)
                tally.add("hostile closed by server: " + kind)
                open_one(kind)
            elif data.startswith(b"HTTP/1.1 408"):
                tally.add("hostile got 408: " + kind)
        now = time.time()
        for s, st in list(state.items()):
            kind, payload, last = st
            if kind == "idle" or now - last < interval:
                continue
            try:
                # First the request's opening, then one byte per interval, never the end.
                s.send(payload if payload else (b"a" if kind == "slowloris" else b"b"))
            except OSError:
                pass
            st[1], st[2] = b"", now
    for s in list(state):
        s.close()


def main():
    port, anon, service, seconds = int(sys.argv[1]), sys.argv[2], sys.argv[3], float(sys.argv[4])
    personas = json.loads(sys.argv[5])
    idle, slowloris, slowbody = (int(x) for x in sys.argv[6].split(","))
    tally = Tally()
    acked, sent = [], set()
    stop_at = time.time() + seconds
    threads = []
    for i, p in enumerate(personas):
        threads.append(threading.Thread(target=user_worker, args=(port, anon, p, stop_at, tally, acked, sent, 1000 + i)))
    threads.append(threading.Thread(target=signup_worker, args=(port, anon, stop_at, tally, 7)))
    probe_results = multiprocessing.Queue()
    probe = multiprocessing.Process(target=fresh_client_probe, args=(port, anon, stop_at, probe_results))
    probe.start()
    threads.append(threading.Thread(target=hostile_loop, args=(port, stop_at, tally, idle, slowloris, slowbody, 5.0)))
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    latencies, probe_problems = probe_results.get()
    probe.join()
    for key, n in probe_problems.items():
        tally.add(key, n)
    # Reconcile through the service role: every acknowledged write exactly once, nothing unsent.
    c = Client(port, service, tally)
    st, data = c.request("GET", "/rest/v1/rides?select=pickup&pickup=like.soak-*", token=service)
    rows = json.loads(data) if st == 200 else []
    seen = {}
    for r in rows:
        seen[r["pickup"]] = seen.get(r["pickup"], 0) + 1
    lost = [m for m in acked if m not in seen]
    duplicated = [m for m, k in seen.items() if k > 1]
    unsent = [m for m in seen if m not in sent]
    counts = dict(tally.counts)
    samples = ["%s %s" % kv for kv in counts.pop("_samples", {}).items()]
    print(json.dumps({
        "counts": counts, "samples": samples, "acknowledged_writes": len(acked), "rows_found": len(rows),
        "lost": len(lost), "duplicated": len(duplicated), "never_sent": len(unsent), "reconcile_status": st,
        "fresh_client_max_seconds": max(latencies) if latencies else None, "fresh_client_probes": len(latencies),
        "fresh_client_median_seconds": sorted(latencies)[len(latencies) // 2] if latencies else None,
        "fresh_client_over_1s": sum(1 for x in latencies if x > 1.0),
    }))


if __name__ == "__main__":
    main()
