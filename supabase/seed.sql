-- Demo data for local development (run once, on a fresh database): three people and one workspace
-- with a living board. Every demo account's password is: crewboard-demo
--   ada@demo.crewboard.test    owner
--   grace@demo.crewboard.test  member
--   linus@demo.crewboard.test  viewer

-- Accounts, as the auth server stores them (bcrypt through pgcrypto, confirmed, email identity).
-- The token columns have no default in GoTrue's schema and GoTrue reads them as strings: left NULL,
-- the account cannot sign in on a hosted project, so each is set to '' as GoTrue itself sets them.
insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
                        confirmation_token, recovery_token, email_change_token_new, email_change,
                        email_change_token_current, phone_change, phone_change_token, reauthentication_token,
                        raw_app_meta_data, raw_user_meta_data, created_at, updated_at)
select '00000000-0000-0000-0000-000000000000', id::uuid, 'authenticated', 'authenticated', email,
       extensions.crypt('crewboard-demo', extensions.gen_salt('bf', 10)), now(),
       '', '', '', '', '', '', '', '',
       '{"provider": "email", "providers": ["email"]}', jsonb_build_object('display_name', name), now(), now()
  from (values
    ('a0000000-0000-4000-8000-000000000001', 'ada@demo.crewboard.test', 'Ada Lovelace'),
    ('a0000000-0000-4000-8000-000000000002', 'grace@demo.crewboard.test', 'Grace Hopper'),
    ('a0000000-0000-4000-8000-000000000003', 'linus@demo.crewboard.test', 'Linus Pauling')
  ) as people (id, email, name);

insert into auth.identities (id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at)
select gen_random_uuid(), u.id::text, u.id,
       jsonb_build_object('sub', u.id, 'email', u.email, 'email_verified', true, 'phone_verified', false),
       'email', now(), now(), now()
  from auth.users u where u.email like '%@demo.crewboard.test';

-- The workspace, made as Ada would make it (activity records her as the actor).
select set_config('request.jwt.claims', '{"sub": "a0000000-0000-4000-8000-000000000001", "role": "authenticated"}', true);

insert into public.workspaces (id, name, slug, created_by)
values ('b0000000-0000-4000-8000-000000000001', 'Northwind Studio', 'northwind', 'a0000000-0000-4000-8000-000000000001');

insert into public.workspace_members (workspace_id, user_id, role) values
  ('b0000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000001', 'owner'),
  ('b0000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000002', 'member'),
  ('b0000000-0000-4000-8000-000000000001', 'a0000000-0000-4000-8000-000000000003', 'viewer');

insert into public.projects (id, workspace_id, key, name, description, created_by) values
  ('c0000000-0000-4000-8000-000000000001', 'b0000000-0000-4000-8000-000000000001', 'WEB', 'Website relaunch',
   'New site for the spring launch: content, design, build and go-live.', 'a0000000-0000-4000-8000-000000000001'),
  ('c0000000-0000-4000-8000-000000000002', 'b0000000-0000-4000-8000-000000000001', 'HIR', 'Hiring',
   'Two engineers and a designer by the end of the quarter.', 'a0000000-0000-4000-8000-000000000001');

