-- Naar's Cars: the 14 tables of FR-001 (Appendix A step 2), exactly as Contracts/naarscars/schema.json
-- states them: names, types, nullability, defaults, uniques, checks and foreign keys with their
-- ON DELETE actions. Constraint names are PostgreSQL's defaults unless schema.json names them.
-- Idempotent: types are created once, tables with IF NOT EXISTS.

do $$
begin
  if not exists (select 1 from pg_type t join pg_namespace n on n.oid = t.typnamespace
                 where n.nspname = 'public' and t.typname = 'ride_status') then
    create type public.ride_status as enum ('open', 'pending', 'confirmed', 'completed');
  end if;
  if not exists (select 1 from pg_type t join pg_namespace n on n.oid = t.typnamespace
                 where n.nspname = 'public' and t.typname = 'favor_status') then
    create type public.favor_status as enum ('open', 'pending', 'confirmed', 'completed');
  end if;
  if not exists (select 1 from pg_type t join pg_namespace n on n.oid = t.typnamespace
                 where n.nspname = 'public' and t.typname = 'favor_duration') then
    create type public.favor_duration as enum ('under_hour', 'couple_hours', 'couple_days', 'not_sure');
  end if;
end
$$;

-- FR-002
create table if not exists public.profiles (
    id uuid primary key references auth.users(id) on delete cascade,
    name text not null,
    email text not null unique,
    car text,
    phone_number text,
    avatar_url text,
    is_admin boolean not null default false,
    approved boolean not null default false,
    invited_by uuid references public.profiles(id) on delete set null,
    notify_ride_updates boolean default true,
    notify_messages boolean default true,
    notify_announcements boolean default true,
    notify_new_requests boolean default true,
    notify_qa_activity boolean default true,
    notify_review_reminders boolean default true,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
);

create table if not exists public.invite_codes (
    id uuid primary key default gen_random_uuid(),
    code text not null unique,
    created_by uuid not null references public.profiles(id) on delete cascade,
    used_by uuid references public.profiles(id) on delete set null,
    used_at timestamptz,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
);

-- FR-003
create table if not exists public.rides (
    id uuid primary key default gen_random_uuid(),
    user_id uuid not null references public.profiles(id) on delete cascade,
    type text not null default 'request',
    date date not null,
    time time not null,
    pickup text not null,
    destination text not null,
    seats integer default 1,
    notes text,
    gift text,
    status public.ride_status not null default 'open',
    claimed_by uuid references public.profiles(id) on delete set null,
    reviewed boolean not null default false,
    review_skipped boolean default false,
    review_skipped_at timestamptz,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    constraint rides_claimed_by_not_owner check (claimed_by <> user_id)
);

create table if not exists public.ride_participants (
    id uuid primary key default gen_random_uuid(),
    ride_id uuid not null references public.rides(id) on delete cascade,
    user_id uuid not null references public.profiles(id) on delete cascade,
    created_at timestamptz not null default now(),
    unique (ride_id, user_id)
);

-- FR-004
create table if not exists public.favors (
    id uuid primary key default gen_random_uuid(),
    user_id uuid not null references public.profiles(id) on delete cascade,
    title text not null,
    description text,
    location text not null,
    duration public.favor_duration not null default 'not_sure',
    requirements text,
    date date not null,
    time time,
    gift text,
    status public.favor_status not null default 'open',
    claimed_by uuid references public.profiles(id) on delete set null,
    reviewed boolean not null default false,
    review_skipped boolean default false,
    review_skipped_at timestamptz,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    constraint favors_claimed_by_not_owner check (claimed_by <> user_id)
);

create table if not exists public.favor_participants (
    id uuid primary key default gen_random_uuid(),
    favor_id uuid not null references public.favors(id) on delete cascade,
    user_id uuid not null references public.profiles(id) on delete cascade,
    created_at timestamptz not null default now(),
    unique (favor_id, user_id)
);

create table if not exists public.request_qa (
    id uuid primary key default gen_random_uuid(),
    ride_id uuid references public.rides(id) on delete cascade,
    favor_id uuid references public.favors(id) on delete cascade,
    user_id uuid not null references public.profiles(id) on delete cascade,
    parent_id uuid references public.request_qa(id) on delete cascade,
    content text not null,
    created_at timestamptz not null default now(),
    constraint request_qa_one_request check (num_nonnulls(ride_id, favor_id) = 1)
);

create table if not exists public.conversations (
    id uuid primary key default gen_random_uuid(),
    ride_id uuid unique references public.rides(id) on delete set null,
    favor_id uuid unique references public.favors(id) on delete set null,
    created_by uuid references public.profiles(id) on delete set null,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    constraint conversations_one_request check (num_nonnulls(ride_id, favor_id) <= 1)
);

create table if not exists public.conversation_participants (
    id uuid primary key default gen_random_uuid(),
    conversation_id uuid not null references public.conversations(id) on delete cascade,
    user_id uuid not null references public.profiles(id) on delete cascade,
    last_read_at timestamptz,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    unique (conversation_id, user_id)
);

create table if not exists public.messages (
    id uuid primary key default gen_random_uuid(),
    conversation_id uuid not null references public.conversations(id) on delete cascade,
    from_id uuid not null references public.profiles(id) on delete cascade,
    content text,
    image_url text,
    read_by uuid[] not null default '{}',
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    constraint messages_has_body check (content is not null or image_url is not null)
);

create table if not exists public.notifications (
    id uuid primary key default gen_random_uuid(),
    user_id uuid not null references public.profiles(id) on delete cascade,
    type text not null,
    title text not null,
    body text,
    ride_id uuid references public.rides(id) on delete cascade,
    favor_id uuid references public.favors(id) on delete cascade,
    read boolean not null default false,
    pinned boolean not null default false,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
);

create table if not exists public.push_tokens (
    id uuid primary key default gen_random_uuid(),
    user_id uuid not null references public.profiles(id) on delete cascade,
    token text not null,
    device_id text not null,
    platform text not null default 'ios',
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now(),
    unique (user_id, device_id)
);

create table if not exists public.town_hall_posts (
    id uuid primary key default gen_random_uuid(),
    user_id uuid not null references public.profiles(id) on delete cascade,
    title text,
    content text not null,
    image_url text,
    created_at timestamptz not null default now()
);

create table if not exists public.reviews (
    id uuid primary key default gen_random_uuid(),
    reviewer_id uuid not null references public.profiles(id) on delete cascade,
    fulfiller_id uuid not null references public.profiles(id) on delete cascade,
    ride_id uuid references public.rides(id) on delete cascade,
    favor_id uuid references public.favors(id) on delete cascade,
    rating integer not null check (rating between 1 and 5),
    comment text,
    town_hall_post_id uuid references public.town_hall_posts(id) on delete set null,
    created_at timestamptz not null default now(),
    unique (reviewer_id, ride_id),
    unique (reviewer_id, favor_id),
    constraint reviews_one_request check (num_nonnulls(ride_id, favor_id) = 1),
    constraint reviews_not_self check (reviewer_id <> fulfiller_id)
);
