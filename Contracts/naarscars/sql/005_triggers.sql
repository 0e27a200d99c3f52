-- Naar's Cars: the triggers of FR-013 (Appendix A step 5), the request lifecycle and the message
-- column guard of Contracts/naarscars/rules.json. Error messages and codes are rules.json's.
--
-- Privilege (rules.json decisions): statements of the service role, of SECURITY DEFINER code and
-- of migrations are privileged and bypass the rule-enforcing triggers, as they bypass RLS. Inside
-- a trigger that is current_user NOT IN ('anon', 'authenticated'): the rule-enforcing trigger
-- functions are SECURITY INVOKER, so current_user is the role of the statement that fired them.
-- Same-timing triggers fire in name order (enforce_… / on_… / protect_… before set_updated_at).
-- Idempotent (CREATE OR REPLACE, DROP TRIGGER IF EXISTS).

create or replace function public.is_privileged() returns boolean
  language sql stable
  as $$ select current_user not in ('anon', 'authenticated') $$;

-- set_updated_at: every table with updated_at (FR-007) -----------------------------------------
create or replace function public.set_updated_at() returns trigger
  language plpgsql
  as $$
begin
  new.updated_at := now();
  return new;
end
$$;

drop trigger if exists set_updated_at on public.profiles;
create trigger set_updated_at before update on public.profiles for each row execute function public.set_updated_at();
drop trigger if exists set_updated_at on public.invite_codes;
create trigger set_updated_at before update on public.invite_codes for each row execute function public.set_updated_at();
drop trigger if exists set_updated_at on public.rides;
create trigger set_updated_at before update on public.rides for each row execute function public.set_updated_at();
drop trigger if exists set_updated_at on public.favors;
create trigger set_updated_at before update on public.favors for each row execute function public.set_updated_at();
drop trigger if exists set_updated_at on public.conversations;
create trigger set_updated_at before update on public.conversations for each row execute function public.set_updated_at();
drop trigger if exists set_updated_at on public.conversation_participants;
create trigger set_updated_at before update on public.conversation_participants for each row execute function public.set_updated_at();
drop trigger if exists set_updated_at on public.messages;
create trigger set_updated_at before update on public.messages for each row execute function public.set_updated_at();
drop trigger if exists set_updated_at on public.notifications;
create trigger set_updated_at before update on public.notifications for each row execute function public.set_updated_at();
drop trigger if exists set_updated_at on public.push_tokens;
create trigger set_updated_at before update on public.push_tokens for each row execute function public.set_updated_at();

-- on_auth_user_created: a profile with defaults (rules.json newProfile) -------------------------
create or replace function public.handle_new_user() returns trigger
  language plpgsql security definer set search_path = public
  as $$
begin
  insert into public.profiles (id, email, name)
  values (new.id, new.email,
          coalesce(nullif(btrim(new.raw_user_meta_data ->> 'name'), ''), split_part(new.email, '@', 1)))
  on conflict (id) do nothing;
  return new;
end
$$;

drop trigger if exists on_auth_user_created on auth.users;
create trigger on_auth_user_created after insert on auth.users for each row execute function public.handle_new_user();

-- on_message_created: bump the conversation ---------------------------------------------------
create or replace function public.handle_new_message() returns trigger
  language plpgsql security definer set search_path = public
  as $$
begin
  update public.conversations set updated_at = now() where id = new.conversation_id;
  return new;
end
$$;

drop trigger if exists on_message_created on public.messages;
create trigger on_message_created after insert on public.messages for each row execute function public.handle_new_message();

-- on_invite_code_used: used_at, invited_by; a used code stays used ------------------------------
create or replace function public.handle_invite_code_used() returns trigger
  language plpgsql
  as $$
