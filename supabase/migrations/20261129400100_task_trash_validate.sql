-- The trash, second step (after 20261129400000_task_trash.sql): validate the key from tasks.deleted_by
-- to its user in a transaction of its own, where the scan holds a lock that lets reads and writes
-- through.
alter table public.tasks validate constraint tasks_deleted_by_fkey;
