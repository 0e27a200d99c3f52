-- Supabase-compatible shim for a plain PostgreSQL (15 or later).
--
-- What Supabase provides before an app's migrations run, reduced to what the apps' SQL and the
-- contract checks rely on:
--   * the API roles anon, authenticated and service_role (BYPASSRLS), and authenticator, the
--     login role PostgREST switches from;
--   * schema auth with auth.users (the columns GoTrue writes and the mock models, see
--     Sources/MockSupabase/Spec/Schema.swift DatabaseSchema.authUsers) and the claim helpers
--     auth.uid(), auth.role(), auth.email(), auth.jwt(), which read the
--     request.jwt.claims setting PostgREST sets per request;
--   * schema extensions (where Supabase installs extensions) on every role's search path;
--   * Supabase's default privileges: the three API roles get ALL on tables, sequences and
--     functions created in schema public, and USAGE on it. An app narrows them with REVOKE.
--
-- Idempotent: running it twice changes nothing.

-- Roles --------------------------------------------------------------------------------------
do $$
begin
  if not exists (select 1 from pg_roles where rolname = 'anon') then
    create role anon nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticated') then
    create role authenticated nologin noinherit;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'service_role') then
    create role service_role nologin noinherit bypassrls;
  end if;
  if not exists (select 1 from pg_roles where rolname = 'authenticator') then
    create role authenticator login noinherit;
  end if;
end
$$;
alter role service_role bypassrls;
grant anon, authenticated, service_role to authenticator;

-- Schemas ------------------------------------------------------------------------------------
create schema if not exists auth;
create schema if not exists extensions;
grant usage on schema public, auth, extensions to anon, authenticated, service_role;

do $$
begin
  execute format('alter database %I set search_path = "$user", public, extensions', current_database());
end
$$;
set search_path = "$user", public, extensions;

-- auth.users (GoTrue's table, the columns the mock models) ------------------------------------
create table if not exists auth.users (
  id uuid not null default gen_random_uuid(),
  aud text default 'authenticated',
  role text default 'authenticated',
  email text,
  encrypted_password text,
  email_confirmed_at timestamptz,
  last_sign_in_at timestamptz,
  raw_app_meta_data jsonb,
  raw_user_meta_data jsonb,
  phone text,
  is_anonymous boolean not null default false,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  constraint users_pkey primary key (id),
  constraint users_email_partial_key unique (email)
);
-- GoTrue's anonymous sign-ins (migration 20240306115329) add this column; a cluster set up
-- before it gets it here.
alter table auth.users add column if not exists is_anonymous boolean not null default false;
grant all on table auth.users to service_role;

-- Claim helpers ------------------------------------------------------------------------------
-- After a rolled-back set_config the setting reads '' rather than NULL: nullif handles both.
create or replace function auth.jwt() returns jsonb
  language sql stable
  as $$ select coalesce(nullif(current_setting('request.jwt.claims', true), ''), '{}')::jsonb $$;

create or replace function auth.uid() returns uuid
  language sql stable
  as $$ select (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')::uuid $$;

create or replace function auth.role() returns text
  language sql stable
  as $$ select nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role' $$;

create or replace function auth.email() returns text
  language sql stable
  as $$ select nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'email' $$;

grant execute on function auth.jwt(), auth.uid(), auth.role(), auth.email() to anon, authenticated, service_role;

-- Supabase's default privileges in schema public -----------------------------------------------
alter default privileges in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges in schema public grant all on sequences to anon, authenticated, service_role;
alter default privileges in schema public grant all on functions to anon, authenticated, service_role;
