"""GoTrue and Storage through the official Python client: typed auth errors, PKCE, e-mail
verification, password reset, signed URLs, move/copy and bucket management (documents 002 §3,
003 §7.2 and §11, 001 FR-045; Contracts/<app>/auth.json and storage.json).

Expected values come from the contracts and from GoTrue's and Storage's documented answers, never
from the mock's output.
"""
from __future__ import annotations

import uuid
from urllib.parse import parse_qs, urlsplit

import httpx

from harness import Context, flow

CALLBACK = "https://civicforge.org/auth/callback"
JPEG = b"\xff\xd8\xff\xe0" + b"\x00" * 64


def _pkce_client(ctx: Context):
    from supabase import ClientOptions, create_client
    from supabase_auth import SyncMemoryStorage

    options = ClientOptions(storage=SyncMemoryStorage(), auto_refresh_token=False, persist_session=False, flow_type="pkce")
    return create_client(ctx.served.url, ctx.served.anon_key, options)


def _auth_error(call):
    """Runs `call`, which must raise one of supabase_auth's typed errors; returns it."""
    from supabase_auth.errors import AuthError

    try:
        result = call()
    except AuthError as e:
        return e
    raise AssertionError(f"expected an auth error, got {result!r}")


def _storage_error(call):
    from storage3.exceptions import StorageApiError

    try:
        result = call()
    except StorageApiError as e:
        return e
    raise AssertionError(f"expected a Storage error, got {result!r}")


def _email_otp(ctx: Context, kind: str, email: str) -> str:
    """The code an e-mail of this kind would carry (GoTrue's admin generate_link)."""
    res = ctx.service().auth.admin.generate_link({"type": kind, "email": email})
    return res.properties.email_otp


# CivicForge ------------------------------------------------------------------------------------

@flow("civicforge", "auth errors arrive as the client's typed errors (2024-01-01 shape)", "GoTrue errors.go; 002 §3")
def typed_auth_errors(ctx: Context) -> None:
    from supabase_auth.errors import AuthApiError, AuthWeakPasswordError

    ana = ctx.app.persona("ana")
    wrong = _auth_error(lambda: ctx.client().auth.sign_in_with_password({"email": ana.email, "password": "not-it"}))
    assert isinstance(wrong, AuthApiError) and wrong.code == "invalid_credentials" and wrong.status == 400, (type(wrong), wrong.code)
    assert wrong.message == "Invalid login credentials", wrong.message
    weak = _auth_error(lambda: ctx.client().auth.sign_up({"email": ctx.unique_email("weak"), "password": "abc"}))
    assert isinstance(weak, AuthWeakPasswordError) and weak.code == "weak_password" and list(weak.reasons) == ["length"], (type(weak), weak.code)
    taken = _auth_error(lambda: ctx.client().auth.sign_up({"email": ana.email, "password": "long-enough-1"}))
    assert isinstance(taken, AuthApiError) and taken.code == "user_already_exists" and taken.status == 422, (type(taken), taken.code)
    code = _auth_error(lambda: ctx.client().auth.verify_otp({"email": ana.email, "token": "000000", "type": "email"}))
    assert code.code == "otp_expired" and code.status == 403, code.code
    anon = _auth_error(lambda: ctx.client().auth.sign_in_anonymously())
    assert anon.code == "anonymous_provider_disabled" and anon.status == 422, anon.code


@flow("civicforge", "magic link code (§3 step 6 fallback): the emailed code signs in, once", "002 §3 Magic Link steps 2, 6")
def magic_link_code(ctx: Context) -> None:
    ben = ctx.app.persona("ben")
    c = ctx.client()
    assert c.auth.sign_in_with_otp({"email": ben.email, "options": {"email_redirect_to": CALLBACK}}) is not None
    otp = _email_otp(ctx, "magiclink", ben.email)
    assert len(otp) == 6 and otp.isdigit(), otp
    res = c.auth.verify_otp({"email": ben.email, "token": otp, "type": "email"})
    assert res.session is not None and res.user.id == ben.id, res
    again = _auth_error(lambda: ctx.client().auth.verify_otp({"email": ben.email, "token": otp, "type": "email"}))
    assert again.code == "otp_expired", again.code


