-- Shvil rules checked on PostgreSQL, the cases ShvilServerTests runs on the mock. Needs the
-- migrations and Contracts/shvil/fixtures.json loaded (scripts/postgres start shvil --seed); run
-- with psql -v ON_ERROR_STOP=1. Each case is rolled back; a broken rule stops with "FAIL: …".
\o /dev/null
\set noa '''{"sub":"5f000000-0000-4000-8000-000000000001","role":"authenticated"}'''
\set eli '''{"sub":"5f000000-0000-4000-8000-000000000002","role":"authenticated"}'''

-- Own-only adventures and stops ---------------------------------------------------------------
begin;
select set_config('request.jwt.claims', :eli, true);
set local role authenticated;
do $$ begin
  if (select count(*) from public.adventures) <> 1 or (select count(*) from public.adventure_stops) <> 1 then
    raise exception 'FAIL: eli sees % adventures', (select count(*) from public.adventures);
  end if;
  update public.adventures set title = 'Mine now' where id = '5a000000-0000-4000-8000-000000000001';
  if found then raise exception 'FAIL: eli changed noa''s adventure'; end if;
  begin
    insert into public.adventure_stops (adventure_id, place_id, order_index) values ('5a000000-0000-4000-8000-000000000001', '5b000000-0000-4000-8000-000000000004', 9);
    raise exception 'FAIL: eli added a stop to noa''s adventure';
  exception when insufficient_privilege then null;
  end;
  raise notice 'ok: adventures and stops are own-only';
end $$;
rollback;

-- Stop positions are unique; reorder_adventure_stops permutes atomically ----------------------
begin;
select set_config('request.jwt.claims', :noa, true);
set local role authenticated;
do $$
declare ids uuid[];
begin
  begin
    update public.adventure_stops set order_index = 1 where id = '5c000000-0000-4000-8000-000000000001';
    raise exception 'FAIL: two stops share a position';
  exception when unique_violation then null;
  end;
  select array_agg(id order by order_index desc) into ids from public.adventure_stops where adventure_id = '5a000000-0000-4000-8000-000000000001';
  if (select array_agg(id order by order_index) from public.reorder_adventure_stops('5a000000-0000-4000-8000-000000000001', ids)) is distinct from ids then
    raise exception 'FAIL: reorder';
  end if;
  begin
    perform public.reorder_adventure_stops('5a000000-0000-4000-8000-000000000001', ids[1:2]);
    raise exception 'FAIL: partial list accepted';
  exception when sqlstate 'SHV02' then null;
  end;
  raise notice 'ok: unique positions, atomic reorder';
end $$;
select set_config('request.jwt.claims', :eli, true);
do $$ begin
  perform public.reorder_adventure_stops('5a000000-0000-4000-8000-000000000001', array['5c000000-0000-4000-8000-000000000001']::uuid[]);
  raise exception 'FAIL: eli reordered noa''s stops';
exception when sqlstate 'SHV01' then raise notice 'ok: reorder needs the owner';
end $$;
rollback;

-- Places: shared, immutable; flags: public read-only --------------------------------------------
begin;
select set_config('request.jwt.claims', :eli, true);
set local role authenticated;
do $$ begin
  if (select count(*) from public.places) <> 6 then raise exception 'FAIL: places not shared'; end if;
  insert into public.places (name, latitude, longitude) values ('Ein Gedi', 31.46, 35.39);
  update public.places set name = 'x';
  if found then raise exception 'FAIL: a place was edited'; end if;
  raise notice 'ok: places are shared and immutable';
end $$;
reset role;
set local role anon;
do $$ begin
  if (select count(*) from public.feature_flags where environment = 'production' and enabled) <> 1 then raise exception 'FAIL: production flags'; end if;
  if exists (select 1 from public.places) then raise exception 'FAIL: anon reads places'; end if;
  update public.feature_flags set enabled = true;
  if found then raise exception 'FAIL: anon flipped a flag'; end if;
  raise notice 'ok: anon reads flags, nothing else';
end $$;
rollback;

-- A new account gets its users row --------------------------------------------------------------
begin;
insert into auth.users (id, email, raw_user_meta_data) values ('5f000000-0000-4000-8000-0000000000aa', 'dan@shvil.test', '{"display_name":"Dan"}');
do $$ begin
  if (select display_name from public.users where id = '5f000000-0000-4000-8000-0000000000aa') is distinct from 'Dan' then raise exception 'FAIL: no users row'; end if;
  raise notice 'ok: handle_new_user';
end $$;
rollback;

-- A synced row never carries a time later than the server's clock (sync.json futureTimestamps) -
begin;
select set_config('request.jwt.claims', :noa, true);
set local role authenticated;
do $$
declare t timestamptz;
begin
  update public.adventures set updated_at = now() + interval '1 day' where id = '5a000000-0000-4000-8000-000000000001' returning updated_at into t;
  if t is distinct from now() then raise exception 'FAIL: an update stamped a day ahead stored %', t; end if;
  update public.adventures set updated_at = now() - interval '90 seconds' where id = '5a000000-0000-4000-8000-000000000001' returning updated_at into t;
  if t is distinct from now() - interval '90 seconds' then raise exception 'FAIL: an update stamped in the past stored %', t; end if;
  insert into public.adventures (title, updated_at) values ('planned on a fast clock', now() + interval '1 day') returning updated_at into t;
  if t is distinct from now() then raise exception 'FAIL: an insert stamped a day ahead stored %', t; end if;
  raise notice 'ok: future updated_at clamped to the server''s now()';
end $$;
rollback;
