-- Naar's Cars: the storage buckets of FR-017/FR-018 (Appendix A step 8), as
-- Contracts/naarscars/storage.json states them: avatars (public, 200KB, owner upload),
-- town-hall-images (public, 500KB, approved upload), message-images (private, 500KB,
-- conversation participants); jpeg, png, webp; uploads under '{auth.uid}/…'.
--
-- Needs Supabase Storage's schema (storage.buckets, storage.objects, storage.foldername); on a
-- database without it (the plain-PostgreSQL shim) the file does nothing but say so. Idempotent.

do $$
begin
  if to_regclass('storage.buckets') is null or to_regclass('storage.objects') is null then
    raise notice 'storage schema not present: Naar''s Cars buckets not created';
    return;
  end if;

  insert into storage.buckets (id, name, public, file_size_limit, allowed_mime_types) values
    ('avatars', 'avatars', true, 204800, array['image/jpeg', 'image/png', 'image/webp']),
    ('town-hall-images', 'town-hall-images', true, 512000, array['image/jpeg', 'image/png', 'image/webp']),
    ('message-images', 'message-images', false, 512000, array['image/jpeg', 'image/png', 'image/webp'])
  on conflict (id) do update set public = excluded.public, file_size_limit = excluded.file_size_limit,
                                 allowed_mime_types = excluded.allowed_mime_types;

  -- avatars: public read, owner upload into their own folder
  execute 'drop policy if exists "avatars: public read" on storage.objects';
  execute $p$create policy "avatars: public read" on storage.objects for select using (bucket_id = 'avatars')$p$;
  execute 'drop policy if exists "avatars: owner upload" on storage.objects';
  execute $p$create policy "avatars: owner upload" on storage.objects for insert to authenticated
    with check (bucket_id = 'avatars' and (storage.foldername(name))[1] = auth.uid()::text)$p$;
  execute 'drop policy if exists "avatars: owner update" on storage.objects';
  execute $p$create policy "avatars: owner update" on storage.objects for update
    using (bucket_id = 'avatars' and owner = auth.uid())
    with check (bucket_id = 'avatars' and owner = auth.uid() and (storage.foldername(name))[1] = auth.uid()::text)$p$;
  execute 'drop policy if exists "avatars: owner delete" on storage.objects';
  execute $p$create policy "avatars: owner delete" on storage.objects for delete using (bucket_id = 'avatars' and owner = auth.uid())$p$;

  -- town-hall-images: public read, approved users upload into their own folder
  execute 'drop policy if exists "town-hall-images: public read" on storage.objects';
  execute $p$create policy "town-hall-images: public read" on storage.objects for select using (bucket_id = 'town-hall-images')$p$;
  execute 'drop policy if exists "town-hall-images: approved upload" on storage.objects';
  execute $p$create policy "town-hall-images: approved upload" on storage.objects for insert to authenticated
    with check (bucket_id = 'town-hall-images' and public.is_approved() and (storage.foldername(name))[1] = auth.uid()::text)$p$;
  execute 'drop policy if exists "town-hall-images: owner update" on storage.objects';
  execute $p$create policy "town-hall-images: owner update" on storage.objects for update
    using (bucket_id = 'town-hall-images' and owner = auth.uid())
    with check (bucket_id = 'town-hall-images' and owner = auth.uid() and (storage.foldername(name))[1] = auth.uid()::text)$p$;
  execute 'drop policy if exists "town-hall-images: owner delete" on storage.objects';
  execute $p$create policy "town-hall-images: owner delete" on storage.objects for delete using (bucket_id = 'town-hall-images' and owner = auth.uid())$p$;

  -- message-images: the uploader and the participants of a conversation whose message uses it
  execute 'drop policy if exists "message-images: participants read" on storage.objects';
  execute $p$create policy "message-images: participants read" on storage.objects for select
    using (bucket_id = 'message-images' and (owner = auth.uid() or exists (
      select 1 from public.messages m
       where m.image_url = storage.objects.name and public.is_conversation_participant(m.conversation_id))))$p$;
  execute 'drop policy if exists "message-images: approved upload" on storage.objects';
  execute $p$create policy "message-images: approved upload" on storage.objects for insert to authenticated
    with check (bucket_id = 'message-images' and public.is_approved() and (storage.foldername(name))[1] = auth.uid()::text)$p$;
  execute 'drop policy if exists "message-images: owner update" on storage.objects';
  execute $p$create policy "message-images: owner update" on storage.objects for update
    using (bucket_id = 'message-images' and owner = auth.uid())
    with check (bucket_id = 'message-images' and owner = auth.uid() and (storage.foldername(name))[1] = auth.uid()::text)$p$;
  execute 'drop policy if exists "message-images: owner delete" on storage.objects';
  execute $p$create policy "message-images: owner delete" on storage.objects for delete using (bucket_id = 'message-images' and owner = auth.uid())$p$;
end
$$;
