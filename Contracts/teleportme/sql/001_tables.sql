-- TeleportMe tables and indexes: 000_affa87f3c32d28c6.txt §4.2 and §4.5, exactly as
-- Contracts/teleportme/schema.json declares them (the catalog check compares the two).
-- Idempotent.

create extension if not exists pg_trgm with schema extensions;

-- Reference data (public read, admin write) ---------------------------------------------------
create table if not exists public.cities (
  id text primary key,
  name text not null,
  full_name text not null,
  country text not null,
  continent text not null,
  latitude double precision,
  longitude double precision,
  population integer,
  teleport_city_score double precision,
  summary text,
  image_url text,
  created_at timestamptz default now(),
  updated_at timestamptz default now()
);

create table if not exists public.city_scores (
  id uuid primary key default gen_random_uuid(),
  city_id text references public.cities (id) on delete cascade,
  category text not null,
  score double precision,
  unique (city_id, category)
);

create table if not exists public.vibe_tags (
  id uuid primary key default gen_random_uuid(),
  name text not null unique,
  emoji text,
  category text
);

create table if not exists public.city_vibe_tags (
  city_id text not null references public.cities (id) on delete cascade,
  vibe_tag_id uuid not null references public.vibe_tags (id) on delete cascade,
  strength double precision,
  primary key (city_id, vibe_tag_id)
);

-- User data (private per user via RLS) -------------------------------------------------------
create table if not exists public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  name text,
  email text,
  current_city_id text,
  avatar_url text,
  created_at timestamptz default now(),
  updated_at timestamptz default now()
);

create table if not exists public.user_preferences (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null unique references auth.users (id) on delete cascade,
  start_type text default 'city_i_love',
  cost_preference double precision default 5.0,
  climate_preference double precision default 5.0,
  culture_preference double precision default 5.0,
  job_market_preference double precision default 5.0,
  selected_vibe_tags uuid[],
  dealbreakers text[],
  created_at timestamptz default now(),
  updated_at timestamptz default now()
);

create table if not exists public.city_reports (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  current_city_id text references public.cities (id) on delete set null,
  preferences jsonb,
  results jsonb,
  ai_summary text,
  created_at timestamptz default now()
);

create table if not exists public.saved_cities (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  city_id text not null references public.cities (id) on delete cascade,
  created_at timestamptz default now(),
  unique (user_id, city_id)
);

create table if not exists public.engagement_events (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null references auth.users (id) on delete cascade,
  event_type text,
  metadata jsonb,
  created_at timestamptz default now()
);

-- Indexes (§4.5) -----------------------------------------------------------------------------
create index if not exists cities_name_trgm_idx on public.cities using gin (name extensions.gin_trgm_ops);
create index if not exists cities_full_name_trgm_idx on public.cities using gin (full_name extensions.gin_trgm_ops);
create index if not exists cities_country_idx on public.cities (country);
create index if not exists cities_continent_idx on public.cities (continent);
create index if not exists city_scores_city_id_idx on public.city_scores (city_id);
create index if not exists user_preferences_user_id on public.user_preferences (user_id);
create index if not exists city_reports_user_id_idx on public.city_reports (user_id);
create index if not exists city_reports_created_at on public.city_reports (created_at desc);
create index if not exists saved_cities_user_id_idx on public.saved_cities (user_id);
create index if not exists engagement_events_user_event_created
  on public.engagement_events (user_id, event_type, created_at desc);
