-- Members embed their profile in REST queries (`profile:profiles!workspace_members_profile_fkey(display_name)`).
alter table public.workspace_members
  add constraint workspace_members_profile_fkey foreign key (user_id) references public.profiles (id) on delete cascade;
