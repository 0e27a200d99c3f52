-- Naar's Cars: row-level security (FR-009..FR-011, Appendix A step 4), the matrix of
-- Contracts/naarscars/policies.json. RLS is enabled on every table; a cell the document marks
-- "N/A" or "System only" has no policy (PostgreSQL then refuses: 42501 on INSERT, 0 rows on
-- UPDATE/DELETE); the service role bypasses RLS.
--
-- The helper functions are the "definitions" of policies.json. They are SECURITY DEFINER: they
-- read profiles and conversation_participants directly, so admin and approval are checked in the
-- data (FR-011) and a policy on conversation_participants can consult that same table without
-- recursing into its own policy. Idempotent (CREATE OR REPLACE, DROP POLICY IF EXISTS).

-- Definitions --------------------------------------------------------------------------------
create or replace function public.is_approved() returns boolean
  language sql stable security definer set search_path = public
  as $$ select exists (select 1 from public.profiles where id = auth.uid() and approved) $$;

create or replace function public.is_admin() returns boolean
  language sql stable security definer set search_path = public
  as $$ select exists (select 1 from public.profiles where id = auth.uid() and is_admin) $$;

create or replace function public.is_conversation_participant(conv uuid) returns boolean
  language sql stable security definer set search_path = public
  as $$ select exists (select 1 from public.conversation_participants
                       where conversation_id = conv and user_id = auth.uid()) $$;

create or replace function public.is_conversation_creator(conv uuid) returns boolean
  language sql stable security definer set search_path = public
  as $$ select exists (select 1 from public.conversations where id = conv and created_by = auth.uid()) $$;

-- The conversation is about a request the caller owns, has claimed or co-requests.
create or replace function public.is_involved_in_conversation_request(conv uuid) returns boolean
  language sql stable security definer set search_path = public
  as $$
    select exists (
      select 1 from public.conversations c
      where c.id = conv and (
        exists (select 1 from public.rides r where r.id = c.ride_id and (r.user_id = auth.uid() or r.claimed_by = auth.uid()))
        or exists (select 1 from public.ride_participants p where p.ride_id = c.ride_id and p.user_id = auth.uid())
        or exists (select 1 from public.favors f where f.id = c.favor_id and (f.user_id = auth.uid() or f.claimed_by = auth.uid()))
        or exists (select 1 from public.favor_participants p where p.favor_id = c.favor_id and p.user_id = auth.uid())))
  $$;

create or replace function public.owns_ride(ride uuid) returns boolean
  language sql stable security definer set search_path = public
  as $$ select exists (select 1 from public.rides where id = ride and user_id = auth.uid()) $$;

create or replace function public.owns_favor(favor uuid) returns boolean
  language sql stable security definer set search_path = public
  as $$ select exists (select 1 from public.favors where id = favor and user_id = auth.uid()) $$;

-- The ride or favor is completed, owned by the caller and was claimed by the reviewed user.
create or replace function public.can_review(ride uuid, favor uuid, fulfiller uuid) returns boolean
  language sql stable security definer set search_path = public
  as $$
    select exists (select 1 from public.rides r where r.id = ride and r.user_id = auth.uid()
                     and r.claimed_by = fulfiller and r.status = 'completed')
        or exists (select 1 from public.favors f where f.id = favor and f.user_id = auth.uid()
                     and f.claimed_by = fulfiller and f.status = 'completed')
  $$;

-- Grants: Supabase's defaults (the shim sets them too), stated so the file stands alone.
grant usage on schema public to anon, authenticated, service_role;
grant select, insert, update, delete on all tables in schema public to anon, authenticated, service_role;

alter table public.profiles enable row level security;
alter table public.invite_codes enable row level security;
alter table public.rides enable row level security;
alter table public.ride_participants enable row level security;
alter table public.favors enable row level security;
alter table public.favor_participants enable row level security;
alter table public.request_qa enable row level security;
alter table public.conversations enable row level security;
alter table public.conversation_participants enable row level security;
alter table public.messages enable row level security;
alter table public.notifications enable row level security;
alter table public.push_tokens enable row level security;
alter table public.reviews enable row level security;
alter table public.town_hall_posts enable row level security;

-- profiles: Own + approved users | Own only | Own only | N/A ----------------------------------
drop policy if exists "profiles: select own + approved users" on public.profiles;
create policy "profiles: select own + approved users" on public.profiles for select
  using (id = auth.uid() or (public.is_approved() and approved) or public.is_admin());
drop policy if exists "profiles: insert own only" on public.profiles;
create policy "profiles: insert own only" on public.profiles for insert
  with check (id = auth.uid() and is_admin = false and approved = false);
