-- TeleportMe database functions and triggers: 000_affa87f3c32d28c6.txt §4.4. Idempotent.

-- update_updated_at(): sets updated_at = now() on row updates of profiles, cities and
-- user_preferences.
create or replace function public.update_updated_at() returns trigger
  language plpgsql
  set search_path = ''
  as $$
begin
  new.updated_at := now();
  return new;
end
$$;

drop trigger if exists update_profiles_updated_at on public.profiles;
create trigger update_profiles_updated_at before update on public.profiles
  for each row execute function public.update_updated_at();
drop trigger if exists update_cities_updated_at on public.cities;
create trigger update_cities_updated_at before update on public.cities
  for each row execute function public.update_updated_at();
drop trigger if exists update_user_preferences_updated_at on public.user_preferences;
create trigger update_user_preferences_updated_at before update on public.user_preferences
  for each row execute function public.update_updated_at();

-- handle_new_user(): a new auth.users row gets its profiles row. Runs as the definer (the
-- profile insert is not the signing-up client's, so RLS does not apply to it); the name comes
-- from the sign-up metadata when given.
create or replace function public.handle_new_user() returns trigger
  language plpgsql
  security definer
  set search_path = ''
  as $$
begin
  insert into public.profiles (id, email, name)
  values (new.id, new.email, new.raw_user_meta_data ->> 'name');
  return new;
end
$$;

drop trigger if exists on_auth_user_created on auth.users;
create trigger on_auth_user_created after insert on auth.users
  for each row execute function public.handle_new_user();

-- search_cities(search_term): fuzzy search with pg_trgm. A city matches when the best of
-- similarity(name), similarity(full_name), similarity(country) reaches 0.15 (pg_trgm's own
-- threshold semantics: >=); the top 20 by that best similarity are returned, ties by name then
-- id so the order is total.
create or replace function public.search_cities(search_term text) returns setof public.cities
  language sql stable
  set search_path = public, extensions
  as $$
  select c.*
  from public.cities c
  where greatest(similarity(c.name, search_term), similarity(c.full_name, search_term),
                 similarity(c.country, search_term)) >= 0.15
  order by greatest(similarity(c.name, search_term), similarity(c.full_name, search_term),
                    similarity(c.country, search_term)) desc, c.name, c.id
  limit 20
$$;

revoke execute on function public.handle_new_user() from anon, authenticated;