@flow("civicforge", "Google sign-in (PKCE): authorize, provider, callback to the universal link, code exchange", "002 §3 Google OAuth Option A")
def google_pkce(ctx: Context) -> None:
    c = _pkce_client(ctx)
    email = ctx.unique_email("google")
    res = c.auth.sign_in_with_oauth({"provider": "google", "options": {"redirect_to": CALLBACK, "query_params": {"login_hint": email}}})
    q = parse_qs(urlsplit(res.url).query)
    assert q.get("code_challenge_method") == ["s256"] and q.get("code_challenge"), res.url
    with httpx.Client(follow_redirects=False) as h:
        start = h.get(res.url)
        assert start.status_code == 302, start.status_code
        back = h.get(httpx.URL(ctx.served.url).join(start.headers["location"]))
        assert back.status_code == 302, (back.status_code, back.text)
    landing = urlsplit(back.headers["location"])
    assert f"{landing.scheme}://{landing.netloc}{landing.path}" == CALLBACK, back.headers["location"]
    code = parse_qs(landing.query)["code"][0]
    session = c.auth.exchange_code_for_session({"auth_code": code})
    assert session.user.email == email and session.user.app_metadata.get("provider") == "google", session.user
    reused = _auth_error(lambda: _pkce_client(ctx).auth.exchange_code_for_session({"auth_code": code, "code_verifier": "x" * 43}))
    assert reused.code == "flow_state_not_found" and reused.status == 404, reused.code


@flow("civicforge", "post photo: signed URLs (one and many) download without a session; info, exists", "002 §3 Storage 'download signed URLs'")
def signed_photos(ctx: Context) -> None:
    ctx.need_bucket("post-photos")
    ana = ctx.app.persona("ana")
    bucket = ctx.signed_in("ana").storage.from_("post-photos")
    name = f"{ana.id}/{uuid.uuid4()}.jpg"
    bucket.upload(name, JPEG, {"content-type": "image/jpeg"})
    one = bucket.create_signed_url(name, 60)
    url = one["signedURL"]
    assert "/object/sign/post-photos/" in url and "token=" in url, url
    got = httpx.get(url)
    assert got.status_code == 200 and got.content == JPEG and got.headers["content-type"] == "image/jpeg", got.status_code
    many = bucket.create_signed_urls([name, f"{ana.id}/missing.jpg"], 60)
    assert many[0]["error"] is None and many[0]["path"] == name and httpx.get(many[0]["signedURL"]).content == JPEG, many[0]
    assert many[1]["error"] == "Either the object does not exist or you do not have access to it" and many[1]["signedURL"] is None, many[1]
    info = bucket.info(name)
    assert info["name"] == name and info["size"] == len(JPEG) and info["content_type"] == "image/jpeg", info
    assert bucket.exists(name) and not bucket.exists(f"{ana.id}/missing.jpg")
    omar = ctx.signed_in("omar").storage.from_("post-photos")
    err = _storage_error(lambda: omar.create_signed_url(name, 60))
    assert err.code == "not_found" and str(err.status) == "404", (err.code, err.status)


@flow("civicforge", "move and copy in one's own folder; signed upload URL", "002 §3 storage {user_id}/*; Storage move/copy")
def move_copy(ctx: Context) -> None:
    ctx.need_bucket("post-photos")
    ana = ctx.app.persona("ana")
    bucket = ctx.signed_in("ana").storage.from_("post-photos")
    src, dst, cp = (f"{ana.id}/{uuid.uuid4()}.jpg" for _ in range(3))
    bucket.upload(src, JPEG, {"content-type": "image/jpeg"})
    moved = bucket.move(src, dst)
    assert moved["message"] == "Successfully moved" and moved["Key"] == dst, moved
    assert not bucket.exists(src) and bucket.exists(dst)
    copied = bucket.copy(dst, cp)
    assert copied["Key"] == f"post-photos/{cp}" and copied["name"] == cp and copied["Id"] == copied["id"], copied
    assert bucket.download(cp) == JPEG
    up = bucket.create_signed_upload_url(f"{ana.id}/signed.jpg")
    done = ctx.client().storage.from_("post-photos").upload_to_signed_url(f"{ana.id}/signed.jpg", up["token"], JPEG,
                                                                          {"content-type": "image/jpeg"})
    assert done is not None and bucket.download(f"{ana.id}/signed.jpg") == JPEG
    # storage3 itself refuses dot segments before sending; the server's own answer, sent raw:
    token = ctx.signed_in("ana").auth.get_session().access_token
    raw = httpx.post(f"{ctx.served.url}/storage/v1/object/post-photos/{ana.id}/%2E%2E/escape.jpg", content=JPEG,
                     headers={"apikey": ctx.served.anon_key, "Authorization": f"Bearer {token}", "Content-Type": "image/jpeg"})
    body = raw.json()
    assert raw.status_code == 400 and body["code"] == "InvalidKey" and body["message"].endswith(" contains dot path segment"), body


