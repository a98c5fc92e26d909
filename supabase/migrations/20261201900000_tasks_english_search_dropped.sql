-- tasks.search, the English-stemmed text-search column of the first search, and its GIN index go:
-- search reads the `simple` words of 20261201300000_search_words.sql since then, and nothing reads
-- this column. It was computed and indexed on every insert and every edit of a title or description
-- (an import's 5,000 tasks included), and sent in every realtime message about a task.
-- (The function that read it was dropped in 20261201300200_search_tasks.sql.)

-- Dropping the column drops its index with it.
-- squawk-ignore ban-drop-column
alter table public.tasks drop column search;
