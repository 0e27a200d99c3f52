-- Naar's Cars development seed (FR-021, FR-022, Appendix B; Appendix A step 9).
-- GENERATED from Contracts/naarscars/fixtures.json by NaarsCarsSeedSQL: do not edit; regenerate with
--   NAARSCARS_RECORD_SEED=1 swift test --filter NaarsCarsSQLTests
-- Dates are relative to the day the seed runs (the fixtures' 2026-01-01 becomes today, UTC).
-- Idempotent (FR-023): existing rows are left alone. Apply after the migrations in sql/.

begin;

create or replace function pg_temp.seed_day(days integer) returns date
  language sql stable as $$ select (now() at time zone 'UTC')::date + days $$;
create or replace function pg_temp.seed_at(seconds bigint) returns timestamptz
  language sql stable as $$ select (date_trunc('day', now() at time zone 'UTC') at time zone 'UTC') + make_interval(secs => seconds) $$;

alter table public.profiles disable trigger user;
alter table public.invite_codes disable trigger user;
alter table public.rides disable trigger user;
alter table public.favors disable trigger user;
alter table public.request_qa disable trigger user;
alter table public.conversations disable trigger user;
alter table public.conversation_participants disable trigger user;
alter table public.messages disable trigger user;
alter table public.town_hall_posts disable trigger user;
alter table public.reviews disable trigger user;
alter table public.notifications disable trigger user;

-- Users (Appendix B); on_auth_user_created makes their profiles.
insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
values ('a11ce000-0000-4000-8000-000000000001', 'authenticated', 'authenticated', 'alice@test.com', extensions.crypt('TestPassword123!', extensions.gen_salt('bf')), pg_temp.seed_at(-5238000), '{"provider": "email", "providers": ["email"]}'::jsonb, '{"name": "Alice Anderson"}'::jsonb, pg_temp.seed_at(-5238000), pg_temp.seed_at(-5238000))
on conflict (id) do nothing;
insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
values ('b0b00000-0000-4000-8000-000000000002', 'authenticated', 'authenticated', 'bob@test.com', extensions.crypt('TestPassword123!', extensions.gen_salt('bf')), pg_temp.seed_at(-4892400), '{"provider": "email", "providers": ["email"]}'::jsonb, '{"name": "Bob Brown"}'::jsonb, pg_temp.seed_at(-4892400), pg_temp.seed_at(-4892400))
on conflict (id) do nothing;
insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
values ('ca201000-0000-4000-8000-000000000003', 'authenticated', 'authenticated', 'carol@test.com', extensions.crypt('TestPassword123!', extensions.gen_salt('bf')), pg_temp.seed_at(-4806000), '{"provider": "email", "providers": ["email"]}'::jsonb, '{"name": "Carol Chen"}'::jsonb, pg_temp.seed_at(-4806000), pg_temp.seed_at(-4806000))
on conflict (id) do nothing;
insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
values ('da4e0000-0000-4000-8000-000000000004', 'authenticated', 'authenticated', 'dave@test.com', extensions.crypt('TestPassword123!', extensions.gen_salt('bf')), pg_temp.seed_at(-4460400), '{"provider": "email", "providers": ["email"]}'::jsonb, '{"name": "Dave Davis"}'::jsonb, pg_temp.seed_at(-4460400), pg_temp.seed_at(-4460400))
on conflict (id) do nothing;
insert into auth.users (id, aud, role, email, encrypted_password, email_confirmed_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
values ('e4e00000-0000-4000-8000-000000000005', 'authenticated', 'authenticated', 'eve@test.com', extensions.crypt('TestPassword123!', extensions.gen_salt('bf')), pg_temp.seed_at(-313200), '{"provider": "email", "providers": ["email"]}'::jsonb, '{"name": "Eve Evans"}'::jsonb, pg_temp.seed_at(-313200), pg_temp.seed_at(-313200))
on conflict (id) do nothing;

-- profiles: 5 rows
insert into public.profiles (id, name, email, car, phone_number, avatar_url, is_admin, approved, invited_by, notify_ride_updates, notify_messages, notify_announcements, notify_new_requests, notify_qa_activity, notify_review_reminders, created_at, updated_at)
values ('a11ce000-0000-4000-8000-000000000001', 'Alice Anderson', 'alice@test.com', 'Subaru Outback (green)', '+1 206 555 0101', null, true, true, null, true, true, true, true, true, true, pg_temp.seed_at(-5238000), pg_temp.seed_at(-5238000))
on conflict (id) do update set name = excluded.name, email = excluded.email, car = excluded.car, phone_number = excluded.phone_number, avatar_url = excluded.avatar_url, is_admin = excluded.is_admin, approved = excluded.approved, invited_by = excluded.invited_by, notify_ride_updates = excluded.notify_ride_updates, notify_messages = excluded.notify_messages, notify_announcements = excluded.notify_announcements, notify_new_requests = excluded.notify_new_requests, notify_qa_activity = excluded.notify_qa_activity, notify_review_reminders = excluded.notify_review_reminders, created_at = excluded.created_at, updated_at = excluded.updated_at;
insert into public.profiles (id, name, email, car, phone_number, avatar_url, is_admin, approved, invited_by, notify_ride_updates, notify_messages, notify_announcements, notify_new_requests, notify_qa_activity, notify_review_reminders, created_at, updated_at)
values ('b0b00000-0000-4000-8000-000000000002', 'Bob Brown', 'bob@test.com', 'Toyota Prius (blue)', '+1 206 555 0102', 'b0b00000-0000-4000-8000-000000000002/avatar.jpg', false, true, 'a11ce000-0000-4000-8000-000000000001', true, true, true, true, true, true, pg_temp.seed_at(-4892400), pg_temp.seed_at(-4892400))
on conflict (id) do update set name = excluded.name, email = excluded.email, car = excluded.car, phone_number = excluded.phone_number, avatar_url = excluded.avatar_url, is_admin = excluded.is_admin, approved = excluded.approved, invited_by = excluded.invited_by, notify_ride_updates = excluded.notify_ride_updates, notify_messages = excluded.notify_messages, notify_announcements = excluded.notify_announcements, notify_new_requests = excluded.notify_new_requests, notify_qa_activity = excluded.notify_qa_activity, notify_review_reminders = excluded.notify_review_reminders, created_at = excluded.created_at, updated_at = excluded.updated_at;
insert into public.profiles (id, name, email, car, phone_number, avatar_url, is_admin, approved, invited_by, notify_ride_updates, notify_messages, notify_announcements, notify_new_requests, notify_qa_activity, notify_review_reminders, created_at, updated_at)
values ('ca201000-0000-4000-8000-000000000003', 'Carol Chen', 'carol@test.com', 'Honda CR-V (silver)', null, null, false, true, 'a11ce000-0000-4000-8000-000000000001', true, true, true, true, true, true, pg_temp.seed_at(-4806000), pg_temp.seed_at(-4806000))
on conflict (id) do update set name = excluded.name, email = excluded.email, car = excluded.car, phone_number = excluded.phone_number, avatar_url = excluded.avatar_url, is_admin = excluded.is_admin, approved = excluded.approved, invited_by = excluded.invited_by, notify_ride_updates = excluded.notify_ride_updates, notify_messages = excluded.notify_messages, notify_announcements = excluded.notify_announcements, notify_new_requests = excluded.notify_new_requests, notify_qa_activity = excluded.notify_qa_activity, notify_review_reminders = excluded.notify_review_reminders, created_at = excluded.created_at, updated_at = excluded.updated_at;
insert into public.profiles (id, name, email, car, phone_number, avatar_url, is_admin, approved, invited_by, notify_ride_updates, notify_messages, notify_announcements, notify_new_requests, notify_qa_activity, notify_review_reminders, created_at, updated_at)
values ('da4e0000-0000-4000-8000-000000000004', 'Dave Davis', 'dave@test.com', null, null, null, false, true, null, true, true, true, true, true, true, pg_temp.seed_at(-4460400), pg_temp.seed_at(-4460400))
on conflict (id) do update set name = excluded.name, email = excluded.email, car = excluded.car, phone_number = excluded.phone_number, avatar_url = excluded.avatar_url, is_admin = excluded.is_admin, approved = excluded.approved, invited_by = excluded.invited_by, notify_ride_updates = excluded.notify_ride_updates, notify_messages = excluded.notify_messages, notify_announcements = excluded.notify_announcements, notify_new_requests = excluded.notify_new_requests, notify_qa_activity = excluded.notify_qa_activity, notify_review_reminders = excluded.notify_review_reminders, created_at = excluded.created_at, updated_at = excluded.updated_at;
insert into public.profiles (id, name, email, car, phone_number, avatar_url, is_admin, approved, invited_by, notify_ride_updates, notify_messages, notify_announcements, notify_new_requests, notify_qa_activity, notify_review_reminders, created_at, updated_at)
values ('e4e00000-0000-4000-8000-000000000005', 'Eve Evans', 'eve@test.com', null, null, null, false, false, 'b0b00000-0000-4000-8000-000000000002', true, true, true, true, true, true, pg_temp.seed_at(-313200), pg_temp.seed_at(-313200))
on conflict (id) do update set name = excluded.name, email = excluded.email, car = excluded.car, phone_number = excluded.phone_number, avatar_url = excluded.avatar_url, is_admin = excluded.is_admin, approved = excluded.approved, invited_by = excluded.invited_by, notify_ride_updates = excluded.notify_ride_updates, notify_messages = excluded.notify_messages, notify_announcements = excluded.notify_announcements, notify_new_requests = excluded.notify_new_requests, notify_qa_activity = excluded.notify_qa_activity, notify_review_reminders = excluded.notify_review_reminders, created_at = excluded.created_at, updated_at = excluded.updated_at;

-- invite_codes: 6 rows
insert into public.invite_codes (id, code, created_by, used_by, used_at, created_at, updated_at)
values ('c0de0000-0000-4000-8000-000000000001', 'WELCOME1', 'a11ce000-0000-4000-8000-000000000001', 'b0b00000-0000-4000-8000-000000000002', pg_temp.seed_at(-4892400), pg_temp.seed_at(-5234400), pg_temp.seed_at(-4892400))
on conflict (id) do nothing;
insert into public.invite_codes (id, code, created_by, used_by, used_at, created_at, updated_at)
values ('c0de0000-0000-4000-8000-000000000002', 'WELCOME2', 'a11ce000-0000-4000-8000-000000000001', 'ca201000-0000-4000-8000-000000000003', pg_temp.seed_at(-4806000), pg_temp.seed_at(-5234400), pg_temp.seed_at(-4806000))
on conflict (id) do nothing;
insert into public.invite_codes (id, code, created_by, used_by, used_at, created_at, updated_at)
values ('c0de0000-0000-4000-8000-000000000003', 'ALICE003', 'a11ce000-0000-4000-8000-000000000001', null, null, pg_temp.seed_at(-5234400), pg_temp.seed_at(-5234400))
on conflict (id) do nothing;
insert into public.invite_codes (id, code, created_by, used_by, used_at, created_at, updated_at)
values ('c0de0000-0000-4000-8000-000000000004', 'BOBINV01', 'b0b00000-0000-4000-8000-000000000002', 'e4e00000-0000-4000-8000-000000000005', pg_temp.seed_at(-313200), pg_temp.seed_at(-2642400), pg_temp.seed_at(-313200))
on conflict (id) do nothing;
insert into public.invite_codes (id, code, created_by, used_by, used_at, created_at, updated_at)
values ('c0de0000-0000-4000-8000-000000000005', 'CAROL001', 'ca201000-0000-4000-8000-000000000003', null, null, pg_temp.seed_at(-2556000), pg_temp.seed_at(-2556000))
on conflict (id) do nothing;
insert into public.invite_codes (id, code, created_by, used_by, used_at, created_at, updated_at)
values ('c0de0000-0000-4000-8000-000000000006', 'DAVE0001', 'da4e0000-0000-4000-8000-000000000004', null, null, pg_temp.seed_at(-2469600), pg_temp.seed_at(-2469600))
on conflict (id) do nothing;

-- rides: 6 rows
insert into public.rides (id, user_id, type, date, time, pickup, destination, seats, notes, gift, status, claimed_by, reviewed, review_skipped, review_skipped_at, created_at, updated_at)
values ('7a1d0000-0000-4000-8000-000000000001', 'b0b00000-0000-4000-8000-000000000002', 'request', pg_temp.seed_day(4), '08:30:00', 'Maple St & 3rd Ave', 'SEA Airport, Departures', 1, 'Two suitcases', 'Coffee on me', 'open', null, false, false, null, pg_temp.seed_at(-230400), pg_temp.seed_at(-230400))
on conflict (id) do nothing;
insert into public.rides (id, user_id, type, date, time, pickup, destination, seats, notes, gift, status, claimed_by, reviewed, review_skipped, review_skipped_at, created_at, updated_at)
values ('7a1d0000-0000-4000-8000-000000000002', 'ca201000-0000-4000-8000-000000000003', 'request', pg_temp.seed_day(7), '17:00:00', 'Elm St 14', 'Downtown Library', 2, null, null, 'open', null, false, false, null, pg_temp.seed_at(-144000), pg_temp.seed_at(-144000))
on conflict (id) do nothing;
insert into public.rides (id, user_id, type, date, time, pickup, destination, seats, notes, gift, status, claimed_by, reviewed, review_skipped, review_skipped_at, created_at, updated_at)
values ('7a1d0000-0000-4000-8000-000000000003', 'da4e0000-0000-4000-8000-000000000004', 'request', pg_temp.seed_day(11), '07:15:00', 'Oak Ridge Apartments', 'Community Clinic', 1, null, 'Homemade cookies', 'open', null, false, false, null, pg_temp.seed_at(-57600), pg_temp.seed_at(-57600))
on conflict (id) do nothing;
insert into public.rides (id, user_id, type, date, time, pickup, destination, seats, notes, gift, status, claimed_by, reviewed, review_skipped, review_skipped_at, created_at, updated_at)
values ('7a1d0000-0000-4000-8000-000000000004', 'ca201000-0000-4000-8000-000000000003', 'request', pg_temp.seed_day(2), '10:00:00', 'Elm St 14', 'Farmers Market', 1, null, null, 'confirmed', 'b0b00000-0000-4000-8000-000000000002', false, false, null, pg_temp.seed_at(-316800), pg_temp.seed_at(-223500))
on conflict (id) do nothing;
insert into public.rides (id, user_id, type, date, time, pickup, destination, seats, notes, gift, status, claimed_by, reviewed, review_skipped, review_skipped_at, created_at, updated_at)
values ('7a1d0000-0000-4000-8000-000000000005', 'b0b00000-0000-4000-8000-000000000002', 'request', pg_temp.seed_day(-17), '09:00:00', 'Maple St & 3rd Ave', 'King Street Station', 1, null, null, 'completed', 'ca201000-0000-4000-8000-000000000003', true, false, null, pg_temp.seed_at(-1872000), pg_temp.seed_at(-1404000))
on conflict (id) do nothing;
insert into public.rides (id, user_id, type, date, time, pickup, destination, seats, notes, gift, status, claimed_by, reviewed, review_skipped, review_skipped_at, created_at, updated_at)
values ('7a1d0000-0000-4000-8000-000000000006', 'da4e0000-0000-4000-8000-000000000004', 'request', pg_temp.seed_day(-4), '14:30:00', 'Oak Ridge Apartments', 'Hardware Store', 1, null, null, 'completed', 'b0b00000-0000-4000-8000-000000000002', false, false, null, pg_temp.seed_at(-835200), pg_temp.seed_at(-288000))
on conflict (id) do nothing;

-- favors: 5 rows
insert into public.favors (id, user_id, title, description, location, duration, requirements, date, time, gift, status, claimed_by, reviewed, review_skipped, review_skipped_at, created_at, updated_at)
values ('fa404000-0000-4000-8000-000000000001', 'b0b00000-0000-4000-8000-000000000002', 'Help moving a couch', 'Moving a couch up one floor.', 'Maple St & 3rd Ave', 'couple_hours', 'Able to lift 50 lbs', pg_temp.seed_day(9), '10:00:00', 'Pizza', 'open', null, false, false, null, pg_temp.seed_at(-226800), pg_temp.seed_at(-226800))
on conflict (id) do nothing;
insert into public.favors (id, user_id, title, description, location, duration, requirements, date, time, gift, status, claimed_by, reviewed, review_skipped, review_skipped_at, created_at, updated_at)
values ('fa404000-0000-4000-8000-000000000002', 'ca201000-0000-4000-8000-000000000003', 'Water my plants', 'Away for a long weekend.', 'Elm St 14', 'couple_days', null, pg_temp.seed_day(14), null, null, 'open', null, false, false, null, pg_temp.seed_at(-140400), pg_temp.seed_at(-140400))
on conflict (id) do nothing;
insert into public.favors (id, user_id, title, description, location, duration, requirements, date, time, gift, status, claimed_by, reviewed, review_skipped, review_skipped_at, created_at, updated_at)
values ('fa404000-0000-4000-8000-000000000003', 'da4e0000-0000-4000-8000-000000000004', 'Borrow a ladder', null, 'Oak Ridge Apartments', 'under_hour', null, pg_temp.seed_day(6), '18:00:00', null, 'open', null, false, false, null, pg_temp.seed_at(-54000), pg_temp.seed_at(-54000))
on conflict (id) do nothing;
insert into public.favors (id, user_id, title, description, location, duration, requirements, date, time, gift, status, claimed_by, reviewed, review_skipped, review_skipped_at, created_at, updated_at)
values ('fa404000-0000-4000-8000-000000000004', 'a11ce000-0000-4000-8000-000000000001', 'Pick up a package', null, 'Main Post Office', 'under_hour', null, pg_temp.seed_day(3), '12:00:00', null, 'confirmed', 'ca201000-0000-4000-8000-000000000003', false, false, null, pg_temp.seed_at(-313200), pg_temp.seed_at(-138600))
on conflict (id) do nothing;
insert into public.favors (id, user_id, title, description, location, duration, requirements, date, time, gift, status, claimed_by, reviewed, review_skipped, review_skipped_at, created_at, updated_at)
values ('fa404000-0000-4000-8000-000000000005', 'ca201000-0000-4000-8000-000000000003', 'Dog walking', 'Rex needs a morning walk.', 'Elm St 14', 'under_hour', null, pg_temp.seed_day(-14), '07:30:00', null, 'completed', 'da4e0000-0000-4000-8000-000000000004', true, false, null, pg_temp.seed_at(-1695600), pg_temp.seed_at(-1137600))
on conflict (id) do nothing;

-- request_qa: 4 rows
insert into public.request_qa (id, ride_id, favor_id, user_id, parent_id, content, created_at)
values ('0a0a0000-0000-4000-8000-000000000001', '7a1d0000-0000-4000-8000-000000000001', null, 'ca201000-0000-4000-8000-000000000003', null, 'Can you be ready 10 minutes early?', pg_temp.seed_at(-136800))
on conflict (id) do nothing;
insert into public.request_qa (id, ride_id, favor_id, user_id, parent_id, content, created_at)
values ('0a0a0000-0000-4000-8000-000000000002', '7a1d0000-0000-4000-8000-000000000001', null, 'b0b00000-0000-4000-8000-000000000002', '0a0a0000-0000-4000-8000-000000000001', 'Sure, I''ll be outside at 8:20.', pg_temp.seed_at(-135000))
on conflict (id) do nothing;
insert into public.request_qa (id, ride_id, favor_id, user_id, parent_id, content, created_at)
values ('0a0a0000-0000-4000-8000-000000000003', null, 'fa404000-0000-4000-8000-000000000001', 'da4e0000-0000-4000-8000-000000000004', null, 'How many flights of stairs?', pg_temp.seed_at(-133200))
on conflict (id) do nothing;
insert into public.request_qa (id, ride_id, favor_id, user_id, parent_id, content, created_at)
values ('0a0a0000-0000-4000-8000-000000000004', null, 'fa404000-0000-4000-8000-000000000001', 'b0b00000-0000-4000-8000-000000000002', '0a0a0000-0000-4000-8000-000000000003', 'Just one, and there is an elevator.', pg_temp.seed_at(-131400))
on conflict (id) do nothing;

-- conversations: 2 rows
insert into public.conversations (id, ride_id, favor_id, created_by, created_at, updated_at)
values ('c0c00000-0000-4000-8000-000000000001', '7a1d0000-0000-4000-8000-000000000004', null, 'ca201000-0000-4000-8000-000000000003', pg_temp.seed_at(-223200), pg_temp.seed_at(-57600))
on conflict (id) do nothing;
insert into public.conversations (id, ride_id, favor_id, created_by, created_at, updated_at)
values ('c0c00000-0000-4000-8000-000000000002', null, 'fa404000-0000-4000-8000-000000000004', 'a11ce000-0000-4000-8000-000000000001', pg_temp.seed_at(-140400), pg_temp.seed_at(-138540))
on conflict (id) do nothing;

-- conversation_participants: 4 rows
insert into public.conversation_participants (id, conversation_id, user_id, last_read_at, created_at, updated_at)
values ('c0c0a000-0000-4000-8000-000000000001', 'c0c00000-0000-4000-8000-000000000001', 'ca201000-0000-4000-8000-000000000003', pg_temp.seed_at(-57600), pg_temp.seed_at(-223200), pg_temp.seed_at(-57600))
on conflict (id) do nothing;
insert into public.conversation_participants (id, conversation_id, user_id, last_read_at, created_at, updated_at)
values ('c0c0a000-0000-4000-8000-000000000002', 'c0c00000-0000-4000-8000-000000000001', 'b0b00000-0000-4000-8000-000000000002', pg_temp.seed_at(-222780), pg_temp.seed_at(-223200), pg_temp.seed_at(-222780))
on conflict (id) do nothing;
insert into public.conversation_participants (id, conversation_id, user_id, last_read_at, created_at, updated_at)
values ('c0c0a000-0000-4000-8000-000000000003', 'c0c00000-0000-4000-8000-000000000002', 'a11ce000-0000-4000-8000-000000000001', pg_temp.seed_at(-138540), pg_temp.seed_at(-140400), pg_temp.seed_at(-138540))
on conflict (id) do nothing;
insert into public.conversation_participants (id, conversation_id, user_id, last_read_at, created_at, updated_at)
values ('c0c0a000-0000-4000-8000-000000000004', 'c0c00000-0000-4000-8000-000000000002', 'ca201000-0000-4000-8000-000000000003', pg_temp.seed_at(-138600), pg_temp.seed_at(-140400), pg_temp.seed_at(-138600))
on conflict (id) do nothing;

-- messages: 7 rows
insert into public.messages (id, conversation_id, from_id, content, image_url, read_by, created_at, updated_at)
values ('3e550000-0000-4000-8000-000000000001', 'c0c00000-0000-4000-8000-000000000001', 'ca201000-0000-4000-8000-000000000003', 'Thanks for taking my ride to the market!', null, array['b0b00000-0000-4000-8000-000000000002']::uuid[], pg_temp.seed_at(-223200), pg_temp.seed_at(-223200))
on conflict (id) do nothing;
insert into public.messages (id, conversation_id, from_id, content, image_url, read_by, created_at, updated_at)
values ('3e550000-0000-4000-8000-000000000002', 'c0c00000-0000-4000-8000-000000000001', 'b0b00000-0000-4000-8000-000000000002', 'Happy to help. 10am at your place?', null, array['ca201000-0000-4000-8000-000000000003']::uuid[], pg_temp.seed_at(-222900), pg_temp.seed_at(-222900))
on conflict (id) do nothing;
insert into public.messages (id, conversation_id, from_id, content, image_url, read_by, created_at, updated_at)
values ('3e550000-0000-4000-8000-000000000003', 'c0c00000-0000-4000-8000-000000000001', 'ca201000-0000-4000-8000-000000000003', 'Perfect, see you then.', null, array['b0b00000-0000-4000-8000-000000000002']::uuid[], pg_temp.seed_at(-222780), pg_temp.seed_at(-222780))
on conflict (id) do nothing;
insert into public.messages (id, conversation_id, from_id, content, image_url, read_by, created_at, updated_at)
values ('3e550000-0000-4000-8000-000000000004', 'c0c00000-0000-4000-8000-000000000001', 'ca201000-0000-4000-8000-000000000003', 'Could we make it 10:15 instead?', null, '{}'::uuid[], pg_temp.seed_at(-57600), pg_temp.seed_at(-57600))
on conflict (id) do nothing;
insert into public.messages (id, conversation_id, from_id, content, image_url, read_by, created_at, updated_at)
values ('3e550000-0000-4000-8000-000000000005', 'c0c00000-0000-4000-8000-000000000002', 'a11ce000-0000-4000-8000-000000000001', 'The package is under my name, Alice Anderson.', null, array['ca201000-0000-4000-8000-000000000003']::uuid[], pg_temp.seed_at(-140400), pg_temp.seed_at(-140400))
on conflict (id) do nothing;
insert into public.messages (id, conversation_id, from_id, content, image_url, read_by, created_at, updated_at)
values ('3e550000-0000-4000-8000-000000000006', 'c0c00000-0000-4000-8000-000000000002', 'ca201000-0000-4000-8000-000000000003', 'Got it, I will grab it on the 4th.', null, array['a11ce000-0000-4000-8000-000000000001']::uuid[], pg_temp.seed_at(-138600), pg_temp.seed_at(-138600))
on conflict (id) do nothing;
insert into public.messages (id, conversation_id, from_id, content, image_url, read_by, created_at, updated_at)
values ('3e550000-0000-4000-8000-000000000007', 'c0c00000-0000-4000-8000-000000000002', 'a11ce000-0000-4000-8000-000000000001', 'Thank you!', null, '{}'::uuid[], pg_temp.seed_at(-138540), pg_temp.seed_at(-138540))
on conflict (id) do nothing;

-- town_hall_posts: 3 rows
insert into public.town_hall_posts (id, user_id, title, content, image_url, created_at)
values ('70a40000-0000-4000-8000-000000000001', 'a11ce000-0000-4000-8000-000000000001', 'Welcome to Naar''s Cars!', 'This is our community board. Be kind, help each other out, and say thanks.', null, pg_temp.seed_at(-5227200))
on conflict (id) do nothing;
insert into public.town_hall_posts (id, user_id, title, content, image_url, created_at)
values ('70a40000-0000-4000-8000-000000000002', 'b0b00000-0000-4000-8000-000000000002', 'Bob Brown reviewed Carol Chen', '★★★★★ Carol was right on time!', null, pg_temp.seed_at(-1404000))
on conflict (id) do nothing;
insert into public.town_hall_posts (id, user_id, title, content, image_url, created_at)
values ('70a40000-0000-4000-8000-000000000003', 'ca201000-0000-4000-8000-000000000003', 'Carol Chen reviewed Dave Davis', '★★★★ Rex loved the walk.', null, pg_temp.seed_at(-1137600))
on conflict (id) do nothing;

-- reviews: 2 rows
insert into public.reviews (id, reviewer_id, fulfiller_id, ride_id, favor_id, rating, comment, town_hall_post_id, created_at)
values ('4e7e0000-0000-4000-8000-000000000001', 'b0b00000-0000-4000-8000-000000000002', 'ca201000-0000-4000-8000-000000000003', '7a1d0000-0000-4000-8000-000000000005', null, 5, 'Carol was right on time!', '70a40000-0000-4000-8000-000000000002', pg_temp.seed_at(-1404000))
on conflict (id) do nothing;
insert into public.reviews (id, reviewer_id, fulfiller_id, ride_id, favor_id, rating, comment, town_hall_post_id, created_at)
values ('4e7e0000-0000-4000-8000-000000000002', 'ca201000-0000-4000-8000-000000000003', 'da4e0000-0000-4000-8000-000000000004', null, 'fa404000-0000-4000-8000-000000000005', 4, 'Rex loved the walk.', '70a40000-0000-4000-8000-000000000003', pg_temp.seed_at(-1137600))
on conflict (id) do nothing;

-- notifications: 6 rows
insert into public.notifications (id, user_id, type, title, body, ride_id, favor_id, read, pinned, created_at, updated_at)
values ('4071f000-0000-4000-8000-000000000001', 'b0b00000-0000-4000-8000-000000000002', 'announcement', 'Holiday schedule', 'Rides over the holidays take longer to be claimed: post your requests early!', null, null, false, true, pg_temp.seed_at(-993600), pg_temp.seed_at(-993600))
on conflict (id) do nothing;
insert into public.notifications (id, user_id, type, title, body, ride_id, favor_id, read, pinned, created_at, updated_at)
values ('4071f000-0000-4000-8000-000000000002', 'ca201000-0000-4000-8000-000000000003', 'ride_update', 'Bob Brown claimed your ride', 'Farmers Market on Jan 3 at 10:00', '7a1d0000-0000-4000-8000-000000000004', null, true, false, pg_temp.seed_at(-223800), pg_temp.seed_at(-223800))
on conflict (id) do nothing;
insert into public.notifications (id, user_id, type, title, body, ride_id, favor_id, read, pinned, created_at, updated_at)
values ('4071f000-0000-4000-8000-000000000003', 'b0b00000-0000-4000-8000-000000000002', 'message', 'New message from Carol Chen', 'Could we make it 10:15 instead?', null, null, false, false, pg_temp.seed_at(-57600), pg_temp.seed_at(-57600))
on conflict (id) do nothing;
insert into public.notifications (id, user_id, type, title, body, ride_id, favor_id, read, pinned, created_at, updated_at)
values ('4071f000-0000-4000-8000-000000000004', 'da4e0000-0000-4000-8000-000000000004', 'review_reminder', 'How was your ride with Bob Brown?', 'Leave a review for your ride to the Hardware Store.', '7a1d0000-0000-4000-8000-000000000006', null, false, false, pg_temp.seed_at(-226800), pg_temp.seed_at(-226800))
on conflict (id) do nothing;
insert into public.notifications (id, user_id, type, title, body, ride_id, favor_id, read, pinned, created_at, updated_at)
values ('4071f000-0000-4000-8000-000000000005', 'ca201000-0000-4000-8000-000000000003', 'review_received', 'Bob Brown reviewed you', '5 stars: Carol was right on time!', '7a1d0000-0000-4000-8000-000000000005', null, false, false, pg_temp.seed_at(-1404000), pg_temp.seed_at(-1404000))
on conflict (id) do nothing;
insert into public.notifications (id, user_id, type, title, body, ride_id, favor_id, read, pinned, created_at, updated_at)
values ('4071f000-0000-4000-8000-000000000006', 'a11ce000-0000-4000-8000-000000000001', 'favor_update', 'Carol Chen claimed your favor', 'Pick up a package on Jan 4', null, 'fa404000-0000-4000-8000-000000000004', true, false, pg_temp.seed_at(-216000), pg_temp.seed_at(-216000))
on conflict (id) do nothing;

alter table public.profiles enable trigger user;
alter table public.invite_codes enable trigger user;
alter table public.rides enable trigger user;
alter table public.favors enable trigger user;
alter table public.request_qa enable trigger user;
alter table public.conversations enable trigger user;
alter table public.conversation_participants enable trigger user;
alter table public.messages enable trigger user;
alter table public.town_hall_posts enable trigger user;
alter table public.reviews enable trigger user;
alter table public.notifications enable trigger user;

commit;