begin
  if not public.is_privileged() then
    if new.code is distinct from old.code or new.created_by is distinct from old.created_by then
      raise exception 'an invite code''s code and created_by cannot change' using errcode = 'P0001';
    end if;
    if old.used_by is not null and new.used_by is distinct from old.used_by then
      raise exception 'invite code already used' using errcode = 'P0001';
    end if;
    if old.used_by is null and new.used_by is not null and new.used_by = old.created_by then
      raise exception 'you cannot redeem your own invite code' using errcode = 'P0001';
    end if;
  end if;
  if old.used_by is null and new.used_by is not null then
    new.used_at := now();
    -- As the statement's role: a client redeeming a code updates its own profile (RLS 'Own only').
    update public.profiles set invited_by = new.created_by where id = new.used_by and invited_by is null;
  end if;
  return new;
end
$$;

drop trigger if exists on_invite_code_used on public.invite_codes;
create trigger on_invite_code_used before update on public.invite_codes for each row execute function public.handle_invite_code_used();

-- protect_admin_fields: only admins change is_admin / approved (SEC-DB-005) ---------------------
create or replace function public.protect_admin_fields() returns trigger
  language plpgsql
  as $$
begin
  if not public.is_privileged()
     and (new.is_admin is distinct from old.is_admin or new.approved is distinct from old.approved)
     and not public.is_admin() then
    raise exception 'only admins can change is_admin or approved' using errcode = '42501';
  end if;
  return new;
end
$$;

drop trigger if exists protect_admin_fields on public.profiles;
create trigger protect_admin_fields before update on public.profiles for each row execute function public.protect_admin_fields();

-- on_review_created: the review's town hall post (rules.json reviewPost) ------------------------
create or replace function public.handle_new_review() returns trigger
  language plpgsql security definer set search_path = public
  as $$
declare
  reviewer_name text;
  fulfiller_name text;
  post_id uuid;
begin
  select p.name into reviewer_name from public.profiles p where p.id = new.reviewer_id;
  select p.name into fulfiller_name from public.profiles p where p.id = new.fulfiller_id;
  insert into public.town_hall_posts (user_id, title, content)
  values (new.reviewer_id,
          coalesce(reviewer_name, '') || ' reviewed ' || coalesce(fulfiller_name, ''),
          rtrim(repeat('★', greatest(new.rating, 0)) || ' ' || coalesce(new.comment, ''), ' '))
  returning id into post_id;
  new.town_hall_post_id := post_id;
  return new;
end
$$;

drop trigger if exists on_review_created on public.reviews;
create trigger on_review_created before insert on public.reviews for each row execute function public.handle_new_review();

-- mark_request_reviewed ------------------------------------------------------------------------
create or replace function public.handle_review_mark_reviewed() returns trigger
  language plpgsql security definer set search_path = public
  as $$
begin
  if new.ride_id is not null then update public.rides set reviewed = true where id = new.ride_id; end if;
  if new.favor_id is not null then update public.favors set reviewed = true where id = new.favor_id; end if;
  return new;
end
$$;

drop trigger if exists mark_request_reviewed on public.reviews;
create trigger mark_request_reviewed after insert on public.reviews for each row execute function public.handle_review_mark_reviewed();

-- enforce_request_lifecycle: rules.json requestLifecycle ---------------------------------------
create or replace function public.enforce_request_lifecycle() returns trigger
  language plpgsql
  as $$
declare
  uid uuid := auth.uid();
  is_owner boolean;
  old_row jsonb;
  new_row jsonb;
  col text;
  from_status text;
  to_status text;
  actors text[];
  claim_rule text;
  claimer uuid;
