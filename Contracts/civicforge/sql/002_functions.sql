-- CivicForge functions and triggers: the rules of Contracts/civicforge/rules.json and the
-- lookups the RLS policies need. Mirrors Sources/CivicForge/Server (same trigger names, so the
-- same firing order). Idempotent.
--
-- civicforge_private is not exposed through PostgREST. Its lookups are SECURITY DEFINER so a
-- policy on profiles can read profiles without recursing into its own RLS (the mock's `exists`
-- reads the data directly, which is the same thing).

create schema if not exists civicforge_private;
grant usage on schema civicforge_private to anon, authenticated, service_role;

-- Rules as data: each value is rules.json's (a test compares them) ---------------------------
create or replace function civicforge_private.rule_flag_threshold_hide() returns integer
  language sql immutable as $$ select 3 $$;  -- rules.json moderation.flagThresholdHide
create or replace function civicforge_private.rule_review_status_when_hidden() returns public.review_status
  language sql immutable as $$ select 'pending'::public.review_status $$;  -- moderation.reviewStatusWhenHidden
create or replace function civicforge_private.rule_points_per_thanks() returns integer
  language sql immutable as $$ select 1 $$;  -- reputation.pointsPerThanks
create or replace function civicforge_private.rule_invitation_grants_tier() returns smallint
  language sql immutable as $$ select 2::smallint $$;  -- invitations.grantsTier
create or replace function civicforge_private.rule_invitation_valid_days() returns integer
  language sql immutable as $$ select 14 $$;  -- invitations.validDays
create or replace function civicforge_private.rule_invitation_code_length() returns integer
  language sql immutable as $$ select 8 $$;  -- invitations.codeLength

-- Lookups for the policies (SECURITY DEFINER, empty search_path) -----------------------------
create or replace function civicforge_private.current_trust_tier() returns smallint
  language sql stable security definer set search_path = ''
  as $$ select p.trust_tier from public.profiles p where p.id = auth.uid() $$;

create or replace function civicforge_private.current_neighborhood_id() returns uuid
  language sql stable security definer set search_path = ''
  as $$ select p.neighborhood_id from public.profiles p where p.id = auth.uid() $$;

create or replace function civicforge_private.profile_neighborhood_id(p_user uuid) returns uuid
  language sql stable security definer set search_path = ''
  as $$ select p.neighborhood_id from public.profiles p where p.id = p_user $$;

-- The caller authored the post.
create or replace function civicforge_private.is_post_author(p_post uuid) returns boolean
  language sql stable security definer set search_path = ''
  as $$ select exists (select 1 from public.posts p where p.id = p_post and p.author_id = auth.uid()) $$;

-- The caller sees the post: its author, or a neighbour while it is not hidden.
create or replace function civicforge_private.can_see_post(p_post uuid) returns boolean
  language sql stable security definer set search_path = ''
  as $$
    select exists (
      select 1 from public.posts p
      where p.id = p_post
        and (p.author_id = auth.uid()
             or (not p.hidden and p.neighborhood_id = civicforge_private.current_neighborhood_id())))
  $$;

-- The caller may respond to or flag the post: visible, not hidden, not their own.
create or replace function civicforge_private.can_engage_post(p_post uuid) returns boolean
  language sql stable security definer set search_path = ''
  as $$
    select exists (
      select 1 from public.posts p
      where p.id = p_post and not p.hidden and p.author_id <> auth.uid()
        and p.neighborhood_id = civicforge_private.current_neighborhood_id())
  $$;

-- p_user authored the post or responded to it.
create or replace function civicforge_private.is_post_participant(p_post uuid, p_user uuid) returns boolean
  language sql stable security definer set search_path = ''
  as $$
    select exists (select 1 from public.posts p where p.id = p_post and p.author_id = p_user)
        or exists (select 1 from public.responses r where r.post_id = p_post and r.responder_id = p_user)
  $$;

-- Triggers -------------------------------------------------------------------------------------
-- A "client" is a request role (anon, authenticated). SECURITY DEFINER functions run as their
-- owner, so their own writes are not client writes.

create or replace function civicforge_private.set_updated_at() returns trigger
  language plpgsql as $$
begin
  new.updated_at := now();
  return new;
end
$$;

create or replace function civicforge_private.server_column_error(p_column text, p_table text) returns void
  language plpgsql as $$
begin
  -- rules.json serverManagedColumns.error
  raise exception using errcode = '42501', message = format('column "%s" of table "%s" is managed by the server', p_column, p_table);
end
$$;

-- profiles: trust_tier and phone_verified are the server's; the EULA acceptance never changes (rules.json serverManagedColumns).
create or replace function civicforge_private.profiles_guard_server_columns() returns trigger
  language plpgsql as $$
