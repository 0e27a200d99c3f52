-- Naar's Cars: checks of the SQL on a real PostgreSQL, after the migrations and either seed (the
-- shared runner loads fixtures.json; NaarsCarsPostgresTests loads sql/seed/009_seed_data.sql,
-- whose dates are relative to today): no check depends on today's date. Run with psql
-- -v ON_ERROR_STOP=1 as the database owner; every check runs in a transaction that is rolled
-- back, as a role with JWT claims like PostgREST sets them, and raises an exception naming itself
-- when it fails. Covers FR-021's counts, §8 SEC-DB-001..010, the lifecycle, each FR-013 trigger,
-- each FR-014 function, the view and, when Storage's schema is present, the bucket policies.

\set alice 'a11ce000-0000-4000-8000-000000000001'
\set bob 'b0b00000-0000-4000-8000-000000000002'
\set carol 'ca201000-0000-4000-8000-000000000003'
\set dave 'da4e0000-0000-4000-8000-000000000004'
\set eve 'e4e00000-0000-4000-8000-000000000005'

-- act(persona id | 'anon' | 'service_role'): the role and claims PostgREST would set.
create or replace function pg_temp.act(who text) returns void language plpgsql as $$
begin
  if who in ('anon', 'service_role') then
    perform set_config('request.jwt.claims', json_build_object('role', who)::text, true);
    execute format('set local role %I', who);
  else
    perform set_config('request.jwt.claims', json_build_object('sub', who, 'role', 'authenticated')::text, true);
    set local role authenticated;
  end if;
end $$;

-- expect_error(sql, sqlstate, message): the statement fails exactly so.
create or replace function pg_temp.expect_error(label text, stmt text, state text, msg text) returns void language plpgsql as $$
begin
  execute stmt;
  raise exception '%: expected % "%", the statement succeeded', label, state, msg using errcode = 'XX001';
exception when others then
  if sqlstate = 'XX001' then raise; end if;
  if sqlstate <> state or sqlerrm <> msg then
    raise exception '%: expected % "%", got % "%"', label, state, msg, sqlstate, sqlerrm using errcode = 'XX001';
  end if;
end $$;

create or replace function pg_temp.expect(label text, ok boolean, detail text default '') returns void language plpgsql as $$
begin
  if ok is not true then raise exception '%: failed %', label, detail using errcode = 'XX001'; end if;
end $$;

-- FR-021 seed counts ----------------------------------------------------------------------
select pg_temp.expect('FR-021 users', (select count(*) from public.profiles) = 5);
select pg_temp.expect('FR-021 invite codes', (select count(*) filter (where used_by is not null) = 3 and count(*) filter (where used_by is null) = 3 from public.invite_codes));
select pg_temp.expect('FR-021 rides', (select count(*) filter (where status = 'open') = 3 and count(*) filter (where status = 'confirmed') = 1
                                          and count(*) filter (where status = 'completed') = 2 and count(*) = 6 from public.rides));
select pg_temp.expect('FR-021 open rides come after the completed ones', (select min(date) from public.rides where status = 'open') > (select max(date) from public.rides where status = 'completed'));
select pg_temp.expect('FR-021 favors', (select count(*) filter (where status = 'open') = 3 and count(*) filter (where status = 'confirmed') = 1
                                           and count(*) filter (where status = 'completed') = 1 and count(*) = 5 from public.favors));
select pg_temp.expect('FR-021 pinned announcement', (select count(*) from public.notifications where pinned and type = 'announcement') = 1);

-- SEC-DB-001..010 --------------------------------------------------------------------------
begin; select pg_temp.act('anon');
select pg_temp.expect('SEC-DB-001 anon reads no profile', (select count(*) from public.profiles) = 0);
rollback;

begin; select pg_temp.act(:'eve');
select pg_temp.expect('SEC-DB-002 eve reads only her profile', (select array_agg(id) from public.profiles) = array[:'eve'::uuid]);
select pg_temp.expect('eve reads no ride', (select count(*) from public.rides) = 0);
rollback;