drop policy if exists "profiles: update own only" on public.profiles;
create policy "profiles: update own only" on public.profiles for update
  using (id = auth.uid() or public.is_admin()) with check (id = auth.uid() or public.is_admin());

-- invite_codes: Own created + unused (for validation) | Approved users | Mark as used | N/A ---
drop policy if exists "invite_codes: select own created + unused" on public.invite_codes;
create policy "invite_codes: select own created + unused" on public.invite_codes for select
  using (created_by = auth.uid() or (auth.role() = 'authenticated' and used_by is null)
         or used_by = auth.uid() or public.is_admin());
drop policy if exists "invite_codes: insert approved users" on public.invite_codes;
create policy "invite_codes: insert approved users" on public.invite_codes for insert
  with check (public.is_approved() and created_by = auth.uid() and used_by is null);
drop policy if exists "invite_codes: update mark as used" on public.invite_codes;
create policy "invite_codes: update mark as used" on public.invite_codes for update
  using (auth.role() = 'authenticated' and used_by is null) with check (used_by = auth.uid());

-- rides: Approved users | Own only | Own or claimed | Own only -------------------------------
drop policy if exists "rides: select approved users" on public.rides;
create policy "rides: select approved users" on public.rides for select using (public.is_approved());
drop policy if exists "rides: insert own only" on public.rides;
create policy "rides: insert own only" on public.rides for insert
  with check (public.is_approved() and user_id = auth.uid());
drop policy if exists "rides: update own or claimed" on public.rides;
create policy "rides: update own or claimed" on public.rides for update
  using (public.is_approved() and (user_id = auth.uid() or claimed_by = auth.uid()
                                   or (claimed_by is null and status = 'open')))
  with check (user_id = auth.uid() or claimed_by = auth.uid() or (claimed_by is null and status = 'open'));
drop policy if exists "rides: delete own only" on public.rides;
create policy "rides: delete own only" on public.rides for delete using (user_id = auth.uid());

-- ride_participants: Approved users | Ride owner | N/A | Ride owner -------------------------
drop policy if exists "ride_participants: select approved users" on public.ride_participants;
create policy "ride_participants: select approved users" on public.ride_participants for select using (public.is_approved());
drop policy if exists "ride_participants: insert ride owner" on public.ride_participants;
create policy "ride_participants: insert ride owner" on public.ride_participants for insert with check (public.owns_ride(ride_id));
drop policy if exists "ride_participants: delete ride owner" on public.ride_participants;
create policy "ride_participants: delete ride owner" on public.ride_participants for delete using (public.owns_ride(ride_id));

-- favors: Approved users | Own only | Own or claimed | Own only ------------------------------
drop policy if exists "favors: select approved users" on public.favors;
create policy "favors: select approved users" on public.favors for select using (public.is_approved());
drop policy if exists "favors: insert own only" on public.favors;
create policy "favors: insert own only" on public.favors for insert
  with check (public.is_approved() and user_id = auth.uid());
drop policy if exists "favors: update own or claimed" on public.favors;
create policy "favors: update own or claimed" on public.favors for update
  using (public.is_approved() and (user_id = auth.uid() or claimed_by = auth.uid()
                                   or (claimed_by is null and status = 'open')))
  with check (user_id = auth.uid() or claimed_by = auth.uid() or (claimed_by is null and status = 'open'));
drop policy if exists "favors: delete own only" on public.favors;
create policy "favors: delete own only" on public.favors for delete using (user_id = auth.uid());

-- favor_participants: Approved users | Favor owner | N/A | Favor owner -----------------------
drop policy if exists "favor_participants: select approved users" on public.favor_participants;
create policy "favor_participants: select approved users" on public.favor_participants for select using (public.is_approved());
drop policy if exists "favor_participants: insert favor owner" on public.favor_participants;
create policy "favor_participants: insert favor owner" on public.favor_participants for insert with check (public.owns_favor(favor_id));
drop policy if exists "favor_participants: delete favor owner" on public.favor_participants;
create policy "favor_participants: delete favor owner" on public.favor_participants for delete using (public.owns_favor(favor_id));

-- request_qa: Approved users | Approved users | N/A | Own only ------------------------------
drop policy if exists "request_qa: select approved users" on public.request_qa;
create policy "request_qa: select approved users" on public.request_qa for select using (public.is_approved());
drop policy if exists "request_qa: insert approved users" on public.request_qa;
create policy "request_qa: insert approved users" on public.request_qa for insert
  with check (public.is_approved() and user_id = auth.uid());
drop policy if exists "request_qa: delete own only" on public.request_qa;
create policy "request_qa: delete own only" on public.request_qa for delete using (user_id = auth.uid());

