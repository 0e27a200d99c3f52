-- Naar's Cars: the database functions of FR-014 (Appendix A step 6) with the signatures, security
-- and caller rules of Contracts/naarscars/functions.json; error messages from rules.json.
--
-- SECURITY DEFINER functions act for a user named by a parameter only when it is the caller;
-- the service role (and a session without JWT claims: migrations, psql) may act for anyone:
-- public.caller_is_privileged(). Idempotent (CREATE OR REPLACE).

create or replace function public.caller_is_privileged() returns boolean
  language sql stable
  as $$ select coalesce(auth.role(), '') not in ('anon', 'authenticated') $$;

-- get_user_stats(user_id): SECURITY INVOKER, one row -----------------------------------------
create or replace function public.get_user_stats(user_id uuid)
  returns table (avg_rating numeric, review_count bigint, fulfilled_count bigint)
  language sql stable
  as $$
    select
      coalesce(round((select avg(r.rating) from public.reviews r where r.fulfiller_id = get_user_stats.user_id), 2), 0),
      (select count(*) from public.reviews r where r.fulfiller_id = get_user_stats.user_id),
      (select count(*) from public.rides x where x.claimed_by = get_user_stats.user_id and x.status = 'completed')
        + (select count(*) from public.favors x where x.claimed_by = get_user_stats.user_id and x.status = 'completed')
  $$;

-- get_unread_counts(user_id): for oneself ----------------------------------------------------
create or replace function public.get_unread_counts(user_id uuid)
  returns table (unread_notifications bigint, unread_messages bigint)
  language plpgsql stable security definer set search_path = public
  as $$
#variable_conflict use_column
begin
  if not public.caller_is_privileged() and get_unread_counts.user_id is distinct from auth.uid() then
    raise exception 'permission denied: get_unread_counts may only be called for yourself' using errcode = '42501';
  end if;
  return query select
    (select count(*) from public.notifications n where n.user_id = get_unread_counts.user_id and not n.read),
    (select count(*) from public.messages m
       join public.conversation_participants p on p.conversation_id = m.conversation_id and p.user_id = get_unread_counts.user_id
      where m.from_id <> get_unread_counts.user_id and not (get_unread_counts.user_id = any(m.read_by)));
end
$$;

-- mark_messages_read(conversation_id, user_id) -------------------------------------------------
create or replace function public.mark_messages_read(conversation_id uuid, user_id uuid)
  returns void
  language plpgsql volatile security definer set search_path = public
  as $$
#variable_conflict use_column
begin
  if not public.caller_is_privileged() and mark_messages_read.user_id is distinct from auth.uid() then
    raise exception 'permission denied: mark_messages_read may only be called for yourself' using errcode = '42501';
  end if;
  if not exists (select 1 from public.conversation_participants p
                 where p.conversation_id = mark_messages_read.conversation_id and p.user_id = mark_messages_read.user_id) then
    raise exception 'permission denied: not a participant of this conversation' using errcode = '42501';
  end if;
  update public.messages m set read_by = array_append(m.read_by, mark_messages_read.user_id)
   where m.conversation_id = mark_messages_read.conversation_id
     and m.from_id <> mark_messages_read.user_id
     and not (mark_messages_read.user_id = any(m.read_by));
  update public.conversation_participants p set last_read_at = now()
   where p.conversation_id = mark_messages_read.conversation_id and p.user_id = mark_messages_read.user_id;
end
$$;

-- get_or_create_request_conversation(ride_id, favor_id) ---------------------------------------
create or replace function public.get_or_create_request_conversation(ride_id uuid default null, favor_id uuid default null)
  returns uuid
  language plpgsql volatile security definer set search_path = public
  as $$
#variable_conflict use_column
declare
  owner_id uuid;
  claimer_id uuid;
  members uuid[];
  caller uuid := auth.uid();
  conv uuid;
begin
  if (get_or_create_request_conversation.ride_id is null) = (get_or_create_request_conversation.favor_id is null) then
    raise exception 'exactly one of ride_id or favor_id is required' using errcode = '22023';
  end if;
  if get_or_create_request_conversation.ride_id is not null then
    select r.user_id, r.claimed_by into owner_id, claimer_id from public.rides r where r.id = get_or_create_request_conversation.ride_id;
    if not found then raise exception 'request not found' using errcode = '22023'; end if;
    members := array[owner_id] || array_remove(array[claimer_id], null)
      || array(select p.user_id from public.ride_participants p where p.ride_id = get_or_create_request_conversation.ride_id order by p.created_at, p.id);
  else
    select f.user_id, f.claimed_by into owner_id, claimer_id from public.favors f where f.id = get_or_create_request_conversation.favor_id;
    if not found then raise exception 'request not found' using errcode = '22023'; end if;
    members := array[owner_id] || array_remove(array[claimer_id], null)
      || array(select p.user_id from public.favor_participants p where p.favor_id = get_or_create_request_conversation.favor_id order by p.created_at, p.id);
  end if;
  if not public.caller_is_privileged() then
    if not public.is_approved() then
      raise exception 'permission denied: approved users only' using errcode = '42501';
    end if;
    if caller is null or not (caller = any(members)) then
      raise exception 'permission denied: not involved in this request' using errcode = '42501';
    end if;
  end if;
  select c.id into conv from public.conversations c
   where c.ride_id is not distinct from get_or_create_request_conversation.ride_id
     and c.favor_id is not distinct from get_or_create_request_conversation.favor_id;
  if conv is null then
    insert into public.conversations (ride_id, favor_id, created_by)
    values (get_or_create_request_conversation.ride_id, get_or_create_request_conversation.favor_id, coalesce(caller, owner_id))
    returning id into conv;
  end if;
  insert into public.conversation_participants (conversation_id, user_id)
  select conv, u from unnest(members || caller) as u where u is not null
  on conflict (conversation_id, user_id) do nothing;
  return conv;
