-- CivicForge domain rules checked on PostgreSQL, the same cases as CivicForgeDomainChecks runs on
-- the mock. Needs the migrations and Contracts/civicforge/fixtures.json loaded
-- (scripts/postgres start civicforge --seed); run with psql -v ON_ERROR_STOP=1. Every case runs
-- in a rolled-back transaction; a broken rule stops the script with "FAIL: …".
--
-- Personas: ana, ben, cal (tier 2, Northside), tova (tier 1, Northside), omar (tier 2, Southside).
\o /dev/null
\set ana  '''{"sub":"c0000000-0000-4000-8000-000000000001","role":"authenticated"}'''
\set ben  '''{"sub":"c0000000-0000-4000-8000-000000000002","role":"authenticated"}'''
\set cal  '''{"sub":"c0000000-0000-4000-8000-000000000003","role":"authenticated"}'''
\set tova '''{"sub":"c0000000-0000-4000-8000-000000000004","role":"authenticated"}'''
\set omar '''{"sub":"c0000000-0000-4000-8000-000000000005","role":"authenticated"}'''

-- Tier gate: tova (tier 1) cannot post; ben (tier 2) can, into Northside ------------------------
begin;
select set_config('request.jwt.claims', :tova, true);
set local role authenticated;
do $$ begin
  insert into public.posts (type, title, description, category) values ('need', 'x', 'x', 'x');
  raise exception 'FAIL: tova (tier 1) posted';
exception when insufficient_privilege then raise notice 'ok: tier 1 cannot post';
end $$;
rollback;
begin;
select set_config('request.jwt.claims', :ben, true);
set local role authenticated;
do $$
declare n uuid;
begin
  insert into public.posts (type, title, description, category) values ('offer', 'x', 'x', 'x') returning neighborhood_id into n;
  if n is distinct from 'c1000000-0000-4000-8000-000000000001' then raise exception 'FAIL: post neighbourhood %', n; end if;
  raise notice 'ok: tier 2 posts into its neighbourhood';
end $$;
rollback;

-- Tier gate: responding ---------------------------------------------------------------------------
begin;
select set_config('request.jwt.claims', :omar, true);
set local role authenticated;
do $$ begin
  insert into public.responses (post_id, message) values ('c2000000-0000-4000-8000-000000000001', 'x');
  raise exception 'FAIL: omar responded across neighbourhoods';
exception when insufficient_privilege then raise notice 'ok: no response across neighbourhoods';
end $$;
rollback;

-- Neighbourhood reads and hidden posts ----------------------------------------------------------
begin;
select set_config('request.jwt.claims', :omar, true);
set local role authenticated;
do $$ begin
  if (select array_agg(title order by title) from public.posts) is distinct from array['Dog walker for a week'] then
    raise exception 'FAIL: omar sees %', (select array_agg(title) from public.posts);
  end if;
  if (select count(*) from public.profiles) <> 1 then raise exception 'FAIL: omar sees other profiles'; end if;
  raise notice 'ok: another neighbourhood sees nothing';
end $$;
rollback;
begin;
select set_config('request.jwt.claims', :ana, true);
set local role authenticated;
do $$ begin
  if exists (select 1 from public.posts where title = 'Cheap concert tickets') then raise exception 'FAIL: ana sees a hidden post'; end if;
  raise notice 'ok: hidden post invisible to a neighbour';
end $$;
select set_config('request.jwt.claims', :cal, true);
do $$ begin
  if not exists (select 1 from public.posts where title = 'Cheap concert tickets') then raise exception 'FAIL: cal lost her hidden post'; end if;
  raise notice 'ok: hidden post visible to its author';
end $$;
rollback;

-- The third flag hides the post -------------------------------------------------------------------
begin;
select set_config('request.jwt.claims', :tova, true);
set local role authenticated;
insert into public.post_flags (post_id, reason) values ('c2000000-0000-4000-8000-000000000002', 'spam');
select set_config('request.jwt.claims', :ana, true);
do $$ begin
  if exists (select 1 from public.posts where id = 'c2000000-0000-4000-8000-000000000002') then raise exception 'FAIL: the ladder is still visible'; end if;
end $$;
reset role;
do $$ begin
  if not exists (select 1 from public.posts where id = 'c2000000-0000-4000-8000-000000000002' and hidden and flag_count = 3 and review_status = 'pending') then
    raise exception 'FAIL: ladder not hidden/queued: %', (select row(hidden, flag_count, review_status) from public.posts where id = 'c2000000-0000-4000-8000-000000000002');
  end if;
  raise notice 'ok: third flag hides the post and queues it';
end $$;
rollback;

