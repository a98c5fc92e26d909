-- Sign-in attempts, limited by the app before it calls the auth API. The auth API sees every visitor
-- arrive from the app server's one address, so its own per-address limit cannot tell visitors apart;
-- the app keys these buckets on the visitor's address and on the target account instead. They live
-- here, not in a process's memory, so every app process shares them.
--
-- Token buckets, as GoTrue's limits are: `capacity` attempts at once, refilling continuously at
-- `capacity` per `window_seconds`.
create table private.rate_limits (
  key text primary key,
  tokens double precision not null,
  refilled_at timestamptz not null default now()
);

-- Takes one attempt from every bucket in `keys` (capacities pair with keys), or from none of them.
-- Returns 0 when the attempt may go ahead, otherwise the whole seconds until every bucket allows one.
create function public.take_rate_limits(keys text[], capacities integer[], window_seconds integer)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  bucket record;
  wait double precision := 0;
begin
  if coalesce(array_length(keys, 1), 0) = 0
     or array_length(keys, 1) <> array_length(capacities, 1)
     or window_seconds < 1
     or exists (select 1 from unnest(capacities) as c where c < 1) then
    raise exception 'take_rate_limits: one positive capacity per key, and a positive window'
      using errcode = '22023';
  end if;

  insert into private.rate_limits (key, tokens)
  select k, c from unnest(keys, capacities) as t(k, c)
  on conflict (key) do nothing;

  -- Rows are locked in key order, so two attempts that share buckets never wait on each other in a cycle.
  for bucket in
    select r.key, c.capacity,
           least(c.capacity::double precision,
                 r.tokens + extract(epoch from (clock_timestamp() - r.refilled_at)) * c.capacity / window_seconds)
             as tokens
    from private.rate_limits r
    join unnest(keys, capacities) as c(key, capacity) on c.key = r.key
    order by r.key
    for update of r
  loop
    if bucket.tokens < 1 then
      wait := greatest(wait, (1 - bucket.tokens) * window_seconds / bucket.capacity);
    end if;
  end loop;

  if wait > 0 then
    return greatest(1, ceil(wait))::integer;
  end if;

  update private.rate_limits r
  set tokens = least(c.capacity::double precision,
                     r.tokens + extract(epoch from (clock_timestamp() - r.refilled_at)) * c.capacity / window_seconds) - 1,
      refilled_at = clock_timestamp()
  from unnest(keys, capacities) as c(key, capacity)
  where r.key = c.key;

  -- Full buckets carry no information: now and then, forget the ones untouched for a day.
  if random() < 0.001 then
    delete from private.rate_limits where refilled_at < now() - interval '1 day';
  end if;
  return 0;
end
$$;

revoke execute on function public.take_rate_limits(text[], integer[], integer) from public, anon, authenticated;
grant execute on function public.take_rate_limits(text[], integer[], integer) to service_role;