end
$$;

-- validate_invite_code(code): callable by anon ----------------------------------------------
create or replace function public.validate_invite_code(code text)
  returns table (is_valid boolean, code_id uuid, created_by uuid)
  language plpgsql stable security definer set search_path = public
  as $$
#variable_conflict use_column
declare
  found_id uuid;
  found_by uuid;
begin
  select c.id, c.created_by into found_id, found_by from public.invite_codes c
   where c.code = upper(btrim(validate_invite_code.code)) and c.used_by is null;
  return query select found_id is not null, found_id, found_by;
end
$$;

-- get_leaderboard(time_filter, limit_count): SECURITY INVOKER ---------------------------------
create or replace function public.get_leaderboard(time_filter text default 'all_time', limit_count integer default 50)
  returns table (user_id uuid, name text, avatar_url text, fulfilled_count bigint, average_rating numeric,
                 review_count bigint, rank bigint)
  language plpgsql stable
  as $$
#variable_conflict use_column
declare
  chosen text := coalesce(get_leaderboard.time_filter, 'all_time');
  max_rows integer := coalesce(get_leaderboard.limit_count, 50);
  window_days integer;
  first_day date;
begin
  select w.days into window_days
    from (values ('all_time', null::integer), ('year', 365), ('month', 30), ('week', 7)) as w(filter_name, days)
   where w.filter_name = chosen;
  if not found then
    raise exception 'invalid time_filter: %', chosen using errcode = '22023';
  end if;
  if max_rows < 1 or max_rows > 100 then
    raise exception 'limit_count must be between 1 and %', 100 using errcode = '22023';
  end if;
  first_day := (now() at time zone 'UTC')::date - window_days;
  return query
    with done as (
      select x.claimed_by as uid, count(*) as n
        from (select r.claimed_by, r.date from public.rides r where r.status = 'completed' and r.claimed_by is not null
              union all
              select f.claimed_by, f.date from public.favors f where f.status = 'completed' and f.claimed_by is not null) x
       where first_day is null or x.date >= first_day
       group by x.claimed_by),
    rated as (
      select v.fulfiller_id as uid, avg(v.rating) as mean, count(*) as n
        from public.reviews v
       where first_day is null or (v.created_at at time zone 'UTC')::date >= first_day
       group by v.fulfiller_id)
    select p.id, p.name, p.avatar_url, coalesce(done.n, 0)::bigint, coalesce(round(rated.mean, 2), 0)::numeric,
           coalesce(rated.n, 0)::bigint, (rank() over (order by coalesce(done.n, 0) desc))::bigint as board_rank
      from public.profiles p
      left join done on done.uid = p.id
      left join rated on rated.uid = p.id
     where p.approved
     order by board_rank, p.name, p.id
     limit max_rows;
end
$$;

-- get_pending_reviews(user_id): for oneself -----------------------------------------------------
create or replace function public.get_pending_reviews(user_id uuid)
  returns table (request_type text, request_id uuid, fulfiller_id uuid, fulfiller_name text, title text, date date)
  language plpgsql stable security definer set search_path = public
  as $$
#variable_conflict use_column
begin
  if not public.caller_is_privileged() and get_pending_reviews.user_id is distinct from auth.uid() then
    raise exception 'permission denied: get_pending_reviews may only be called for yourself' using errcode = '42501';
  end if;
  return query
    select x.request_type, x.request_id, x.fulfiller_id, x.fulfiller_name, x.title, x.date
      from (select 'ride'::text as request_type, r.id as request_id, r.claimed_by as fulfiller_id,
                   coalesce(p.name, '') as fulfiller_name, r.pickup || ' → ' || r.destination as title, r.date as date
              from public.rides r left join public.profiles p on p.id = r.claimed_by
             where r.user_id = get_pending_reviews.user_id and r.status = 'completed' and r.claimed_by is not null
               and not r.reviewed and r.review_skipped is not true
            union all
            select 'favor'::text, f.id, f.claimed_by, coalesce(p.name, ''), f.title, f.date
              from public.favors f left join public.profiles p on p.id = f.claimed_by
             where f.user_id = get_pending_reviews.user_id and f.status = 'completed' and f.claimed_by is not null
               and not f.reviewed and f.review_skipped is not true) x
     order by x.date desc, x.request_id;
end
$$;

-- cleanup_stale_push_tokens(): service role only (EDGE-003) ------------------------------------
create or replace function public.cleanup_stale_push_tokens()
  returns integer
  language plpgsql volatile security definer set search_path = public
  as $$
declare
  deleted integer;
begin
  delete from public.push_tokens where updated_at < now() - interval '90 days';
  get diagnostics deleted = row_count;
  return deleted;
end
$$;
revoke execute on function public.cleanup_stale_push_tokens() from public, anon, authenticated;
grant execute on function public.cleanup_stale_push_tokens() to service_role;
