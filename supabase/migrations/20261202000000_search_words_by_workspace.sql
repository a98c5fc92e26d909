-- Search's word indexes, keyed by workspace first. A search names its workspace and its words, and
-- with the words alone in an index PostgreSQL had two ways to apply the workspace, both costly at
-- size: AND the words' bitmap with the workspace's btree entries (read whole: 100,000 of them for
-- a workspace of 100,000 tasks, 300,000 for its comments, on every search), or test every row the
-- words find, in every workspace, before the first 100 of this one. With the workspace as the
-- index's first column (btree_gin: a GIN index over a uuid), one index scan finds the rows that
-- hold the words in this workspace, skipping through the workspace's entries rather than reading
-- them.
--
-- The new indexes replace the words-only ones and take their names, which search_task_hits'
-- comments and decision 015 use.

-- Trusted: postgres creates it on a hosted project as it does here (supabase/postgres ships it).
create extension if not exists btree_gin with schema extensions;

create index tasks_title_words_by_workspace_idx
  on public.tasks using gin (workspace_id, to_tsvector('simple'::regconfig, title));
create index tasks_words_by_workspace_idx
  on public.tasks using gin (workspace_id, public.task_search_words(title, description));
create index comments_words_by_workspace_idx
  on public.comments using gin (workspace_id, public.comment_search_words(body));

-- Not CONCURRENTLY: the CLI runs each migration file in a transaction (see .squawk.toml), and
-- dropping an index holds its table's lock only for the catalog change.
-- squawk-ignore require-concurrent-index-deletion
drop index public.tasks_title_words_idx;
-- squawk-ignore require-concurrent-index-deletion
drop index public.tasks_words_idx;
-- squawk-ignore require-concurrent-index-deletion
drop index public.comments_words_idx;
alter index public.tasks_title_words_by_workspace_idx rename to tasks_title_words_idx;
alter index public.tasks_words_by_workspace_idx rename to tasks_words_idx;
alter index public.comments_words_by_workspace_idx rename to comments_words_idx;
