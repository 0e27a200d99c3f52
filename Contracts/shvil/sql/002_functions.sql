-- Shvil functions and triggers, mirroring Sources/Shvil/Server (same names). Idempotent.
-- The synced tables (adventures, adventure_stops) keep the writer's updated_at, the
-- last-write-wins key (sync.json), except that a time later than the server's is clamped to
-- now() (sync.json futureTimestamps: a device clock running ahead must not win every conflict).

create schema if not exists shvil_private;
grant usage on schema shvil_private to anon, authenticated, service_role;

-- handle_new_user: the public.users row of a new account (display name from sign-up data) -----
create or replace function shvil_private.handle_new_user() returns trigger
  language plpgsql security definer set search_path = '' as $$
begin
  insert into public.users (id, email, display_name)
  values (new.id, new.email, new.raw_user_meta_data ->> 'display_name')
  on conflict (id) do nothing;
  return null;
end
$$;
drop trigger if exists on_auth_user_created on auth.users;
create trigger on_auth_user_created after insert on auth.users
  for each row execute function shvil_private.handle_new_user();

create or replace function shvil_private.set_updated_at() returns trigger
  language plpgsql as $$
begin
  new.updated_at := now();
  return new;
end
$$;
drop trigger if exists users_set_updated_at on public.users;
create trigger users_set_updated_at before update on public.users
  for each row execute function shvil_private.set_updated_at();

-- reorder_adventure_stops: rules.json reorder --------------------------------------------------
-- Positions 0..n-1 in list order for exactly the adventure's stops, atomically: the stops first
-- move past the current maximum, then into place, so UNIQUE(adventure_id, order_index) holds
-- after every row. The caller must own the adventure (SHV01 otherwise, indistinguishable from a
-- missing one); the list must be a permutation of its stops (SHV02).
create or replace function public.reorder_adventure_stops(p_adventure_id uuid, p_stop_ids uuid[])
  returns setof public.adventure_stops
  language plpgsql volatile security definer set search_path = '' as $$
declare
  top integer;
  n integer;
begin
  perform 1 from public.adventures a where a.id = p_adventure_id and a.user_id = auth.uid() for update;
  if not found then
    raise exception using errcode = 'SHV01', message = 'adventure not found';
  end if;
  select count(*), coalesce(max(s.order_index), -1) into n, top from public.adventure_stops s where s.adventure_id = p_adventure_id;
  if coalesce(cardinality(p_stop_ids), 0) <> n
     or (select count(distinct x) from unnest(p_stop_ids) x) <> n
     or exists (select 1 from unnest(p_stop_ids) x
                where not exists (select 1 from public.adventure_stops s where s.id = x and s.adventure_id = p_adventure_id)) then
    raise exception using errcode = 'SHV02', message = 'stop ids must list every stop of the adventure exactly once';
  end if;
  update public.adventure_stops s set order_index = top + u.ord
    from unnest(p_stop_ids) with ordinality as u(id, ord)
   where s.id = u.id;
  update public.adventure_stops s set order_index = u.ord - 1, updated_at = now()
    from unnest(p_stop_ids) with ordinality as u(id, ord)
   where s.id = u.id;
  return query select * from public.adventure_stops s where s.adventure_id = p_adventure_id order by s.order_index;
end
$$;
revoke execute on function public.reorder_adventure_stops(uuid, uuid[]) from public, anon;
grant execute on function public.reorder_adventure_stops(uuid, uuid[]) to authenticated, service_role;

-- <table>_clamp_updated_at: a synced row never carries a time later than the server's clock ----
create or replace function shvil_private.clamp_updated_at() returns trigger
  language plpgsql as $$
begin
  if new.updated_at > now() then
    new.updated_at := now();
  end if;
  return new;
end
$$;
drop trigger if exists adventures_clamp_updated_at on public.adventures;
create trigger adventures_clamp_updated_at before insert or update on public.adventures
  for each row execute function shvil_private.clamp_updated_at();
drop trigger if exists adventure_stops_clamp_updated_at on public.adventure_stops;
create trigger adventure_stops_clamp_updated_at before insert or update on public.adventure_stops
  for each row execute function shvil_private.clamp_updated_at();