begin; select pg_temp.act(:'bob');
select pg_temp.expect('SEC-DB-003 bob reads the 4 approved profiles', (select count(*) from public.profiles) = 4 and not exists (select 1 from public.profiles where not approved));
rollback;

begin; select pg_temp.act(:'bob');
update public.profiles set name = 'Hacked' where id = :'carol';
reset role;
select pg_temp.expect('SEC-DB-004 carol unchanged', (select name from public.profiles where id = :'carol') = 'Carol Chen');
rollback;

begin; select pg_temp.act(:'bob');
select pg_temp.expect_error('SEC-DB-005 self admin', format('update public.profiles set is_admin = true where id = %L', :'bob'), '42501', 'only admins can change is_admin or approved');
rollback;

begin; select pg_temp.act(:'alice');
update public.profiles set approved = true where id = :'eve';
select pg_temp.act(:'eve');
select pg_temp.expect('SEC-DB-006 admin approves eve', (select approved from public.profiles where id = :'eve') and (select count(*) from public.rides) = 6);
rollback;

begin; select pg_temp.act(:'bob');
update public.profiles set approved = true where id = :'eve';
reset role;
select pg_temp.expect('SEC-DB-007 eve still pending', not (select approved from public.profiles where id = :'eve'));
rollback;

begin; select pg_temp.act(:'dave');
select pg_temp.expect('SEC-DB-008 dave reads no message', (select count(*) from public.messages) = 0);
select pg_temp.act(:'bob');
select pg_temp.expect('bob reads his conversation''s 4 messages', (select count(*) from public.messages) = 4);
rollback;

begin; select pg_temp.act(:'bob');
select pg_temp.expect_error('SEC-DB-009 ride as alice', format($s$insert into public.rides (user_id, date, time, pickup, destination) values (%L, current_date + 1, '09:00', 'A', 'B')$s$, :'alice'),
  '42501', 'new row violates row-level security policy for table "rides"');
rollback;

begin; select pg_temp.act(:'bob');
select pg_temp.expect_error('SEC-DB-010 claim own ride', format($s$update public.rides set status = 'pending', claimed_by = %L where id = '7a1d0000-0000-4000-8000-000000000001'$s$, :'bob'),
  '23514', 'new row for relation "rides" violates check constraint "rides_claimed_by_not_owner"');
rollback;

-- Lifecycle ---------------------------------------------------------------------------------
begin; select pg_temp.act(:'carol');
update public.rides set status = 'pending', claimed_by = :'carol' where id = '7a1d0000-0000-4000-8000-000000000001';
select pg_temp.expect('carol claimed ride 1', (select status::text || claimed_by::text from public.rides where id = '7a1d0000-0000-4000-8000-000000000001') = 'pending' || :'carol');
select pg_temp.expect_error('claimer cannot confirm', $s$update public.rides set status = 'confirmed' where id = '7a1d0000-0000-4000-8000-000000000001'$s$,
  '42501', 'only the owner may change status from pending to confirmed');
select pg_temp.expect_error('claimer cannot edit details', $s$update public.rides set pickup = 'X' where id = '7a1d0000-0000-4000-8000-000000000001'$s$,
  '42501', 'only the owner may change pickup');
select pg_temp.act(:'bob');
update public.rides set status = 'confirmed' where id = '7a1d0000-0000-4000-8000-000000000001';
select pg_temp.act(:'carol');
update public.rides set status = 'completed' where id = '7a1d0000-0000-4000-8000-000000000001';
select pg_temp.act(:'bob');
select pg_temp.expect_error('completed is final', $s$update public.rides set status = 'open', claimed_by = null where id = '7a1d0000-0000-4000-8000-000000000001'$s$,
  'P0001', 'invalid status transition from completed to open');
