-- Attachments follow the same rule as every other table of workspace data: once a user has a verified
-- factor, their session must be aal2 to read or write them (see 20261121210000_require_aal2.sql).
create policy "aal2 once a factor is verified" on public.attachments
  as restrictive for all to authenticated
  using ((select public.mfa_satisfied())) with check ((select public.mfa_satisfied()));