-- conversations: Participants only | Approved users | Admins | N/A ---------------------------
drop policy if exists "conversations: select participants only" on public.conversations;
create policy "conversations: select participants only" on public.conversations for select
  using (public.is_conversation_participant(id) or created_by = auth.uid() or public.is_admin());
drop policy if exists "conversations: insert approved users" on public.conversations;
create policy "conversations: insert approved users" on public.conversations for insert
  with check (public.is_approved() and created_by = auth.uid());
drop policy if exists "conversations: update admins" on public.conversations;
create policy "conversations: update admins" on public.conversations for update
  using (public.is_admin()) with check (true);

-- conversation_participants: Participants | Creator or self | Own participation | N/A -------
drop policy if exists "conversation_participants: select participants" on public.conversation_participants;
create policy "conversation_participants: select participants" on public.conversation_participants for select
  using (user_id = auth.uid() or public.is_conversation_participant(conversation_id));
drop policy if exists "conversation_participants: insert creator or self" on public.conversation_participants;
create policy "conversation_participants: insert creator or self" on public.conversation_participants for insert
  with check (public.is_approved() and (public.is_conversation_creator(conversation_id)
              or (user_id = auth.uid() and public.is_involved_in_conversation_request(conversation_id))));
drop policy if exists "conversation_participants: update own participation" on public.conversation_participants;
create policy "conversation_participants: update own participation" on public.conversation_participants for update
  using (user_id = auth.uid())
  with check (user_id = auth.uid() and public.is_conversation_participant(conversation_id));

-- messages: Participants | Participants as sender | Participants (read_by) | N/A -------------
drop policy if exists "messages: select participants" on public.messages;
create policy "messages: select participants" on public.messages for select
  using (public.is_conversation_participant(conversation_id));
drop policy if exists "messages: insert participants as sender" on public.messages;
create policy "messages: insert participants as sender" on public.messages for insert
  with check (from_id = auth.uid() and public.is_conversation_participant(conversation_id));
drop policy if exists "messages: update participants (read_by)" on public.messages;
create policy "messages: update participants (read_by)" on public.messages for update
  using (public.is_conversation_participant(conversation_id))
  with check (public.is_conversation_participant(conversation_id));

-- notifications: Own only | System only | Own only | N/A ------------------------------------
drop policy if exists "notifications: select own only" on public.notifications;
create policy "notifications: select own only" on public.notifications for select using (user_id = auth.uid());
drop policy if exists "notifications: update own only" on public.notifications;
create policy "notifications: update own only" on public.notifications for update
  using (user_id = auth.uid()) with check (user_id = auth.uid());

-- push_tokens: Own only (every command) ------------------------------------------------------
drop policy if exists "push_tokens: select own only" on public.push_tokens;
create policy "push_tokens: select own only" on public.push_tokens for select using (user_id = auth.uid());
drop policy if exists "push_tokens: insert own only" on public.push_tokens;
create policy "push_tokens: insert own only" on public.push_tokens for insert with check (user_id = auth.uid());
drop policy if exists "push_tokens: update own only" on public.push_tokens;
create policy "push_tokens: update own only" on public.push_tokens for update
  using (user_id = auth.uid()) with check (user_id = auth.uid());
drop policy if exists "push_tokens: delete own only" on public.push_tokens;
create policy "push_tokens: delete own only" on public.push_tokens for delete using (user_id = auth.uid());

-- reviews: Approved users | Reviewer only | N/A | N/A ---------------------------------------
drop policy if exists "reviews: select approved users" on public.reviews;
create policy "reviews: select approved users" on public.reviews for select using (public.is_approved());
drop policy if exists "reviews: insert reviewer only" on public.reviews;
create policy "reviews: insert reviewer only" on public.reviews for insert
  with check (reviewer_id = auth.uid() and public.is_approved() and public.can_review(ride_id, favor_id, fulfiller_id));

-- town_hall_posts: Approved users | Own only | N/A | Own or admin ----------------------------
drop policy if exists "town_hall_posts: select approved users" on public.town_hall_posts;
create policy "town_hall_posts: select approved users" on public.town_hall_posts for select using (public.is_approved());
drop policy if exists "town_hall_posts: insert own only" on public.town_hall_posts;
create policy "town_hall_posts: insert own only" on public.town_hall_posts for insert
  with check (user_id = auth.uid() and public.is_approved());
drop policy if exists "town_hall_posts: delete own or admin" on public.town_hall_posts;
create policy "town_hall_posts: delete own or admin" on public.town_hall_posts for delete
  using (user_id = auth.uid() or public.is_admin());