select pg_temp.expect_error('new request starts open', $s$insert into public.favors (user_id, title, location, date, status) values ('b0b00000-0000-4000-8000-000000000002', 'x', 'y', current_date, 'confirmed')$s$,
  'P0001', 'a new request must start open and unclaimed');
select pg_temp.act(:'dave');
select pg_temp.expect_error('skip a step', format($s$update public.rides set status = 'confirmed', claimed_by = %L where id = '7a1d0000-0000-4000-8000-000000000002'$s$, :'dave'),
  'P0001', 'invalid status transition from open to confirmed');
select pg_temp.expect_error('claim for another', format($s$update public.rides set status = 'pending', claimed_by = %L where id = '7a1d0000-0000-4000-8000-000000000002'$s$, :'bob'),
  '42501', 'claimed_by must be the caller when claiming');
rollback;

begin; select pg_temp.act(:'bob');
update public.rides set status = 'open', claimed_by = null where id = '7a1d0000-0000-4000-8000-000000000004';
select pg_temp.expect('bob unclaimed ride 4', (select status::text from public.rides where id = '7a1d0000-0000-4000-8000-000000000004') = 'open');
rollback;

-- Triggers ----------------------------------------------------------------------------------
begin;
insert into auth.users (id, email, raw_user_meta_data) values ('f4a4c000-0000-4000-8000-000000000006', 'frank@test.com', '{"name": "Frank Fisher"}');
select pg_temp.expect('on_auth_user_created', (select name || approved::text || is_admin::text from public.profiles where id = 'f4a4c000-0000-4000-8000-000000000006') = 'Frank Fisherfalsefalse');
select pg_temp.act('f4a4c000-0000-4000-8000-000000000006');
select pg_temp.expect('validate_invite_code', (select is_valid and created_by = :'carol'::uuid from public.validate_invite_code(' carol001 ')));
update public.invite_codes set used_by = 'f4a4c000-0000-4000-8000-000000000006' where code = 'CAROL001';
reset role;
select pg_temp.expect('on_invite_code_used', (select used_at = now() from public.invite_codes where code = 'CAROL001')
  and (select invited_by = :'carol'::uuid from public.profiles where id = 'f4a4c000-0000-4000-8000-000000000006'));
select pg_temp.act(:'carol');
select pg_temp.expect_error('redeem for someone else', format($s$update public.invite_codes set used_by = %L where code = 'ALICE003'$s$, :'dave'),
  '42501', 'new row violates row-level security policy for table "invite_codes"');
rollback;

begin; select pg_temp.act(:'carol');
select pg_temp.expect_error('redeem own code', format($s$update public.invite_codes set used_by = %L where code = 'CAROL001'$s$, :'carol'),
  'P0001', 'you cannot redeem your own invite code');
rollback;

begin; select pg_temp.act(:'dave');
insert into public.reviews (reviewer_id, fulfiller_id, ride_id, rating, comment)
values (:'dave', :'bob', '7a1d0000-0000-4000-8000-000000000006', 5, 'Smooth ride, thanks!');
select pg_temp.expect('on_review_created', (select p.title || '|' || p.content from public.reviews r join public.town_hall_posts p on p.id = r.town_hall_post_id
  where r.ride_id = '7a1d0000-0000-4000-8000-000000000006') = 'Dave Davis reviewed Bob Brown|★★★★★ Smooth ride, thanks!');
select pg_temp.expect('mark_request_reviewed', (select reviewed from public.rides where id = '7a1d0000-0000-4000-8000-000000000006'));
select pg_temp.expect('get_pending_reviews after review', not exists (select 1 from public.get_pending_reviews(:'dave')));
rollback;

