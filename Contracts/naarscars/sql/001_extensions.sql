-- Naar's Cars (001_f2232b290be9c435.txt, Appendix A step 1): extensions.
-- Assumes the Supabase shim (Contracts/shared/sql/000_supabase_shim.sql) or a Supabase project:
-- roles anon/authenticated/service_role, auth.users, auth.uid()/auth.role()/auth.jwt().
-- gen_random_uuid() is built into PostgreSQL 13+; pgcrypto provides crypt()/gen_salt() for the
-- seed users' passwords (sql/seed/009_seed_data.sql). Idempotent.

create schema if not exists extensions;
create extension if not exists pgcrypto with schema extensions;
