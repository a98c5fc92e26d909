-- The inbox names who did it: a second key from notifications.actor_id to public.profiles (besides
-- the one to auth.users), so PostgREST can embed the actor's profile in one read, as comments embed
-- their author's.
alter table public.notifications
  add constraint notifications_actor_profile_fkey foreign key (actor_id)
  references public.profiles (id) on delete set null not valid;
