-- An import of the largest file (5,000 tasks) takes about 1.5 s, but the API's 8 s statement timeout
-- (the authenticated role's) leaves it too little room on a busy database: a full test run on a
-- shared machine measured 6 to 8 s, and went past it. An import is one deliberate bulk change that
-- must land whole, not an interactive query, so it gets 30 s of its own: PostgREST applies a
-- function's statement_timeout to the request that calls it (Supabase documents this for functions
-- that need the room).
alter function public.import_tasks(uuid) set statement_timeout = '30s';
