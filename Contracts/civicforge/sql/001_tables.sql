-- CivicForge tables: Contracts/civicforge/schema.json as PostgreSQL 15 DDL (same names, types,
-- nullability, defaults, constraint names, ON DELETE actions). Assumes the Supabase shim
-- (Contracts/shared/sql/000_supabase_shim.sql: roles, auth.users, auth.uid()). Idempotent.

-- Enums ------------------------------------------------------------------------------------
do $$ begin
  create type public.post_type as enum ('need', 'offer');
exception when duplicate_object then null;
end $$;
do $$ begin
  create type public.post_status as enum ('open', 'in_progress', 'fulfilled', 'closed');
exception when duplicate_object then null;
end $$;
do $$ begin
  create type public.urgency_level as enum ('low', 'medium', 'high');
exception when duplicate_object then null;
end $$;
do $$ begin
  create type public.review_status as enum ('none', 'pending', 'approved', 'removed');
exception when duplicate_object then null;
end $$;
do $$ begin
  create type public.response_status as enum ('pending', 'accepted', 'declined');
exception when duplicate_object then null;
end $$;
do $$ begin
  create type public.device_platform as enum ('ios', 'android', 'web');
exception when duplicate_object then null;
end $$;

-- neighborhoods ---------------------------------------------------------------------------
create table if not exists public.neighborhoods (
  id uuid not null default gen_random_uuid(),
  name text not null,
  description text,
  created_by uuid default auth.uid(),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint neighborhoods_pkey primary key (id),
  constraint neighborhoods_name_key unique (name),
  constraint neighborhoods_created_by_fkey foreign key (created_by) references auth.users (id) on delete set null
);

-- profiles --------------------------------------------------------------------------------
create table if not exists public.profiles (
  id uuid not null,
  display_name text not null,
  bio text,
  skills text[] not null default '{}',
  avatar_url text,
  neighborhood_id uuid,
  trust_tier smallint not null default 1,
  phone_verified boolean not null default false,
  terms_accepted_at timestamptz not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint profiles_pkey primary key (id),
  constraint profiles_trust_tier_check check (trust_tier between 1 and 3),
  constraint profiles_id_fkey foreign key (id) references auth.users (id) on delete cascade,
  constraint profiles_neighborhood_id_fkey foreign key (neighborhood_id) references public.neighborhoods (id) on delete set null
);
create index if not exists profiles_neighborhood_id_idx on public.profiles (neighborhood_id);

-- reputation ------------------------------------------------------------------------------
create table if not exists public.reputation (
  user_id uuid not null,
  score integer not null default 0,
  thanks_received integer not null default 0,
  updated_at timestamptz not null default now(),
  constraint reputation_pkey primary key (user_id),
  constraint reputation_score_check check (score >= 0),
  constraint reputation_thanks_received_check check (thanks_received >= 0),
  constraint reputation_user_id_fkey foreign key (user_id) references public.profiles (id) on delete cascade
);

-- notification_preferences ----------------------------------------------------------------
create table if not exists public.notification_preferences (
  user_id uuid not null,
  new_response boolean not null default true,
  response_status boolean not null default true,
  thanks boolean not null default true,
  ai_match boolean not null default true,
  updated_at timestamptz not null default now(),
  constraint notification_preferences_pkey primary key (user_id),
  constraint notification_preferences_user_id_fkey foreign key (user_id) references public.profiles (id) on delete cascade
);

-- posts -----------------------------------------------------------------------------------
create table if not exists public.posts (
  id uuid not null default gen_random_uuid(),
  author_id uuid not null default auth.uid(),
  neighborhood_id uuid not null,
  type public.post_type not null,
  title text not null,
  description text not null,
  category text not null,
  urgency public.urgency_level not null default 'medium',
  status public.post_status not null default 'open',
  available_times text,
  location_hint text,
  ai_assisted boolean not null default false,
  hidden boolean not null default false,
  review_status public.review_status not null default 'none',
  flag_count integer not null default 0,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint posts_pkey primary key (id),
  constraint posts_flag_count_check check (flag_count >= 0),
  constraint posts_author_id_fkey foreign key (author_id) references public.profiles (id) on delete cascade,
  constraint posts_neighborhood_id_fkey foreign key (neighborhood_id) references public.neighborhoods (id) on delete cascade
);
create index if not exists posts_neighborhood_id_created_at_idx on public.posts (neighborhood_id, created_at desc);
create index if not exists posts_author_id_idx on public.posts (author_id);

