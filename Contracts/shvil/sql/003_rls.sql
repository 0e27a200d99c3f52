-- Shvil row-level security: Contracts/shvil/policies.json. The document states no policy; the
-- matrix is decided there (own-only personal data, shared read-only places, public flags). RLS is
-- on for every table; a '-' cell has no policy; the service role bypasses RLS. Idempotent.

alter table public.users enable row level security;
alter table public.adventures enable row level security;
alter table public.places enable row level security;
alter table public.adventure_stops enable row level security;
alter table public.feature_flags enable row level security;

-- users: own ---------------------------------------------------------------------------------
drop policy if exists users_select_own on public.users;
create policy users_select_own on public.users for select using (id = auth.uid());
drop policy if exists users_insert_own on public.users;
create policy users_insert_own on public.users for insert with check (id = auth.uid());
drop policy if exists users_update_own on public.users;
create policy users_update_own on public.users for update using (id = auth.uid()) with check (id = auth.uid());

-- adventures: own, every command -------------------------------------------------------------
drop policy if exists adventures_select_own on public.adventures;
create policy adventures_select_own on public.adventures for select using (user_id = auth.uid());
drop policy if exists adventures_insert_own on public.adventures;
create policy adventures_insert_own on public.adventures for insert with check (user_id = auth.uid());
drop policy if exists adventures_update_own on public.adventures;
create policy adventures_update_own on public.adventures for update using (user_id = auth.uid()) with check (user_id = auth.uid());
drop policy if exists adventures_delete_own on public.adventures;
create policy adventures_delete_own on public.adventures for delete using (user_id = auth.uid());

-- adventure_stops: through the parent adventure's owner ------------------------------------------
-- The parent lookup reads adventures under the caller's RLS, which is own-only: the same rows.
drop policy if exists adventure_stops_select_own on public.adventure_stops;
create policy adventure_stops_select_own on public.adventure_stops for select
  using (exists (select 1 from public.adventures a where a.id = adventure_id and a.user_id = auth.uid()));
drop policy if exists adventure_stops_insert_own on public.adventure_stops;
create policy adventure_stops_insert_own on public.adventure_stops for insert
  with check (exists (select 1 from public.adventures a where a.id = adventure_id and a.user_id = auth.uid()));
drop policy if exists adventure_stops_update_own on public.adventure_stops;
create policy adventure_stops_update_own on public.adventure_stops for update
  using (exists (select 1 from public.adventures a where a.id = adventure_id and a.user_id = auth.uid()))
  with check (exists (select 1 from public.adventures a where a.id = adventure_id and a.user_id = auth.uid()));
drop policy if exists adventure_stops_delete_own on public.adventure_stops;
create policy adventure_stops_delete_own on public.adventure_stops for delete
  using (exists (select 1 from public.adventures a where a.id = adventure_id and a.user_id = auth.uid()));

-- places: signed-in users read and add; nobody edits or deletes -------------------------------
drop policy if exists places_select_authenticated on public.places;
create policy places_select_authenticated on public.places for select to authenticated using (true);
drop policy if exists places_insert_creator on public.places;
create policy places_insert_creator on public.places for insert with check (created_by = auth.uid());

-- feature_flags: everyone reads --------------------------------------------------------------
drop policy if exists feature_flags_select_public on public.feature_flags;
create policy feature_flags_select_public on public.feature_flags for select using (true);