begin
  if current_user not in ('anon', 'authenticated') then return new; end if;
  if tg_op = 'INSERT' then
    if new.trust_tier is distinct from 1 then perform civicforge_private.server_column_error('trust_tier', 'profiles'); end if;
    if new.phone_verified is distinct from false then perform civicforge_private.server_column_error('phone_verified', 'profiles'); end if;
  else
    if new.trust_tier is distinct from old.trust_tier then perform civicforge_private.server_column_error('trust_tier', 'profiles'); end if;
    if new.phone_verified is distinct from old.phone_verified then perform civicforge_private.server_column_error('phone_verified', 'profiles'); end if;
    if new.terms_accepted_at is distinct from old.terms_accepted_at then perform civicforge_private.server_column_error('terms_accepted_at', 'profiles'); end if;
  end if;
  return new;
end
$$;

-- posts: moderation columns are the server's; author and neighbourhood never change.
create or replace function civicforge_private.posts_guard_server_columns() returns trigger
  language plpgsql as $$
begin
  if current_user not in ('anon', 'authenticated') then return new; end if;
  if tg_op = 'INSERT' then
    if new.hidden is distinct from false then perform civicforge_private.server_column_error('hidden', 'posts'); end if;
    if new.flag_count is distinct from 0 then perform civicforge_private.server_column_error('flag_count', 'posts'); end if;
    if new.review_status is distinct from 'none' then perform civicforge_private.server_column_error('review_status', 'posts'); end if;
  else
    if new.hidden is distinct from old.hidden then perform civicforge_private.server_column_error('hidden', 'posts'); end if;
    if new.flag_count is distinct from old.flag_count then perform civicforge_private.server_column_error('flag_count', 'posts'); end if;
    if new.review_status is distinct from old.review_status then perform civicforge_private.server_column_error('review_status', 'posts'); end if;
    if new.author_id is distinct from old.author_id then perform civicforge_private.server_column_error('author_id', 'posts'); end if;
    if new.neighborhood_id is distinct from old.neighborhood_id then perform civicforge_private.server_column_error('neighborhood_id', 'posts'); end if;
  end if;
  return new;
end
$$;

-- responses: the post's author changes only the status.
create or replace function civicforge_private.responses_guard_server_columns() returns trigger
  language plpgsql as $$
begin
  if current_user not in ('anon', 'authenticated') or tg_op = 'INSERT' then return new; end if;
  if new.post_id is distinct from old.post_id then perform civicforge_private.server_column_error('post_id', 'responses'); end if;
  if new.responder_id is distinct from old.responder_id then perform civicforge_private.server_column_error('responder_id', 'responses'); end if;
  if new.message is distinct from old.message then perform civicforge_private.server_column_error('message', 'responses'); end if;
  return new;
end
$$;

-- A new profile gets its reputation and notification_preferences rows.
create or replace function civicforge_private.profiles_create_companions() returns trigger
  language plpgsql security definer set search_path = '' as $$
begin
  insert into public.reputation (user_id) values (new.id) on conflict do nothing;
  insert into public.notification_preferences (user_id) values (new.id) on conflict do nothing;
  return null;
end
$$;

-- A post without neighborhood_id gets its author's.
create or replace function civicforge_private.posts_fill_neighborhood() returns trigger
  language plpgsql security definer set search_path = '' as $$
begin
  if new.neighborhood_id is null then
    select p.neighborhood_id into new.neighborhood_id from public.profiles p where p.id = new.author_id;
  end if;
  return new;
end
$$;

-- §4 auto-hide: flag_count follows the flags; at the threshold the post is hidden and queued.
create or replace function civicforge_private.post_flags_auto_hide() returns trigger
  language plpgsql security definer set search_path = '' as $$
declare
  c integer;
begin
  -- Lock the post first so concurrent flags count each other.
  perform 1 from public.posts p where p.id = new.post_id for update;
  select count(*) into c from public.post_flags f where f.post_id = new.post_id;
  update public.posts p
     set flag_count = c,
         review_status = case when not p.hidden and c >= civicforge_private.rule_flag_threshold_hide()
                              then civicforge_private.rule_review_status_when_hidden() else p.review_status end,
         hidden = p.hidden or c >= civicforge_private.rule_flag_threshold_hide()
   where p.id = new.post_id;
  return null;
end
$$;

-- Thanks add reputation to the recipient.
create or replace function civicforge_private.thanks_add_reputation() returns trigger
  language plpgsql security definer set search_path = '' as $$
begin
  insert into public.reputation as r (user_id, score, thanks_received)
  values (new.to_user_id, civicforge_private.rule_points_per_thanks(), 1)
  on conflict (user_id) do update
    set score = r.score + civicforge_private.rule_points_per_thanks(),
        thanks_received = r.thanks_received + 1,
        updated_at = now();
  return null;
end
$$;

