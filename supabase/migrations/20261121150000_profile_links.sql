-- People-columns also point at profiles, so REST queries can embed who did what
-- (`actor:profiles!activity_actor_profile_fkey(display_name)`). Profiles share their user's id.

alter table public.activity
  add constraint activity_actor_profile_fkey foreign key (actor_id) references public.profiles (id) on delete set null;
alter table public.comments
  add constraint comments_author_profile_fkey foreign key (author_id) references public.profiles (id) on delete set null;
alter table public.tasks
  add constraint tasks_assignee_profile_fkey foreign key (assignee_id) references public.profiles (id) on delete set null;
