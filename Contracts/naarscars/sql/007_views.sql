-- Naar's Cars: the leaderboard_stats view of FR-015 (Appendix A step 7), as schema.json declares it.
-- security_invoker: a reader sees the board computed from the rows RLS lets them read (pending
-- users and anon get no rows). Ordered by rank, name, user_id for a stable listing. Idempotent.

create or replace view public.leaderboard_stats with (security_invoker = true) as
select
    p.id as user_id,
    p.name,
    p.avatar_url,
    coalesce(fulfilled.count, 0) as fulfilled_count,
    coalesce(round(reviews.avg_rating, 2), 0) as average_rating,
    coalesce(reviews.review_count, 0) as review_count,
    rank() over (order by coalesce(fulfilled.count, 0) desc) as rank
from public.profiles p
left join (
    select x.claimed_by as user_id, count(*) as count
      from (select claimed_by from public.rides where status = 'completed' and claimed_by is not null
            union all
            select claimed_by from public.favors where status = 'completed' and claimed_by is not null) x
     group by x.claimed_by
) fulfilled on fulfilled.user_id = p.id
left join (
    select fulfiller_id as user_id, avg(rating) as avg_rating, count(*) as review_count
      from public.reviews
     group by fulfiller_id
) reviews on reviews.user_id = p.id
where p.approved = true
order by rank, p.name, p.id;

grant select on public.leaderboard_stats to anon, authenticated, service_role;