-- A user cannot raise its own trust tier; the author cannot unhide -------------------------------
begin;
select set_config('request.jwt.claims', :tova, true);
set local role authenticated;
do $$ begin
  update public.profiles set trust_tier = 2 where id = auth.uid();
  raise exception 'FAIL: tova raised her tier';
exception when insufficient_privilege then
  if sqlerrm <> 'column "trust_tier" of table "profiles" is managed by the server' then raise exception 'FAIL: message %', sqlerrm; end if;
  raise notice 'ok: trust tier is server-managed';
end $$;
select set_config('request.jwt.claims', :cal, true);
do $$ begin
  update public.posts set hidden = false where id = 'c2000000-0000-4000-8000-000000000003';
  raise exception 'FAIL: cal unhid her post';
exception when insufficient_privilege then raise notice 'ok: the author cannot unhide';
end $$;
rollback;

-- Invitations (the fixtures' valid ones are made valid at the wall clock's now) ---------------------
begin;
update public.invitations set expires_at = now() + interval '1 day' where code in ('A1B2C3D4', '5007A5D1');
select set_config('request.jwt.claims', :tova, true);
set local role authenticated;
do $$
declare p public.profiles;
begin
  p := public.redeem_invitation(' a1b2c3d4 ');
  if p.trust_tier <> 2 then raise exception 'FAIL: redeemed tier %', p.trust_tier; end if;
  insert into public.posts (type, title, description, category) values ('need', 'now I can', 'x', 'x');
  raise notice 'ok: an invitation upgrades to tier 2, who then posts';
end $$;
rollback;
begin;
update public.invitations set expires_at = now() + interval '1 day' where code in ('A1B2C3D4', '5007A5D1');
select set_config('request.jwt.claims', :tova, true);
set local role authenticated;
do $$
declare
  c record;
begin
  for c in select * from (values ('NOPE0000', 'CFI01'), ('B0B1B2B3', 'CFI04'), ('DEADBEEF', 'CFI05'), ('5007A5D1', 'CFI06')) v(code, state) loop
    begin
      perform public.redeem_invitation(c.code);
      raise exception 'FAIL: % redeemed', c.code;
    exception when others then
      if sqlstate <> c.state then raise exception 'FAIL: % gave % (%), expected %', c.code, sqlstate, sqlerrm, c.state; end if;
    end;
  end loop;
  raise notice 'ok: refused invitations give their codes';
end $$;
rollback;
begin;
set local role anon;
do $$ begin
  perform public.redeem_invitation('A1B2C3D4');
  raise exception 'FAIL: anon redeemed';
exception when insufficient_privilege then raise notice 'ok: anon cannot redeem';
end $$;
rollback;

-- Thanks add reputation -----------------------------------------------------------------------------
begin;
select set_config('request.jwt.claims', :ana, true);
set local role authenticated;
insert into public.thanks (post_id, to_user_id) values ('c2000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000002');
do $$ begin
  if (select score from public.reputation where user_id = 'c0000000-0000-4000-8000-000000000002') <> 1 then raise exception 'FAIL: ben''s score'; end if;
  raise notice 'ok: thanks add reputation';
end $$;
rollback;

-- New profiles start at tier 1 with their companion rows ---------------------------------------------
begin;
insert into auth.users (id, email) values ('c0000000-0000-4000-8000-0000000000ff', 'new@civicforge.test');
select set_config('request.jwt.claims', '{"sub":"c0000000-0000-4000-8000-0000000000ff","role":"authenticated"}', true);
set local role authenticated;
insert into public.profiles (id, display_name, neighborhood_id, terms_accepted_at) values (auth.uid(), 'New', 'c1000000-0000-4000-8000-000000000001', now());
do $$ begin
  if (select trust_tier from public.profiles where id = auth.uid()) <> 1 then raise exception 'FAIL: new tier'; end if;
  if not exists (select 1 from public.reputation where user_id = auth.uid()) then raise exception 'FAIL: no reputation row'; end if;
  if not exists (select 1 from public.notification_preferences where user_id = auth.uid()) then raise exception 'FAIL: no preferences row'; end if;
  raise notice 'ok: onboarding creates a tier-1 profile with its companions';
end $$;
rollback;