-- Tasks: title, description, status (by its name), priority, assignee (a = Ada, g = Grace), due in N days.
insert into public.tasks (workspace_id, project_id, title, description, status_id, priority, assignee_id, due_date, created_by)
select 'b0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000001', t.title, t.description,
       (select s.id from public.project_statuses s
         where s.project_id = 'c0000000-0000-4000-8000-000000000001' and s.name = t.status),
       t.priority::public.task_priority,
       case t.who when 'a' then 'a0000000-0000-4000-8000-000000000001'::uuid
                  when 'g' then 'a0000000-0000-4000-8000-000000000002'::uuid end,
       case when t.due is null then null else current_date + t.due end,
       'a0000000-0000-4000-8000-000000000001'
  from (values
    (1, 'Audit the current site content', 'List every page, its traffic and whether it moves over.', 'Done', 'medium', 'g', -20),
    (2, 'Interview five customers about the old site', 'What do they look for first? What do they never find?', 'Done', 'high', 'a', -18),
    (3, 'Write the sitemap', 'Top-level navigation and the pages under each section.', 'Done', 'high', 'a', -15),
    (4, 'Choose the typefaces', 'One for headings, one for text; both with good numerals.', 'Done', 'low', 'g', -14),
    (5, 'Draft the home page copy', 'Lead with what the studio does, not who it is.', 'Done', 'high', 'a', -12),
    (6, 'Set up the repository and CI', 'Lint, typecheck and preview deploys on every branch.', 'Done', 'medium', 'g', -11),
    (7, 'Design the navigation', 'Works on a phone first; no hover-only menus.', 'Done', 'medium', 'g', -9),
    (8, 'Photograph the team', 'Natural light, plain backgrounds, one group shot.', 'In progress', 'medium', 'a', 3),
    (9, 'Build the page templates', 'Home, case study, article, contact. Shared header and footer.', 'In progress', 'high', 'g', 5),
    (10, 'Write three case studies', 'Problem, approach, result — with numbers where we have them.', 'In progress', 'high', 'a', 6),
    (11, 'Migrate blog posts', 'Keep the old URLs working with redirects.', 'In progress', 'medium', 'g', 8),
    (12, 'Accessibility review of the templates', 'Keyboard paths, contrast, headings, form labels.', 'In progress', 'urgent', 'g', 4),
    (13, 'Contact form with spam protection', 'A honeypot first; a captcha only if spam gets through.', 'To do', 'medium', 'g', 10),
    (14, 'Set up analytics without cookies', 'Page views and referrers only; no banner needed.', 'To do', 'low', null, 14),
    (15, 'Write the about page', 'How we work, who we work with, what we will not do.', 'To do', 'medium', 'a', 12),
    (16, 'Design the case study layout', 'Big images, short paragraphs, a results box.', 'To do', 'high', 'g', 9),
    (17, 'Redirect map for old URLs', 'Every old URL answers with a 301 to its new home.', 'To do', 'urgent', 'g', 11),
    (18, 'Pick a hosting plan', 'Static hosting with a CDN; compare three options.', 'To do', 'low', 'a', 15),
    (19, 'Optimise images', 'Modern formats, sizes per breakpoint, lazy below the fold.', 'To do', 'medium', null, 16),
    (20, 'Write meta descriptions', 'One per page, under 155 characters, no keyword stuffing.', 'To do', 'low', 'a', 18),
    (21, 'Open Graph images', 'A template that puts the page title on the brand background.', 'To do', 'low', null, 20),
    (22, 'Cookie-free newsletter signup', 'Double opt-in; the confirmation email in our voice.', 'To do', 'medium', 'g', 21),
    (23, 'Proofread every page', 'Read aloud once; check names and numbers twice.', 'Backlog', 'medium', null, null),
    (24, 'Print stylesheet for case studies', 'Clients print them for meetings. Hide navigation.', 'Backlog', 'low', null, null),
    (25, 'Dark mode', 'Respect the system setting; no toggle for now.', 'Backlog', 'low', null, null),
    (26, 'Search across articles', 'Full text, typo-tolerant, no external service.', 'Backlog', 'medium', null, null),
    (27, 'Translate the home page into German', 'Half our leads come from Berlin.', 'Backlog', 'medium', null, null),
    (28, 'RSS feed for the blog', 'Full content, not excerpts.', 'Backlog', 'low', null, null),
    (29, 'Speed budget in CI', 'Fail the build when a page ships more than 150 kB of JavaScript.', 'Backlog', 'high', null, null),
    (30, 'Launch checklist', 'DNS, redirects, analytics, sitemap.xml, robots.txt, 404 page.', 'Backlog', 'urgent', 'a', 30),
    (31, 'Plan the launch announcement', 'Newsletter, social posts, a note to every client.', 'Backlog', 'medium', 'a', 28),
    (32, 'Staging password protection', 'Keep search engines and curious eyes out until launch.', 'To do', 'high', 'g', 7),
    (33, 'Favicon and app icons', 'SVG favicon plus the sizes phones want.', 'Done', 'low', 'g', -5),
    (34, 'Content style guide', 'Voice, tone, capitalisation, how we write numbers and dates.', 'Done', 'medium', 'a', -8),
    (35, 'Footer links and legal pages', 'Imprint, privacy, accessibility statement.', 'In progress', 'medium', 'a', 6),
    (36, 'Error pages', 'Friendly 404 and 500 pages that link home.', 'To do', 'low', 'g', 13),
    (37, 'Load testing the contact endpoint', 'A hundred submissions a minute without dropping one.', 'Backlog', 'low', null, null),
    (38, 'Review the design with the client', 'Walk through templates on a phone and a laptop.', 'In progress', 'high', 'a', 2),
    (39, 'Alt text for every image', 'Describe what matters in the picture, not the file name.', 'To do', 'high', 'g', 8),
    (40, 'Go-live', 'Switch DNS on a Tuesday morning, watch the logs, celebrate.', 'Backlog', 'urgent', 'a', 35)
  ) as t (n, title, description, status, priority, who, due)
 order by t.n;

insert into public.tasks (workspace_id, project_id, title, description, status_id, priority, created_by)
select 'b0000000-0000-4000-8000-000000000001', 'c0000000-0000-4000-8000-000000000002', t.title, t.description,
       (select s.id from public.project_statuses s
         where s.project_id = 'c0000000-0000-4000-8000-000000000002' and s.name = t.status),
       t.priority::public.task_priority, 'a0000000-0000-4000-8000-000000000001'
  from (values
    (1, 'Write the engineer job ad', 'What they will build, who they will work with, the salary range.', 'In progress', 'high'),
    (2, 'Plan the interview loop', 'Three conversations, one take-home at most, an answer within a week.', 'To do', 'medium')
  ) as t (n, title, description, status, priority)
 order by t.n;

-- Grace moves and comments (activity records her).
select set_config('request.jwt.claims', '{"sub": "a0000000-0000-4000-8000-000000000002", "role": "authenticated"}', true);

insert into public.comments (workspace_id, task_id, author_id, body)
select t.workspace_id, t.id, 'a0000000-0000-4000-8000-000000000002', c.body
  from public.tasks t
  join (values
    (9, 'Header and footer are done. Case study template next.'),
    (12, 'Found three contrast issues on the buttons; fixing them in the template.'),
    (17, 'I have the list of old URLs from the audit. About 120 of them.'),
    (10, '@ada can we get the numbers for the Hanse case study from their team?')
  ) as c (number, body) on c.number = t.number
 where t.project_id = 'c0000000-0000-4000-8000-000000000001';

select set_config('request.jwt.claims', '{"sub": "a0000000-0000-4000-8000-000000000001", "role": "authenticated"}', true);

insert into public.comments (workspace_id, task_id, author_id, body)
select t.workspace_id, t.id, 'a0000000-0000-4000-8000-000000000001', c.body
  from public.tasks t
  join (values
    (10, 'Asked them on Monday; they promised numbers by Friday.'),
    (8, 'Booked the photographer for Thursday morning.'),
    (38, 'Client review moved to Wednesday at 10.')
  ) as c (number, body) on c.number = t.number
 where t.project_id = 'c0000000-0000-4000-8000-000000000001';

select set_config('request.jwt.claims', '', true);
