-- Search by the beginning of every word: what a task and a comment say, as `simple` text-search
-- vectors (no stemming, so "bootl" finds "Bootloader" and "organiz" finds "organization"), kept in
-- GIN expression indexes so a search reads the matching rows and not the workspace.
-- A task's title has an index of its own (a match there ranks first); its title and description
-- together another (title weighing A, description B, for the rank).

create function public.task_search_words(title text, description text) returns tsvector
language sql
immutable
parallel safe
set search_path = ''
as $$
  select setweight(to_tsvector('simple'::regconfig, title), 'A')
      || setweight(to_tsvector('simple'::regconfig, description), 'B')
$$;

create function public.comment_search_words(body text) returns tsvector
language sql
immutable
parallel safe
set search_path = ''
as $$
  select to_tsvector('simple'::regconfig, body)
$$;

-- The query for a search's words: every word must match (AND), each as a prefix once it has two
-- characters or more (one letter alone would match most of a workspace). The query is built from
-- plainto_tsquery's own output, whose lexemes come back quoted by PostgreSQL: nothing in a word can
-- add an operator. Null when no word has a lexeme.
create function public.search_tsquery(words text[]) returns tsquery
language sql
immutable
parallel safe
set search_path = ''
as $$
  select string_agg(
           '(' || regexp_replace(
                    plainto_tsquery('simple'::regconfig, w)::text,
                    '(''(?:[^'']|'''')*'')',
                    '\1' || case when char_length(btrim(w)) >= 2 then ':*' else '' end,
                    'g') || ')',
           ' & ')::tsquery
    from unnest(words[1:12]) as w
   where numnode(plainto_tsquery('simple'::regconfig, w)) > 0
$$;

-- In `public`, not `private`: search_tasks runs as its caller, who may not use schema private, and
-- whoever writes a task or a comment computes its index entry. They are pure functions of their
-- arguments.
revoke execute on function public.task_search_words(text, text) from public, anon;
revoke execute on function public.comment_search_words(text) from public, anon;
revoke execute on function public.search_tsquery(text[]) from public, anon;
grant execute on function public.task_search_words(text, text) to authenticated, service_role;
grant execute on function public.comment_search_words(text) to authenticated, service_role;
grant execute on function public.search_tsquery(text[]) to authenticated, service_role;

create index tasks_title_words_idx on public.tasks using gin (to_tsvector('simple'::regconfig, title));
create index tasks_words_idx on public.tasks using gin (public.task_search_words(title, description));
create index comments_words_idx on public.comments using gin (public.comment_search_words(body));