-- EULA: no profile without terms_accepted_at, never rewritten by a client; phone_verified is the
-- server's (rules.json serverManagedColumns) ------------------------------------------------------
begin;
insert into auth.users (id, email) values ('c0000000-0000-4000-8000-0000000000e1', 'eve@civicforge.test');
select set_config('request.jwt.claims', '{"sub":"c0000000-0000-4000-8000-0000000000e1","role":"authenticated"}', true);
set local role authenticated;
do $$ begin
  begin
    insert into public.profiles (id, display_name) values ('c0000000-0000-4000-8000-0000000000e1', 'Eve');
    raise exception 'FAIL: a profile was created without the EULA acceptance';
  exception when not_null_violation then null;
  end;
  insert into public.profiles (id, display_name, terms_accepted_at) values ('c0000000-0000-4000-8000-0000000000e1', 'Eve', now() - interval '1 minute');
  begin
    update public.profiles set terms_accepted_at = now() where id = 'c0000000-0000-4000-8000-0000000000e1';
    raise exception 'FAIL: a client rewrote its EULA acceptance';
  exception when insufficient_privilege then null;
  end;
  begin
    update public.profiles set phone_verified = true where id = 'c0000000-0000-4000-8000-0000000000e1';
    raise exception 'FAIL: a client marked its own phone verified';
  exception when insufficient_privilege then null;
  end;
  update public.profiles set bio = 'Hello' where id = 'c0000000-0000-4000-8000-0000000000e1';
  if not found then raise exception 'FAIL: the new profile cannot edit its bio'; end if;
  raise notice 'ok: EULA required and immutable, phone_verified server-managed';
end $$;
rollback;

-- Database webhooks (005_webhooks.sql): a new response, a response accepted, a thanks and an AI
-- match each queue one push-notifications request with the webhook payload; an edit that leaves the
-- status alone queues none; without the Vault secrets nothing is queued and the write succeeds --
begin;
do $$
declare
  couch constant uuid := 'c2000000-0000-4000-8000-000000000001';
  before bigint := (select count(*) from net.http_request_queue);
  r uuid;
  q record;
begin
  insert into public.responses (post_id, responder_id, message) values (couch, 'c0000000-0000-4000-8000-000000000004', 'unconfigured') returning id into r;
  if (select count(*) from net.http_request_queue) <> before then raise exception 'FAIL: a request was queued without the Vault secrets'; end if;
  delete from public.responses where id = r;
  insert into vault.secrets (name, secret) values ('project_url', 'https://civicforge.supabase.co/'), ('service_role_key', 'service-key');

  insert into public.responses (post_id, responder_id, message) values (couch, 'c0000000-0000-4000-8000-000000000004', 'On my way') returning id into r;
  select id, url, headers, convert_from(body, 'UTF8')::jsonb as body into q from net.http_request_queue order by id desc limit 1;
  if (select count(*) from net.http_request_queue) <> before + 1 then raise exception 'FAIL: a new response queued % requests', (select count(*) from net.http_request_queue) - before; end if;
  if q.url <> 'https://civicforge.supabase.co/functions/v1/push-notifications' then raise exception 'FAIL: webhook url %', q.url; end if;
  if q.headers ->> 'Authorization' <> 'Bearer service-key' then raise exception 'FAIL: webhook headers %', q.headers; end if;
  if q.body ->> 'type' <> 'INSERT' or q.body ->> 'table' <> 'responses' or q.body ->> 'schema' <> 'public'
     or q.body -> 'record' ->> 'id' <> r::text or q.body -> 'old_record' <> 'null'::jsonb then
    raise exception 'FAIL: new response payload %', q.body;
  end if;

  update public.responses set message = 'On my way, 10 min' where id = r;
  if (select count(*) from net.http_request_queue) <> before + 1 then raise exception 'FAIL: an edit without a status change queued a request'; end if;
  update public.responses set status = 'accepted' where id = r;
  select id, convert_from(body, 'UTF8')::jsonb as body into q from net.http_request_queue order by id desc limit 1;
  if (select count(*) from net.http_request_queue) <> before + 2 or q.body ->> 'type' <> 'UPDATE'
     or q.body -> 'record' ->> 'status' <> 'accepted' or q.body -> 'old_record' ->> 'status' <> 'pending' then
    raise exception 'FAIL: accepted response payload %', q.body;
  end if;

  insert into public.thanks (post_id, from_user_id, to_user_id) values (couch, 'c0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000004');
  select convert_from(body, 'UTF8')::jsonb as body into q from net.http_request_queue order by id desc limit 1;
  if (select count(*) from net.http_request_queue) <> before + 3 or q.body ->> 'table' <> 'thanks' then raise exception 'FAIL: thanks payload %', q.body; end if;
  insert into public.ai_matches (post_id, matched_post_id, score) select couch, p.id, 0.9 from public.posts p where p.id <> couch and not exists (select 1 from public.ai_matches m where m.post_id = couch and m.matched_post_id = p.id) limit 1;
  select convert_from(body, 'UTF8')::jsonb as body into q from net.http_request_queue order by id desc limit 1;
  if (select count(*) from net.http_request_queue) <> before + 4 or q.body ->> 'table' <> 'ai_matches' then raise exception 'FAIL: AI match payload %', q.body; end if;
  raise notice 'ok: database webhooks queue the push function for the four events';
end $$;
rollback;