begin
  if public.is_privileged() then
    return new;
  end if;
  if tg_op = 'INSERT' then
    if new.status::text <> 'open' or new.claimed_by is not null then
      raise exception 'a new request must start open and unclaimed' using errcode = 'P0001';
    end if;
    return new;
  end if;
  is_owner := coalesce(old.user_id = uid, false);
  old_row := to_jsonb(old);
  new_row := to_jsonb(new);
  foreach col in array array['id', 'user_id', 'created_at'] loop
    if new_row -> col is distinct from old_row -> col then
      raise exception '% cannot change', col using errcode = '42501';
    end if;
  end loop;
  if not is_owner then
    for col in select a.attname from pg_attribute a
               where a.attrelid = tg_relid and a.attnum > 0 and not a.attisdropped order by a.attnum loop
      if col not in ('status', 'claimed_by', 'updated_at') and new_row -> col is distinct from old_row -> col then
        raise exception 'only the owner may change %', col using errcode = '42501';
      end if;
    end loop;
  end if;
  from_status := old.status::text;
  to_status := new.status::text;
  if from_status = to_status then
    if new.claimed_by is distinct from old.claimed_by then
      raise exception 'claimed_by changes only with a claim or an unclaim' using errcode = 'P0001';
    end if;
    return new;
  end if;
  select t.by_actors, t.claim_rule into actors, claim_rule
  from (values
    ('open', 'pending', array['claimer'], 'caller'),
    ('pending', 'confirmed', array['owner'], 'keep'),
    ('confirmed', 'completed', array['owner', 'claimer'], 'keep'),
    ('pending', 'open', array['owner', 'claimer'], 'clear'),
    ('confirmed', 'open', array['owner', 'claimer'], 'clear')
  ) as t(from_value, to_value, by_actors, claim_rule)
  where t.from_value = from_status and t.to_value = to_status;
  if not found then
    raise exception 'invalid status transition from % to %', from_status, to_status using errcode = 'P0001';
  end if;
  if claim_rule = 'caller' and (new.claimed_by is null or new.claimed_by is distinct from uid) then
    raise exception 'claimed_by must be the caller when claiming' using errcode = '42501';
  elsif claim_rule = 'keep' and (old.claimed_by is null or new.claimed_by is distinct from old.claimed_by) then
    raise exception 'claimed_by cannot change when status goes from % to %', from_status, to_status using errcode = 'P0001';
  elsif claim_rule = 'clear' and new.claimed_by is not null then
    raise exception 'claimed_by must be cleared when a request goes back to open' using errcode = 'P0001';
  end if;
  claimer := case when claim_rule = 'caller' then new.claimed_by else old.claimed_by end;
  if not (('owner' = any(actors) and is_owner) or ('claimer' = any(actors) and uid is not null and claimer = uid)) then
    raise exception 'only the % may change status from % to %', array_to_string(actors, ' or '), from_status, to_status
      using errcode = '42501';
  end if;
  return new;
end
$$;

drop trigger if exists enforce_request_lifecycle on public.rides;
create trigger enforce_request_lifecycle before insert or update on public.rides for each row execute function public.enforce_request_lifecycle();
drop trigger if exists enforce_request_lifecycle on public.favors;
create trigger enforce_request_lifecycle before insert or update on public.favors for each row execute function public.enforce_request_lifecycle();

-- protect_message_fields: clients change only read_by, and only their own id in it -------------
create or replace function public.protect_message_fields() returns trigger
  language plpgsql
  as $$
begin
  if public.is_privileged() then
    return new;
  end if;
  if (to_jsonb(new) - 'read_by' - 'updated_at') is distinct from (to_jsonb(old) - 'read_by' - 'updated_at') then
    raise exception 'only read_by can change on a message' using errcode = '42501';
  end if;
  if exists (
    select 1 from ((select unnest(new.read_by) except select unnest(old.read_by))
                   union (select unnest(old.read_by) except select unnest(new.read_by))) as d(id)
    where auth.uid() is null or d.id <> auth.uid()) then
    raise exception 'read_by may only gain or lose your own id' using errcode = '42501';
  end if;
  return new;
end
$$;

drop trigger if exists protect_message_fields on public.messages;
create trigger protect_message_fields before update on public.messages for each row execute function public.protect_message_fields();
