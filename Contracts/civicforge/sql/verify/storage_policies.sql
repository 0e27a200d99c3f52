-- CivicForge's storage policies executed on PostgreSQL (002 §3 storage_post_photos_insert_own:
-- "user-scoped upload folders", Contracts/civicforge/storage.json post-photos): uploads only into
-- the caller's own folder, photos readable where their post is, nobody else's object updated or
-- deleted. Needs the shim's storage schema, the migrations and the fixtures; every case runs in a
-- rolled-back transaction and a broken policy stops the script with "FAIL: …".
\o /dev/null
\set ana  '''{"sub":"c0000000-0000-4000-8000-000000000001","role":"authenticated"}'''
\set ben  '''{"sub":"c0000000-0000-4000-8000-000000000002","role":"authenticated"}'''
\set tova '''{"sub":"c0000000-0000-4000-8000-000000000004","role":"authenticated"}'''
\set omar '''{"sub":"c0000000-0000-4000-8000-000000000005","role":"authenticated"}'''

do $$ begin
  if not exists (select 1 from storage.buckets where id = 'post-photos' and not public and file_size_limit = 2097152) then
    raise exception 'FAIL: post-photos bucket missing or not as storage.json states it';
  end if;
  if (select count(*) from pg_policies where schemaname = 'storage' and tablename = 'objects' and policyname like 'storage_post_photos_%') <> 4 then
    raise exception 'FAIL: the four post-photos policies are not all on storage.objects';
  end if;
end $$;

-- Upload into one's own folder: allowed --------------------------------------------------------
begin;
select set_config('request.jwt.claims', :ben, true);
set local role authenticated;
insert into storage.objects (bucket_id, name, owner) values ('post-photos', 'c0000000-0000-4000-8000-000000000002/new.jpg', 'c0000000-0000-4000-8000-000000000002');
rollback;

-- Into another user's folder, at the bucket root, or as anon: refused --------------------------
begin;
select set_config('request.jwt.claims', :ben, true);
set local role authenticated;
do $$ begin
  insert into storage.objects (bucket_id, name, owner) values ('post-photos', 'c0000000-0000-4000-8000-000000000001/forged.jpg', 'c0000000-0000-4000-8000-000000000002');
  raise exception 'FAIL: ben uploaded into ana''s folder';
exception when insufficient_privilege then raise notice 'ok: no upload into another folder';
end $$;
do $$ begin
  insert into storage.objects (bucket_id, name, owner) values ('post-photos', 'root.jpg', 'c0000000-0000-4000-8000-000000000002');
  raise exception 'FAIL: ben uploaded at the bucket root';
exception when insufficient_privilege then raise notice 'ok: no upload at the root';
end $$;
rollback;
begin;
set local role anon;
do $$ begin
  insert into storage.objects (bucket_id, name) values ('post-photos', 'anon/x.jpg');
  raise exception 'FAIL: anon uploaded';
exception when insufficient_privilege then raise notice 'ok: anon cannot upload';
end $$;
rollback;

-- Reading follows the post: Northside members see ana's photo, Southside does not -------------
begin;
insert into storage.objects (bucket_id, name, owner) values ('post-photos', 'c0000000-0000-4000-8000-000000000001/c3000000-0000-4000-8000-000000000001.jpg', 'c0000000-0000-4000-8000-000000000001');
select set_config('request.jwt.claims', :tova, true);
set local role authenticated;
do $$ begin
  if (select count(*) from storage.objects where bucket_id = 'post-photos') <> 1 then raise exception 'FAIL: tova (Northside) does not see the photo of a Northside post'; end if;
end $$;
select set_config('request.jwt.claims', :omar, true);
do $$ begin
  if (select count(*) from storage.objects where bucket_id = 'post-photos') <> 0 then raise exception 'FAIL: omar (Southside) sees a Northside photo'; end if;
end $$;
-- ben sees it but can neither move nor delete it.
select set_config('request.jwt.claims', :ben, true);
do $$
declare n int;
begin
  update storage.objects set name = 'c0000000-0000-4000-8000-000000000002/stolen.jpg' where bucket_id = 'post-photos';
  get diagnostics n = row_count;
  if n <> 0 then raise exception 'FAIL: ben renamed ana''s photo'; end if;
  delete from storage.objects where bucket_id = 'post-photos';
  get diagnostics n = row_count;
  if n <> 0 then raise exception 'FAIL: ben deleted ana''s photo'; end if;
end $$;
-- ana deletes her own.
select set_config('request.jwt.claims', :ana, true);
do $$
declare n int;
begin
  delete from storage.objects where bucket_id = 'post-photos';
  get diagnostics n = row_count;
  if n <> 1 then raise exception 'FAIL: ana could not delete her own photo'; end if;
end $$;
rollback;