-- post_photos -----------------------------------------------------------------------------
create table if not exists public.post_photos (
  id uuid not null default gen_random_uuid(),
  post_id uuid not null,
  storage_path text not null,
  thumbnail_path text not null,
  position smallint not null default 0,
  width integer not null,
  height integer not null,
  created_at timestamptz not null default now(),
  constraint post_photos_pkey primary key (id),
  constraint post_photos_position_check check (position between 0 and 3),
  constraint post_photos_width_check check (width between 1 and 1200),
  constraint post_photos_height_check check (height >= 1),
  constraint post_photos_post_id_position_key unique (post_id, position),
  constraint post_photos_post_id_fkey foreign key (post_id) references public.posts (id) on delete cascade
);

-- responses -------------------------------------------------------------------------------
create table if not exists public.responses (
  id uuid not null default gen_random_uuid(),
  post_id uuid not null,
  responder_id uuid not null default auth.uid(),
  message text not null,
  status public.response_status not null default 'pending',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  constraint responses_pkey primary key (id),
  constraint responses_post_id_responder_id_key unique (post_id, responder_id),
  constraint responses_post_id_fkey foreign key (post_id) references public.posts (id) on delete cascade,
  constraint responses_responder_id_fkey foreign key (responder_id) references public.profiles (id) on delete cascade
);

-- thanks ----------------------------------------------------------------------------------
create table if not exists public.thanks (
  id uuid not null default gen_random_uuid(),
  post_id uuid not null,
  from_user_id uuid not null default auth.uid(),
  to_user_id uuid not null,
  message text,
  created_at timestamptz not null default now(),
  constraint thanks_pkey primary key (id),
  constraint thanks_post_id_from_user_id_to_user_id_key unique (post_id, from_user_id, to_user_id),
  constraint thanks_not_self check (from_user_id <> to_user_id),
  constraint thanks_post_id_fkey foreign key (post_id) references public.posts (id) on delete cascade,
  constraint thanks_from_user_id_fkey foreign key (from_user_id) references public.profiles (id) on delete cascade,
  constraint thanks_to_user_id_fkey foreign key (to_user_id) references public.profiles (id) on delete cascade
);

-- post_flags ------------------------------------------------------------------------------
create table if not exists public.post_flags (
  id uuid not null default gen_random_uuid(),
  post_id uuid not null,
  flagger_id uuid not null default auth.uid(),
  reason text,
  created_at timestamptz not null default now(),
  constraint post_flags_pkey primary key (id),
  constraint post_flags_post_id_flagger_id_key unique (post_id, flagger_id),
  constraint post_flags_post_id_fkey foreign key (post_id) references public.posts (id) on delete cascade,
  constraint post_flags_flagger_id_fkey foreign key (flagger_id) references public.profiles (id) on delete cascade
);

-- ai_matches ------------------------------------------------------------------------------
create table if not exists public.ai_matches (
  id uuid not null default gen_random_uuid(),
  post_id uuid not null,
  matched_post_id uuid not null,
  score double precision not null,
  reason text,
  created_at timestamptz not null default now(),
  constraint ai_matches_pkey primary key (id),
  constraint ai_matches_score_check check (score between 0 and 1),
  constraint ai_matches_post_id_matched_post_id_key unique (post_id, matched_post_id),
  constraint ai_matches_distinct_posts check (post_id <> matched_post_id),
  constraint ai_matches_post_id_fkey foreign key (post_id) references public.posts (id) on delete cascade,
  constraint ai_matches_matched_post_id_fkey foreign key (matched_post_id) references public.posts (id) on delete cascade
);

-- invitations -----------------------------------------------------------------------------
create table if not exists public.invitations (
  id uuid not null default gen_random_uuid(),
  code text not null,
  inviter_id uuid not null default auth.uid(),
  neighborhood_id uuid not null,
  redeemed_by uuid,
  redeemed_at timestamptz,
  expires_at timestamptz not null,
  created_at timestamptz not null default now(),
  constraint invitations_pkey primary key (id),
  constraint invitations_code_key unique (code),
  constraint invitations_inviter_id_fkey foreign key (inviter_id) references public.profiles (id) on delete cascade,
  constraint invitations_neighborhood_id_fkey foreign key (neighborhood_id) references public.neighborhoods (id) on delete cascade,
  constraint invitations_redeemed_by_fkey foreign key (redeemed_by) references public.profiles (id) on delete set null
);

-- device_tokens ---------------------------------------------------------------------------
create table if not exists public.device_tokens (
  id uuid not null default gen_random_uuid(),
  user_id uuid not null default auth.uid(),
  token text not null,
  platform public.device_platform not null default 'ios',
  created_at timestamptz not null default now(),
  constraint device_tokens_pkey primary key (id),
  constraint device_tokens_user_id_token_key unique (user_id, token),
  constraint device_tokens_user_id_fkey foreign key (user_id) references auth.users (id) on delete cascade
);

