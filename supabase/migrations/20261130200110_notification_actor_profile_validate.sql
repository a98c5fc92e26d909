-- Checks the key 20261130200100 added without a long lock on the table (a separate transaction).
alter table public.notifications validate constraint notifications_actor_profile_fkey;
