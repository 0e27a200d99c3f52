-- CivicForge row-level security: Contracts/civicforge/policies.json (002 §3; the named
-- policies keep their names). RLS is on for every table; a '-' cell has no policy (PostgreSQL
-- then denies); the service role bypasses RLS. Lookups go through the SECURITY DEFINER helpers
-- of 002_functions.sql. Idempotent.

do $$
declare
  t text;
begin
  foreach t in array array['neighborhoods', 'profiles', 'reputation', 'notification_preferences', 'posts', 'post_photos',
                           'responses', 'thanks', 'post_flags', 'ai_matches', 'invitations', 'device_tokens'] loop
    execute format('alter table public.%I enable row level security', t);
  end loop;
end
$$;

-- neighborhoods: signed-in users search and create; the creator edits -------------------------
drop policy if exists neighborhoods_select_authenticated on public.neighborhoods;
create policy neighborhoods_select_authenticated on public.neighborhoods for select to authenticated using (true);
drop policy if exists neighborhoods_insert_creator on public.neighborhoods;
create policy neighborhoods_insert_creator on public.neighborhoods for insert with check (created_by = auth.uid());
drop policy if exists neighborhoods_update_creator on public.neighborhoods;
create policy neighborhoods_update_creator on public.neighborhoods for update
  using (created_by = auth.uid()) with check (created_by = auth.uid());

-- profiles ---------------------------------------------------------------------------------------
drop policy if exists profiles_select_same_neighborhood on public.profiles;
create policy profiles_select_same_neighborhood on public.profiles for select
  using (id = auth.uid() or neighborhood_id = civicforge_private.current_neighborhood_id());
drop policy if exists profiles_insert_own on public.profiles;
create policy profiles_insert_own on public.profiles for insert with check (id = auth.uid());
drop policy if exists profiles_update_own on public.profiles;
create policy profiles_update_own on public.profiles for update using (id = auth.uid()) with check (id = auth.uid());

-- reputation: own or a neighbour's; written by the thanks trigger only -------------------------
drop policy if exists reputation_select_own_or_neighbour on public.reputation;
create policy reputation_select_own_or_neighbour on public.reputation for select
  using (user_id = auth.uid()
         or civicforge_private.profile_neighborhood_id(user_id) = civicforge_private.current_neighborhood_id());

-- notification_preferences: own ------------------------------------------------------------------
drop policy if exists notification_preferences_select_own on public.notification_preferences;
create policy notification_preferences_select_own on public.notification_preferences for select using (user_id = auth.uid());
drop policy if exists notification_preferences_insert_own on public.notification_preferences;
create policy notification_preferences_insert_own on public.notification_preferences for insert with check (user_id = auth.uid());
drop policy if exists notification_preferences_update_own on public.notification_preferences;
create policy notification_preferences_update_own on public.notification_preferences for update
  using (user_id = auth.uid()) with check (user_id = auth.uid());

-- posts: neighbourhood-scoped; hidden posts only to their author; tier 2+ posts -----------------
drop policy if exists posts_select_same_neighborhood on public.posts;
create policy posts_select_same_neighborhood on public.posts for select
  using (author_id = auth.uid() or (not hidden and neighborhood_id = civicforge_private.current_neighborhood_id()));
drop policy if exists posts_insert_tier2 on public.posts;
create policy posts_insert_tier2 on public.posts for insert
  with check (author_id = auth.uid()
              and civicforge_private.current_trust_tier() >= 2
              and neighborhood_id = civicforge_private.current_neighborhood_id());
drop policy if exists posts_update_author on public.posts;
create policy posts_update_author on public.posts for update using (author_id = auth.uid()) with check (author_id = auth.uid());
drop policy if exists posts_delete_author on public.posts;
create policy posts_delete_author on public.posts for delete using (author_id = auth.uid());