begin; select pg_temp.act(:'carol');
insert into public.messages (conversation_id, from_id, content) values ('c0c00000-0000-4000-8000-000000000001', :'carol', 'On my way!');
select pg_temp.expect('on_message_created', (select updated_at = now() from public.conversations where id = 'c0c00000-0000-4000-8000-000000000001'));
select pg_temp.act(:'bob');
select pg_temp.expect_error('message content', $s$update public.messages set content = 'edited' where id = '3e550000-0000-4000-8000-000000000001'$s$, '42501', 'only read_by can change on a message');
select pg_temp.expect_error('read_by of others', format($s$update public.messages set read_by = array[%L, %L]::uuid[] where id = '3e550000-0000-4000-8000-000000000004'$s$, :'bob', :'carol'),
  '42501', 'read_by may only gain or lose your own id');
update public.messages set read_by = array[:'bob']::uuid[] where id = '3e550000-0000-4000-8000-000000000004';
rollback;

begin; select pg_temp.act(:'bob');
update public.notifications set read = true where id = '4071f000-0000-4000-8000-000000000003';
select pg_temp.expect('set_updated_at', (select updated_at = now() from public.notifications where id = '4071f000-0000-4000-8000-000000000003'));
rollback;

-- Functions ---------------------------------------------------------------------------------
begin; select pg_temp.act(:'bob');
select pg_temp.expect('get_user_stats carol', (select avg_rating = 5 and review_count = 1 and fulfilled_count = 1 from public.get_user_stats(:'carol')));
select pg_temp.expect('get_unread_counts bob', (select unread_notifications = 2 and unread_messages = 1 from public.get_unread_counts(:'bob')));
select pg_temp.expect_error('get_unread_counts for another', format('select * from public.get_unread_counts(%L)', :'carol'),
  '42501', 'permission denied: get_unread_counts may only be called for yourself');
select public.mark_messages_read('c0c00000-0000-4000-8000-000000000001', :'bob');
select pg_temp.expect('mark_messages_read', (select unread_messages = 0 from public.get_unread_counts(:'bob')));
select pg_temp.expect('get_or_create existing', public.get_or_create_request_conversation(ride_id => '7a1d0000-0000-4000-8000-000000000004') = 'c0c00000-0000-4000-8000-000000000001');
select pg_temp.expect('get_or_create new', public.get_or_create_request_conversation(favor_id => 'fa404000-0000-4000-8000-000000000001')
  = public.get_or_create_request_conversation(favor_id => 'fa404000-0000-4000-8000-000000000001'));
select pg_temp.expect_error('get_or_create stranger', $s$select public.get_or_create_request_conversation(ride_id => '7a1d0000-0000-4000-8000-000000000002')$s$,
  '42501', 'permission denied: not involved in this request');
select pg_temp.expect('get_leaderboard all_time', (select array_agg(name || ':' || rank || ':' || fulfilled_count || ':' || average_rating::float8 order by rank, name)
  from public.get_leaderboard()) = array['Bob Brown:1:1:0', 'Carol Chen:1:1:5', 'Dave Davis:1:1:4', 'Alice Anderson:4:0:0']);
select pg_temp.expect('get_leaderboard week: RANK() over the window', not exists (
  select 1 from public.get_leaderboard('week') w
   where w.rank <> 1 + (select count(*) from public.get_leaderboard('week') o where o.fulfilled_count > w.fulfilled_count)));
select pg_temp.expect('get_leaderboard week within all_time', (select count(*) from public.get_leaderboard('week')) = 4 and not exists (
  select 1 from public.get_leaderboard('week') w join public.get_leaderboard() a using (user_id) where w.fulfilled_count > a.fulfilled_count));
select pg_temp.expect('get_leaderboard limit', (select count(*) from public.get_leaderboard('all_time', 2)) = 2);
select pg_temp.expect_error('get_leaderboard filter', $s$select * from public.get_leaderboard('decade')$s$, '22023', 'invalid time_filter: decade');
select pg_temp.expect('leaderboard_stats = get_leaderboard', (select array_agg(l order by l) from (select row(user_id, name, avatar_url, fulfilled_count, average_rating, review_count, rank)::text l from public.leaderboard_stats) x)
  = (select array_agg(l order by l) from (select row(user_id, name, avatar_url, fulfilled_count, average_rating, review_count, rank)::text l from public.get_leaderboard()) y));