-- Invitation defaults: code, the inviter's neighbourhood, expiry.
create or replace function civicforge_private.invitations_fill_defaults() returns trigger
  language plpgsql security definer set search_path = '' as $$
begin
  if new.code is null then
    new.code := upper(substr(replace(gen_random_uuid()::text, '-', ''), 1, civicforge_private.rule_invitation_code_length()));
  end if;
  if new.neighborhood_id is null then
    select p.neighborhood_id into new.neighborhood_id from public.profiles p where p.id = new.inviter_id;
  end if;
  if new.expires_at is null then
    new.expires_at := now() + make_interval(days => civicforge_private.rule_invitation_valid_days());
  end if;
  return new;
end
$$;

drop trigger if exists profiles_guard_server_columns on public.profiles;
create trigger profiles_guard_server_columns before insert or update on public.profiles
  for each row execute function civicforge_private.profiles_guard_server_columns();
drop trigger if exists posts_guard_server_columns on public.posts;
create trigger posts_guard_server_columns before insert or update on public.posts
  for each row execute function civicforge_private.posts_guard_server_columns();
drop trigger if exists responses_guard_server_columns on public.responses;
create trigger responses_guard_server_columns before insert or update on public.responses
  for each row execute function civicforge_private.responses_guard_server_columns();

do $$
declare
  t text;
begin
  foreach t in array array['neighborhoods', 'profiles', 'reputation', 'notification_preferences', 'posts', 'responses'] loop
    execute format('drop trigger if exists %I on public.%I', t || '_set_updated_at', t);
    execute format('create trigger %I before update on public.%I for each row execute function civicforge_private.set_updated_at()', t || '_set_updated_at', t);
  end loop;
end
$$;

drop trigger if exists profiles_create_companions on public.profiles;
create trigger profiles_create_companions after insert on public.profiles
  for each row execute function civicforge_private.profiles_create_companions();
drop trigger if exists posts_fill_neighborhood on public.posts;
create trigger posts_fill_neighborhood before insert on public.posts
  for each row execute function civicforge_private.posts_fill_neighborhood();
drop trigger if exists post_flags_auto_hide on public.post_flags;
create trigger post_flags_auto_hide after insert on public.post_flags
  for each row execute function civicforge_private.post_flags_auto_hide();
drop trigger if exists thanks_add_reputation on public.thanks;
create trigger thanks_add_reputation after insert on public.thanks
  for each row execute function civicforge_private.thanks_add_reputation();
drop trigger if exists invitations_fill_defaults on public.invitations;
create trigger invitations_fill_defaults before insert on public.invitations
  for each row execute function civicforge_private.invitations_fill_defaults();

-- redeem_invitation: §2 "enter code to upgrade to tier 2" -------------------------------------
-- Checks and errors in the order of rules.json invitations (CFI01..CFI07); nothing changes on
-- an error. anon may not execute it (42501 permission denied for function).
create or replace function public.redeem_invitation(invite_code text) returns public.profiles
  language plpgsql volatile security definer set search_path = '' as $$
declare
  uid uuid := auth.uid();
  inv public.invitations;
  me public.profiles;
  result public.profiles;
begin
  select * into inv from public.invitations i where i.code = upper(btrim(invite_code, E' \t\r\n')) for update;
  if not found then
    raise exception using errcode = 'CFI01', message = 'invitation code not found';
  end if;
  select * into me from public.profiles p where p.id = uid for update;
  if not found then
    raise exception using errcode = 'CFI02', message = 'complete onboarding before redeeming an invitation';
  end if;
  if inv.inviter_id = uid then
    raise exception using errcode = 'CFI03', message = 'an invitation cannot be redeemed by its inviter';
  end if;
  if inv.redeemed_by is not null then
    raise exception using errcode = 'CFI04', message = 'invitation has already been redeemed';
  end if;
  if inv.expires_at <= now() then
    raise exception using errcode = 'CFI05', message = 'invitation has expired';
  end if;
  if inv.neighborhood_id is distinct from me.neighborhood_id then
    raise exception using errcode = 'CFI06', message = 'invitation is for another neighborhood';
  end if;
  if me.trust_tier >= civicforge_private.rule_invitation_grants_tier() then
    raise exception using errcode = 'CFI07', message = 'trust tier is already confirmed';
  end if;
  update public.invitations i set redeemed_by = uid, redeemed_at = now() where i.id = inv.id;
  update public.profiles p set trust_tier = civicforge_private.rule_invitation_grants_tier() where p.id = uid
    returning * into result;
  return result;
end
$$;

revoke execute on function public.redeem_invitation(text) from public, anon;
grant execute on function public.redeem_invitation(text) to authenticated, service_role;

-- The policies' lookups run as the caller's role.
grant execute on all functions in schema civicforge_private to anon, authenticated, service_role;