-- post_photos: with the post; the post's author adds and removes them ---------------------------
drop policy if exists post_photos_select_visible on public.post_photos;
create policy post_photos_select_visible on public.post_photos for select using (civicforge_private.can_see_post(post_id));
drop policy if exists post_photos_insert_author on public.post_photos;
create policy post_photos_insert_author on public.post_photos for insert with check (civicforge_private.is_post_author(post_id));
drop policy if exists post_photos_delete_author on public.post_photos;
create policy post_photos_delete_author on public.post_photos for delete using (civicforge_private.is_post_author(post_id));

-- responses: responder and the post's author; tier 2+ responds ----------------------------------
drop policy if exists responses_select_participants on public.responses;
create policy responses_select_participants on public.responses for select
  using (responder_id = auth.uid() or civicforge_private.is_post_author(post_id));
drop policy if exists responses_insert_tier2 on public.responses;
create policy responses_insert_tier2 on public.responses for insert
  with check (responder_id = auth.uid()
              and civicforge_private.current_trust_tier() >= 2
              and civicforge_private.can_engage_post(post_id));
drop policy if exists responses_update_post_author on public.responses;
create policy responses_update_post_author on public.responses for update
  using (civicforge_private.is_post_author(post_id)) with check (civicforge_private.is_post_author(post_id));
drop policy if exists responses_delete_responder on public.responses;
create policy responses_delete_responder on public.responses for delete using (responder_id = auth.uid());

-- thanks: participants and the recipient's neighbours read; immutable ---------------------------
drop policy if exists thanks_select_participants_and_neighbours on public.thanks;
create policy thanks_select_participants_and_neighbours on public.thanks for select
  using (from_user_id = auth.uid() or to_user_id = auth.uid()
         or civicforge_private.profile_neighborhood_id(to_user_id) = civicforge_private.current_neighborhood_id());
drop policy if exists thanks_insert_sender on public.thanks;
create policy thanks_insert_sender on public.thanks for insert
  with check (from_user_id = auth.uid()
              and civicforge_private.can_see_post(post_id)
              and civicforge_private.is_post_participant(post_id, to_user_id));

-- post_flags: own flags; neighbours flag visible posts that are not theirs ----------------------
drop policy if exists post_flags_select_own on public.post_flags;
create policy post_flags_select_own on public.post_flags for select using (flagger_id = auth.uid());
drop policy if exists post_flags_insert_neighbour on public.post_flags;
create policy post_flags_insert_neighbour on public.post_flags for insert
  with check (flagger_id = auth.uid() and civicforge_private.can_engage_post(post_id));

-- ai_matches: the author of the post matched for ------------------------------------------------
drop policy if exists ai_matches_select_author on public.ai_matches;
create policy ai_matches_select_author on public.ai_matches for select using (civicforge_private.is_post_author(post_id));

-- invitations: inviter and redeemer read; tier 2+ invites into its neighbourhood ----------------
drop policy if exists invitations_select_inviter_or_redeemer on public.invitations;
create policy invitations_select_inviter_or_redeemer on public.invitations for select
  using (inviter_id = auth.uid() or redeemed_by = auth.uid());
drop policy if exists invitations_insert_tier2 on public.invitations;
create policy invitations_insert_tier2 on public.invitations for insert
  with check (inviter_id = auth.uid()
              and civicforge_private.current_trust_tier() >= 2
              and neighborhood_id = civicforge_private.current_neighborhood_id()
              and redeemed_by is null and redeemed_at is null);
drop policy if exists invitations_delete_unredeemed on public.invitations;
create policy invitations_delete_unredeemed on public.invitations for delete
  using (inviter_id = auth.uid() and redeemed_by is null);

-- device_tokens: own ------------------------------------------------------------------------------
drop policy if exists device_tokens_select_own on public.device_tokens;
create policy device_tokens_select_own on public.device_tokens for select using (user_id = auth.uid());
drop policy if exists device_tokens_insert_own on public.device_tokens;
create policy device_tokens_insert_own on public.device_tokens for insert with check (user_id = auth.uid());
drop policy if exists device_tokens_delete_own on public.device_tokens;
create policy device_tokens_delete_own on public.device_tokens for delete using (user_id = auth.uid());