select pg_temp.act(:'dave');
select pg_temp.expect('get_pending_reviews dave', (select array_agg(request_type || ':' || fulfiller_name || ':' || title) from public.get_pending_reviews(:'dave'))
  = array['ride:Bob Brown:Oak Ridge Apartments → Hardware Store']);
select pg_temp.act(:'eve');
select pg_temp.expect('leaderboard for eve', not exists (select 1 from public.leaderboard_stats) and not exists (select 1 from public.get_leaderboard()));
select pg_temp.act('anon');
select pg_temp.expect('validate_invite_code as anon', (select not is_valid from public.validate_invite_code('WELCOME1')));
rollback;

begin;
insert into public.push_tokens (user_id, token, device_id, updated_at) values
  (:'bob', repeat('a', 64), 'bob-iphone', now() - interval '122 days'),
  (:'carol', repeat('b', 64), 'carol-iphone', now() - interval '90 days'),
  (:'dave', repeat('c', 64), 'dave-iphone', now() - interval '90 days 1 second');
select pg_temp.act(:'bob');
select pg_temp.expect_error('cleanup as a user', 'select public.cleanup_stale_push_tokens()', '42501', 'permission denied for function cleanup_stale_push_tokens');
select pg_temp.act('service_role');
select pg_temp.expect('EDGE-003 cleanup count', public.cleanup_stale_push_tokens() = 2);
select pg_temp.expect('EDGE-003 survivor', (select array_agg(device_id) from public.push_tokens) = array['carol-iphone']);
rollback;

-- Storage (when Supabase Storage's schema is present) ---------------------------------------
create or replace function pg_temp.storage_checks() returns void language plpgsql as $$
declare
  bob text := 'b0b00000-0000-4000-8000-000000000002';
  eve text := 'e4e00000-0000-4000-8000-000000000005';
begin
  if to_regclass('storage.objects') is null then return; end if;
  perform pg_temp.expect('FR-017 buckets', (select array_agg(id || ':' || public || ':' || file_size_limit order by id) from storage.buckets)
    = array['avatars:true:204800', 'message-images:false:512000', 'town-hall-images:true:512000']);
  insert into storage.objects (bucket_id, name, owner) values ('message-images', bob || '/m1.jpg', bob::uuid);
  update public.messages set image_url = bob || '/m1.jpg' where id = '3e550000-0000-4000-8000-000000000002';
  perform pg_temp.act(eve);
  insert into storage.objects (bucket_id, name, owner) values ('avatars', eve || '/me.jpg', eve::uuid);
  perform pg_temp.expect_error('pending user uploads to town-hall-images', format($s$insert into storage.objects (bucket_id, name, owner) values ('town-hall-images', %L, %L)$s$, eve || '/x.jpg', eve),
    '42501', 'new row violates row-level security policy for table "objects"');
  perform pg_temp.expect_error('upload outside own folder', format($s$insert into storage.objects (bucket_id, name, owner) values ('avatars', %L, %L)$s$, bob || '/x.jpg', eve),
    '42501', 'new row violates row-level security policy for table "objects"');
  perform pg_temp.act('ca201000-0000-4000-8000-000000000003');
  perform pg_temp.expect('participant reads message image', (select count(*) from storage.objects where bucket_id = 'message-images') = 1);
  perform pg_temp.act('da4e0000-0000-4000-8000-000000000004');
  perform pg_temp.expect('outsider reads no message image', (select count(*) from storage.objects where bucket_id = 'message-images') = 0);
end $$;
begin; select pg_temp.storage_checks(); rollback;

select 'naarscars SQL checks passed' as result;
