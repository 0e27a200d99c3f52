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

-- handle_new_user(): a new auth.users row gets its profiles row with the user's id and email.
-- Runs as the definer (the profile insert is not the signing-up client's, so RLS does not apply
-- to it). The name is the first of raw_user_meta_data's 'name', 'full_name' that is a string,
-- else NULL (Contracts/teleportme/functions.json handle_new_user.nameKeys).
create or replace function public.handle_new_user() returns trigger
  language plpgsql
  security definer
  set search_path = ''
  as $$
begin
  insert into public.profiles (id, email, name)
  values (new.id, new.email,
          case when jsonb_typeof(new.raw_user_meta_data -> 'name') = 'string' then new.raw_user_meta_data ->> 'name'
               when jsonb_typeof(new.raw_user_meta_data -> 'full_name') = 'string' then new.raw_user_meta_data ->> 'full_name'
          end);
  return new;
end
$$;

drop trigger if exists on_auth_user_created on auth.users;
create trigger on_auth_user_created after insert on auth.users
  for each row execute function public.handle_new_user();

-- search_cities(search_term): fuzzy search with pg_trgm, as Contracts/teleportme/functions.json
-- decides it: a city matches when the similarity of the term with any of name, full_name,
-- country is greater than 0.15 (strictly); the best of the three ranks, highest first, ties by
-- name then id; at most 20 whole cities rows.
create or replace function public.search_cities(search_term text) returns setof public.cities
  language sql stable
  set search_path = public, extensions
  as $$
  select c.*
  from public.cities c
  where similarity(c.name, search_term) > 0.15
     or similarity(c.full_name, search_term) > 0.15
     or similarity(c.country, search_term) > 0.15
  order by greatest(similarity(c.name, search_term), similarity(c.full_name, search_term),
                    similarity(c.country, search_term)) desc, c.name collate "C", c.id collate "C"
  limit 20
$$;

revoke execute on function public.handle_new_user() from anon, authenticated;
