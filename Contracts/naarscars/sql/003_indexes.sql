-- Naar's Cars: performance indexes of FR-016 (Appendix A step 3), as listed under 'indexes' in
-- Contracts/naarscars/schema.json: every foreign-key column (PERF-DB-005), the approved flag,
-- open-status partial indexes, ORDER BY timestamps and the composites FR-016 names.
-- Idempotent.

create index if not exists profiles_invited_by_idx on public.profiles (invited_by);
create index if not exists profiles_approved_idx on public.profiles (approved);
create index if not exists invite_codes_created_by_idx on public.invite_codes (created_by);
create index if not exists invite_codes_used_by_idx on public.invite_codes (used_by);
create index if not exists rides_user_id_idx on public.rides (user_id);
create index if not exists rides_claimed_by_idx on public.rides (claimed_by);
create index if not exists rides_status_idx on public.rides (status) where status = 'open';
create index if not exists rides_date_idx on public.rides (date, time);
create index if not exists rides_created_at_idx on public.rides (created_at DESC);
create index if not exists rides_user_id_status_idx on public.rides (user_id, status);
create index if not exists ride_participants_ride_id_idx on public.ride_participants (ride_id);
create index if not exists ride_participants_user_id_idx on public.ride_participants (user_id);
create index if not exists favors_user_id_idx on public.favors (user_id);
create index if not exists favors_claimed_by_idx on public.favors (claimed_by);
create index if not exists favors_status_idx on public.favors (status) where status = 'open';
create index if not exists favors_date_idx on public.favors (date);
create index if not exists favors_created_at_idx on public.favors (created_at DESC);
create index if not exists favors_user_id_status_idx on public.favors (user_id, status);
create index if not exists favor_participants_favor_id_idx on public.favor_participants (favor_id);
create index if not exists favor_participants_user_id_idx on public.favor_participants (user_id);
create index if not exists request_qa_ride_id_idx on public.request_qa (ride_id);
create index if not exists request_qa_favor_id_idx on public.request_qa (favor_id);
create index if not exists request_qa_user_id_idx on public.request_qa (user_id);
create index if not exists request_qa_parent_id_idx on public.request_qa (parent_id);
create index if not exists conversations_created_by_idx on public.conversations (created_by);
create index if not exists conversations_updated_at_idx on public.conversations (updated_at DESC);
create index if not exists conversation_participants_conversation_id_idx on public.conversation_participants (conversation_id);
create index if not exists conversation_participants_user_id_idx on public.conversation_participants (user_id);
create index if not exists messages_conversation_id_created_at_idx on public.messages (conversation_id, created_at);
create index if not exists messages_from_id_idx on public.messages (from_id);
create index if not exists messages_created_at_idx on public.messages (created_at DESC);
create index if not exists notifications_user_id_created_at_idx on public.notifications (user_id, created_at DESC);
create index if not exists notifications_ride_id_idx on public.notifications (ride_id);
create index if not exists notifications_favor_id_idx on public.notifications (favor_id);
create index if not exists notifications_unread_idx on public.notifications (user_id) where not read;
create index if not exists push_tokens_user_id_idx on public.push_tokens (user_id);
create index if not exists push_tokens_updated_at_idx on public.push_tokens (updated_at);
create index if not exists town_hall_posts_user_id_idx on public.town_hall_posts (user_id);
create index if not exists town_hall_posts_created_at_idx on public.town_hall_posts (created_at DESC);
create index if not exists reviews_reviewer_id_idx on public.reviews (reviewer_id);
create index if not exists reviews_fulfiller_id_idx on public.reviews (fulfiller_id);
create index if not exists reviews_ride_id_idx on public.reviews (ride_id);
create index if not exists reviews_favor_id_idx on public.reviews (favor_id);
create index if not exists reviews_town_hall_post_id_idx on public.reviews (town_hall_post_id);