@flow("civicforge", "buckets: the service role creates, updates, empties, deletes; a user may not create", "Storage bucket routes")
def buckets(ctx: Context) -> None:
    ctx.need_bucket("post-photos")
    admin = ctx.service().storage
    name = f"interop-{uuid.uuid4().hex[:8]}"
    assert admin.create_bucket(name, options={"public": False, "file_size_limit": 1024, "allowed_mime_types": ["image/*"]}) == {"name": name}
    b = admin.get_bucket(name)
    assert b.id == name and b.public is False and b.file_size_limit == 1024, b
    assert admin.update_bucket(name, {"public": True}) == {"message": "Successfully updated"}
    assert admin.get_bucket(name).public is True
    admin.from_(name).upload("a.png", b"\x89PNG", {"content-type": "image/png"})
    full = _storage_error(lambda: admin.delete_bucket(name))
    assert full.code == "ResourceNotEmpty" and str(full.status) == "409", (full.code, full.status)
    assert "queued" in admin.empty_bucket(name)["message"]
    assert admin.delete_bucket(name) == {"message": "Successfully deleted"}
    refused = _storage_error(lambda: ctx.signed_in("ana").storage.create_bucket(f"{name}-user"))
    assert str(refused.status) == "403" and "row-level security" in refused.message, (refused.status, refused.message)


# Aura ------------------------------------------------------------------------------------------

@flow("aura", "sign-up with e-mail verification: no session until verify type=signup; §7.2's birthdate as written", "003 §7.2, §11")
def aura_signup_verification(ctx: Context) -> None:
    from postgrest.exceptions import APIError

    email = ctx.unique_email("aura")
    c = ctx.client()
    res = c.auth.sign_up({"email": email, "password": "aura-password-9"})
    assert res.session is None and res.user is not None and res.user.email_confirmed_at is None, res
    early = _auth_error(lambda: ctx.client().auth.sign_in_with_password({"email": email, "password": "aura-password-9"}))
    assert early.code == "email_not_confirmed", early.code
    otp = _email_otp(ctx, "signup", email)
    verified = c.auth.verify_otp({"email": email, "token": otp, "type": "signup"})
    assert verified.session is not None and verified.user.id == res.user.id, verified
    row = {"id": res.user.id, "name": "Nora", "birthdate": "1992-08-23T00:00:00Z", "zodiac_sign": "virgo", "mbti_type": "ENFJ"}
    try:
        inserted = c.table("users").insert(row).execute().data
    except APIError as e:  # pragma: no cover — reported as the failure
        raise AssertionError(f"§7.2's insert was refused: {e.code} {e.message}")
    assert inserted[0]["birthdate"] == "1992-08-23", inserted


# Naar's Cars -----------------------------------------------------------------------------------

@flow("naarscars", "password reset: recover, the recovery code, a new password; GoTrue's own interval", "001 FR-045 Password reset")
def password_reset(ctx: Context) -> None:
    carol = ctx.app.persona("carol")
    c = ctx.client()
    c.auth.reset_password_for_email(carol.email, {"redirect_to": "naarscars://reset-password"})
    again = _auth_error(lambda: ctx.client().auth.reset_password_for_email(carol.email))
    assert again.code == "over_email_send_rate_limit" and again.status == 429, again.code
    otp = _email_otp(ctx, "recovery", carol.email)
    res = c.auth.verify_otp({"email": carol.email, "token": otp, "type": "recovery"})
    assert res.session is not None and res.user.id == carol.id, res
    c.auth.update_user({"password": "Interop-Reset-77"})
    old = _auth_error(lambda: ctx.client().auth.sign_in_with_password({"email": carol.email, "password": carol.password}))
    assert old.code == "invalid_credentials", old.code
    fresh = ctx.client()
    new = fresh.auth.sign_in_with_password({"email": carol.email, "password": "Interop-Reset-77"})
    assert new.user.id == carol.id and new.session is not None
    fresh.auth.update_user({"password": carol.password})  # the fixtures' password again, for later flows


@flow("civicforge", "admin: the service role creates, reads, lists, updates and deletes users", "GoTrue admin.go")
def admin_users(ctx: Context) -> None:
    admin = ctx.service().auth.admin
    email = ctx.unique_email("admin")
    made = admin.create_user({"email": email, "password": "admin-made-1", "email_confirm": True, "user_metadata": {"name": "Ada"}})
    assert made.user.email == email and made.user.email_confirmed_at is not None and made.user.user_metadata == {"name": "Ada"}, made.user
    assert admin.get_user_by_id(made.user.id).user.id == made.user.id
    assert any(u.id == made.user.id for u in admin.list_users(page=1, per_page=1000))
    updated = admin.update_user_by_id(made.user.id, {"user_metadata": {"plan": "pro"}})
    assert updated.user.user_metadata == {"name": "Ada", "plan": "pro"}, updated.user.user_metadata
    dup = _auth_error(lambda: admin.create_user({"email": email, "password": "admin-made-1"}))
    assert dup.code == "email_exists" and dup.status == 422, dup.code
    assert ctx.client().auth.sign_in_with_password({"email": email, "password": "admin-made-1"}).session is not None
    admin.delete_user(made.user.id)
    gone = _auth_error(lambda: admin.get_user_by_id(made.user.id))
    assert gone.code == "user_not_found" and gone.status == 404, gone.code
