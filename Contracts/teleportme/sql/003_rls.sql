-- TeleportMe row-level security: 000_affa87f3c32d28c6.txt §4.3, as Contracts/teleportme/policies.json
-- states it. RLS is enabled on every table; a '-' cell has no policy (PostgreSQL then denies:
-- 0 rows for UPDATE/DELETE, 42501 for INSERT); the service role bypasses RLS. Idempotent.

alter table public.cities enable row level security;
alter table public.city_scores enable row level security;
alter table public.vibe_tags enable row level security;
alter table public.city_vibe_tags enable row level security;
alter table public.profiles enable row level security;
alter table public.user_preferences enable row level security;
alter table public.city_reports enable row level security;
alter table public.saved_cities enable row level security;
alter table public.engagement_events enable row level security;

-- Reference data: public read ----------------------------------------------------------------
drop policy if exists "cities: public read" on public.cities;
create policy "cities: public read" on public.cities for select using (true);
drop policy if exists "city_scores: public read" on public.city_scores;
create policy "city_scores: public read" on public.city_scores for select using (true);
drop policy if exists "vibe_tags: public read" on public.vibe_tags;
create policy "vibe_tags: public read" on public.vibe_tags for select using (true);
drop policy if exists "city_vibe_tags: public read" on public.city_vibe_tags;
create policy "city_vibe_tags: public read" on public.city_vibe_tags for select using (true);

-- profiles: own only; insert own (normally via handle_new_user); no delete -----------------
drop policy if exists "profiles: select own" on public.profiles;
create policy "profiles: select own" on public.profiles for select using (id = auth.uid());
drop policy if exists "profiles: insert own" on public.profiles;
create policy "profiles: insert own" on public.profiles for insert with check (id = auth.uid());
drop policy if exists "profiles: update own" on public.profiles;
create policy "profiles: update own" on public.profiles for update
  using (id = auth.uid()) with check (id = auth.uid());

-- user_preferences: own only, every command ------------------------------------------------
drop policy if exists "user_preferences: select own" on public.user_preferences;
create policy "user_preferences: select own" on public.user_preferences for select using (user_id = auth.uid());
drop policy if exists "user_preferences: insert own" on public.user_preferences;
create policy "user_preferences: insert own" on public.user_preferences for insert with check (user_id = auth.uid());
drop policy if exists "user_preferences: update own" on public.user_preferences;
create policy "user_preferences: update own" on public.user_preferences for update
  using (user_id = auth.uid()) with check (user_id = auth.uid());
drop policy if exists "user_preferences: delete own" on public.user_preferences;
create policy "user_preferences: delete own" on public.user_preferences for delete using (user_id = auth.uid());

-- city_reports: read and create own; immutable ---------------------------------------------
drop policy if exists "city_reports: select own" on public.city_reports;
create policy "city_reports: select own" on public.city_reports for select using (user_id = auth.uid());
drop policy if exists "city_reports: insert own" on public.city_reports;
create policy "city_reports: insert own" on public.city_reports for insert with check (user_id = auth.uid());

-- saved_cities: read, create and delete own ------------------------------------------------
drop policy if exists "saved_cities: select own" on public.saved_cities;
create policy "saved_cities: select own" on public.saved_cities for select using (user_id = auth.uid());
drop policy if exists "saved_cities: insert own" on public.saved_cities;
create policy "saved_cities: insert own" on public.saved_cities for insert with check (user_id = auth.uid());
drop policy if exists "saved_cities: delete own" on public.saved_cities;
create policy "saved_cities: delete own" on public.saved_cities for delete using (user_id = auth.uid());

-- engagement_events: read and create own ---------------------------------------------------
drop policy if exists "engagement_events: select own" on public.engagement_events;
create policy "engagement_events: select own" on public.engagement_events for select using (user_id = auth.uid());
drop policy if exists "engagement_events: insert own" on public.engagement_events;
create policy "engagement_events: insert own" on public.engagement_events for insert with check (user_id = auth.uid());
