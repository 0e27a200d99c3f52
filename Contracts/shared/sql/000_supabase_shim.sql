-- Supabase-compatible shim for a plain PostgreSQL (15 or later).
--
-- What Supabase provides before an app's migrations run, reduced to what the apps' SQL and the
-- contract checks rely on:
--   * the API roles anon, authenticated and service_role (BYPASSRLS), and authenticator, the
--     login role PostgREST switches from;
--   * schema auth with auth.users (the columns GoTrue writes and the mock models, see
--     Sources/ContractModel/Spec/Schema.swift DatabaseSchema.authUsers) and the claim helpers
--     auth.uid(), auth.role(), auth.email(), auth.jwt(), which read the
--     request.jwt.claims setting PostgREST sets per request;
--   * schema extensions (where Supabase installs extensions) on every role's search path;
--   * Supabase's default privileges: the three API roles get ALL on tables, sequences and
--     functions created in schema public, and USAGE on it. An app narrows them with REVOKE;
--   * schema storage with storage.buckets, storage.objects (RLS on) and storage.foldername(),
--     storage.filename(), storage.extension(), so the apps' storage policies run on PostgreSQL.
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

-- Supabase Storage's schema, reduced to what storage policies read -----------------------------
-- The columns of storage.buckets and storage.objects that Storage writes (the mock's virtual
-- rows, Contracts/FORMAT.md "The virtual storage.objects row") and Supabase's helpers
-- storage.foldername(), storage.filename(), storage.extension(), so an app's policies on
-- storage.objects are created and executed on PostgreSQL, not only read as text. RLS is on for
-- both tables, as Supabase ships them; the API roles have every privilege on them.
create schema if not exists storage;
grant usage on schema storage to anon, authenticated, service_role;

create table if not exists storage.buckets (
  id text primary key,
  name text not null,
  owner uuid,
  public boolean default false,
  file_size_limit bigint,
  allowed_mime_types text[],
  created_at timestamptz default now(),
  updated_at timestamptz default now()
);
create unique index if not exists bname on storage.buckets (name);

create table if not exists storage.objects (
  id uuid primary key default gen_random_uuid(),
  bucket_id text references storage.buckets (id),
  name text,
  owner uuid,
  owner_id text,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  last_accessed_at timestamptz default now(),
  metadata jsonb,
  path_tokens text[] generated always as (string_to_array(name, '/')) stored,
  version text,
  user_metadata jsonb
);
create unique index if not exists bucketid_objname on storage.objects (bucket_id, name);

alter table storage.buckets enable row level security;
alter table storage.objects enable row level security;
grant all on storage.buckets, storage.objects to anon, authenticated, service_role;

-- Every folder of a path: 'a/b/c.png' is {a,b}; an object at the root has none.
create or replace function storage.foldername(name text) returns text[] language plpgsql immutable as $$
declare
  _parts text[];
begin
  select string_to_array(name, '/') into _parts;
  return _parts[1:array_length(_parts, 1) - 1];
end
$$;

-- The last segment of a path: 'a/b/c.png' is c.png.
create or replace function storage.filename(name text) returns text language plpgsql immutable as $$
declare
  _parts text[];
begin
  select string_to_array(name, '/') into _parts;
  return _parts[array_length(_parts, 1)];
end
$$;

-- What follows the file name's last dot; the whole file name when it has none.
create or replace function storage.extension(name text) returns text language plpgsql immutable as $$
declare
  _parts text[];
  _filename text;
begin
  select string_to_array(name, '/') into _parts;
  select _parts[array_length(_parts, 1)] into _filename;
  return reverse(split_part(reverse(_filename), '.', 1));
end
$$;

grant execute on function storage.foldername(text), storage.filename(text), storage.extension(text) to anon, authenticated, service_role;

-- pg_net and Vault, as far as database webhooks use them ------------------------------------------
-- pg_net (supabase/pg_net) queues a request in net.http_request_queue and a background worker sends
-- it after the transaction commits; here nothing sends it, so a check reads the queue instead (a
-- rolled-back transaction leaves nothing, as with pg_net). Same signature and defaults as pg_net's
-- net.http_post. Vault's decrypted_secrets view over a plain table (no encryption in the shim).
create schema if not exists net;
create table if not exists net.http_request_queue (
  id bigserial primary key,
  method text not null,
  url text not null,
  headers jsonb not null,
  body bytea,
  timeout_milliseconds integer not null
);
create or replace function net.http_post(
  url text, body jsonb default '{}'::jsonb, params jsonb default '{}'::jsonb,
  headers jsonb default '{"Content-Type": "application/json"}'::jsonb, timeout_milliseconds integer default 5000
) returns bigint language sql volatile as $$
  insert into net.http_request_queue (method, url, headers, body, timeout_milliseconds)
  values ('POST', url, headers, convert_to(body::text, 'UTF8'), timeout_milliseconds)
  returning id
$$;
revoke all on schema net from anon, authenticated;

create schema if not exists vault;
create table if not exists vault.secrets (
  id uuid primary key default gen_random_uuid(),
  name text unique,
  secret text not null
);
create or replace view vault.decrypted_secrets as select id, name, secret as decrypted_secret from vault.secrets;
revoke all on schema vault from anon, authenticated;
