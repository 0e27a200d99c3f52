-- Aura: the full schema of 003 §6.1 for PostgreSQL 15.
--
-- Tables, CHECK / UNIQUE / FOREIGN KEY constraints, indexes, row-level security with the §6.1
-- policies, and the updated_at triggers. Equal to Contracts/aura/schema.json and policies.json.
-- Assumes Supabase or Contracts/shared/sql/000_supabase_shim.sql (roles anon, authenticated,
-- service_role; auth.users; auth.uid(); schema extensions; default privileges).
--
-- Idempotent: a second run changes nothing (IF NOT EXISTS, DROP POLICY IF EXISTS + CREATE,
-- CREATE OR REPLACE FUNCTION / TRIGGER).

-- §6.1: CREATE EXTENSION IF NOT EXISTS "uuid-ossp". Supabase keeps extensions in schema extensions.
create extension if not exists "uuid-ossp" with schema extensions;

-- Users table ------------------------------------------------------------------------------
create table if not exists public.users (
    id uuid primary key references auth.users(id) on delete cascade,
    name text not null,
    birthdate date not null,
    zodiac_sign text not null check (zodiac_sign in (
        'aries', 'taurus', 'gemini', 'cancer', 'leo', 'virgo',
        'libra', 'scorpio', 'sagittarius', 'capricorn', 'aquarius', 'pisces'
    )),
    mbti_type text not null check (mbti_type in (
        'INTJ', 'INTP', 'ENTJ', 'ENTP', 'INFJ', 'INFP', 'ENFJ', 'ENFP',
        'ISTJ', 'ISFJ', 'ESTJ', 'ESFJ', 'ISTP', 'ISFP', 'ESTP', 'ESFP'
    )),
    created_at timestamptz default now(),
    updated_at timestamptz default now()
);

-- Daily readings ---------------------------------------------------------------------------
create table if not exists public.daily_readings (
    id uuid primary key default extensions.uuid_generate_v4(),
    user_id uuid not null references public.users(id) on delete cascade,
    date date not null default current_date,
    category text not null check (category in ('Career', 'Love', 'Social', 'Health', 'Personal Growth')),
    content text not null,
    fortune_score integer not null check (fortune_score between 0 and 100),
    lucky_numbers integer[] default array[]::integer[],
    power_colors text[] default array[]::text[],
    is_premium boolean default false,
    created_at timestamptz default now(),
    unique (user_id, date, category)
);

-- MBTI test results ------------------------------------------------------------------------
create table if not exists public.mbti_results (
    id uuid primary key default extensions.uuid_generate_v4(),
    user_id uuid not null references public.users(id) on delete cascade,
    type_code text not null,
    dimension_scores jsonb not null,
    cognitive_functions jsonb not null,
    strengths text[] default array[]::text[],
    weaknesses text[] default array[]::text[],
    taken_at timestamptz default now()
);

-- Subscription tracking --------------------------------------------------------------------
create table if not exists public.subscriptions (
    id uuid primary key default extensions.uuid_generate_v4(),
    user_id uuid not null unique references public.users(id) on delete cascade,
    tier text not null default 'free' check (tier in ('free', 'premium')),
    revenuecat_customer_id text,
    original_purchase_date timestamptz,
    expires_at timestamptz,
    is_active boolean default true,
    updated_at timestamptz default now()
);

-- Indexes for performance ------------------------------------------------------------------
create index if not exists idx_daily_readings_user_date on public.daily_readings(user_id, date);
create index if not exists idx_mbti_results_user on public.mbti_results(user_id);
create index if not exists idx_subscriptions_user on public.subscriptions(user_id);

-- RLS policies -----------------------------------------------------------------------------
alter table public.users enable row level security;
alter table public.daily_readings enable row level security;
alter table public.mbti_results enable row level security;
alter table public.subscriptions enable row level security;

drop policy if exists "Users can CRUD own data" on public.users;
create policy "Users can CRUD own data" on public.users
    for all using (auth.uid() = id);

drop policy if exists "Users can CRUD own readings" on public.daily_readings;
create policy "Users can CRUD own readings" on public.daily_readings
    for all using (auth.uid() = user_id);

drop policy if exists "Users can CRUD own MBTI results" on public.mbti_results;
create policy "Users can CRUD own MBTI results" on public.mbti_results
    for all using (auth.uid() = user_id);

-- Only SELECT: subscriptions are written by the server with the service role (BYPASSRLS).
drop policy if exists "Users can view own subscription" on public.subscriptions;
create policy "Users can view own subscription" on public.subscriptions
    for select using (auth.uid() = user_id);

-- Function to update updated_at ------------------------------------------------------------
create or replace function public.update_updated_at()
returns trigger as $$
begin
    new.updated_at = now();
    return new;
end;
$$ language plpgsql;

create or replace trigger users_updated_at before update on public.users
    for each row execute function public.update_updated_at();

create or replace trigger subscriptions_updated_at before update on public.subscriptions
    for each row execute function public.update_updated_at();
