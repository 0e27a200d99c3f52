-- Database webhooks for push notifications (§4 "DB trigger fires (new response, new thanks, new
-- AI match) -> Edge Function", M5 "Set up database webhooks", notifications.json). Idempotent.
--
-- Decision: a trigger function calling pg_net (net.http_post) with the project URL and the
-- service-role key read from Supabase Vault, not the dashboard's supabase_functions.http_request
-- triggers. Those take the URL and the Authorization header as literal trigger arguments, so a
-- migration holding them would commit the service-role key and one project's URL; here the
-- migration is the same for every environment and the secrets stay in Vault ('project_url',
-- 'service_role_key'). The payload is the database webhook's {type, table, schema, record,
-- old_record}, the body the push-notifications function takes. pg_net sends after commit, so a
-- rolled-back write notifies nobody; without the secrets (a project not configured for push) the
-- write still succeeds and nothing is queued.
create or replace function civicforge_private.push_webhook() returns trigger
  language plpgsql security definer set search_path = '' as $$
declare
  project_url text := (select decrypted_secret from vault.decrypted_secrets where name = 'project_url');
  service_key text := (select decrypted_secret from vault.decrypted_secrets where name = 'service_role_key');
begin
  if project_url is null or service_key is null then return null; end if;
  perform net.http_post(
    url := rtrim(project_url, '/') || '/functions/v1/' || tg_argv[0],
    body := jsonb_build_object(
      'type', tg_op, 'table', tg_table_name, 'schema', tg_table_schema,
      'record', case when tg_op = 'DELETE' then null else to_jsonb(new) end,
      'old_record', case when tg_op = 'INSERT' then null else to_jsonb(old) end),
    headers := jsonb_build_object('Content-Type', 'application/json', 'Authorization', 'Bearer ' || service_key),
    timeout_milliseconds := 5000);
  return null;
end
$$;

-- One trigger per event of notifications.json, named <table>_push_<event>.
drop trigger if exists responses_push_new_response on public.responses;
create trigger responses_push_new_response after insert on public.responses
  for each row execute function civicforge_private.push_webhook('push-notifications');
drop trigger if exists responses_push_response_status on public.responses;
create trigger responses_push_response_status after update on public.responses
  for each row when (old.status is distinct from new.status and new.status in ('accepted', 'declined'))
  execute function civicforge_private.push_webhook('push-notifications');
drop trigger if exists thanks_push_thanks on public.thanks;
create trigger thanks_push_thanks after insert on public.thanks
  for each row execute function civicforge_private.push_webhook('push-notifications');
drop trigger if exists ai_matches_push_ai_match on public.ai_matches;
create trigger ai_matches_push_ai_match after insert on public.ai_matches
  for each row execute function civicforge_private.push_webhook('push-notifications');

-- A trigger function is not called directly; the grant matches 002's on the rest of the schema,
-- so applying the migrations twice leaves the same privileges.
grant execute on function civicforge_private.push_webhook() to anon, authenticated, service_role;
