-- Shvil tables: Contracts/shvil/schema.json as PostgreSQL 15 DDL (same names, types, nullability,
-- defaults, constraint names, ON DELETE actions). Assumes the Supabase shim
-- (Contracts/shared/sql/000_supabase_shim.sql: roles, auth.users, auth.uid()). Idempotent.

-- Enums ------------------------------------------------------------------------------------
do $$ begin
  create type public.adventure_status as enum ('draft', 'active', 'completed', 'archived');
exception when duplicate_object then null;
end $$;
do $$ begin
  create type public.app_environment as enum ('development', 'staging', 'production');
exception when duplicate_object then null;
end $$;
do $$ begin
  create type public.feature_stage as enum ('stable', 'beta', 'experimental');
exception when duplicate_object then null;
end $$;

-- users -----------------------------------------------------------------------------------
create table if not exists public.users (
  id uuid not null,
  email text,
  display_name text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint users_pkey primary key (id),
  constraint users_id_fkey foreign key (id) references auth.users (id) on delete cascade
);

-- adventures ------------------------------------------------------------------------------
create table if not exists public.adventures (
  id uuid not null default gen_random_uuid(),
  user_id uuid not null default auth.uid(),
  title text not null,
  description text,
  route_data jsonb not null default '{}'::jsonb,
  status public.adventure_status not null default 'draft',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint adventures_pkey primary key (id),
  constraint adventures_user_id_fkey foreign key (user_id) references public.users (id) on delete cascade
);
create index if not exists adventures_user_id_updated_at_idx on public.adventures (user_id, updated_at desc);

-- places ----------------------------------------------------------------------------------
create table if not exists public.places (
  id uuid not null default gen_random_uuid(),
  name text not null,
  description text,
  latitude double precision not null,
  longitude double precision not null,
  metadata jsonb not null default '{}'::jsonb,
  created_by uuid default auth.uid(),
  created_at timestamptz not null default now(),
  constraint places_pkey primary key (id),
  constraint places_latitude_check check (latitude between -90 and 90),
  constraint places_longitude_check check (longitude between -180 and 180),
  constraint places_created_by_fkey foreign key (created_by) references public.users (id) on delete set null
);

-- adventure_stops -------------------------------------------------------------------------
create table if not exists public.adventure_stops (
  id uuid not null default gen_random_uuid(),
  adventure_id uuid not null,
  place_id uuid not null,
  order_index integer not null,
  custom_data jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint adventure_stops_pkey primary key (id),
  constraint adventure_stops_order_index_check check (order_index >= 0),
  constraint adventure_stops_adventure_id_order_index_key unique (adventure_id, order_index),
  constraint adventure_stops_adventure_id_fkey foreign key (adventure_id) references public.adventures (id) on delete cascade,
  constraint adventure_stops_place_id_fkey foreign key (place_id) references public.places (id) on delete restrict
);

-- feature_flags ---------------------------------------------------------------------------
create table if not exists public.feature_flags (
  key text not null,
  environment public.app_environment not null,
  enabled boolean not null,
  stage public.feature_stage not null,
  description text,
  updated_at timestamptz not null default now(),
  constraint feature_flags_pkey primary key (key, environment)
);

