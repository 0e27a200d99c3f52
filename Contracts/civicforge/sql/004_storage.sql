-- CivicForge storage: the post-photos bucket of Contracts/civicforge/storage.json and its
-- policies on storage.objects (002 §3 storage_post_photos_insert_own: uploads go into the user's
-- own folder {user_id}/*). Applied where Supabase Storage's schema exists (the shim provides it;
-- sql/verify/storage_policies.sql executes the policies); idempotent.
do $$
begin
  if to_regclass('storage.buckets') is null or to_regclass('storage.objects') is null then
    raise notice 'storage schema absent: post-photos bucket and policies skipped';
    return;
  end if;

  insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types)
  values ('post-photos', 'post-photos', false, 2097152, array['image/jpeg'])
  on conflict (id) do update
    set public = excluded.public, file_size_limit = excluded.file_size_limit, allowed_mime_types = excluded.allowed_mime_types;

  drop policy if exists storage_post_photos_select_visible on storage.objects;
  create policy storage_post_photos_select_visible on storage.objects for select to authenticated
    using (bucket_id = 'post-photos'
           and ((storage.foldername(name))[1] = auth.uid()::text
                or exists (select 1 from public.post_photos ph
                           where (ph.storage_path = name or ph.thumbnail_path = name)
                             and civicforge_private.can_see_post(ph.post_id))));
  drop policy if exists storage_post_photos_insert_own on storage.objects;
  create policy storage_post_photos_insert_own on storage.objects for insert to authenticated
    with check (bucket_id = 'post-photos' and (storage.foldername(name))[1] = auth.uid()::text);
  drop policy if exists storage_post_photos_update_own on storage.objects;
  create policy storage_post_photos_update_own on storage.objects for update to authenticated
    using (bucket_id = 'post-photos' and (storage.foldername(name))[1] = auth.uid()::text);
  drop policy if exists storage_post_photos_delete_own on storage.objects;
  create policy storage_post_photos_delete_own on storage.objects for delete to authenticated
    using (bucket_id = 'post-photos' and (storage.foldername(name))[1] = auth.uid()::text);
end
$$;
