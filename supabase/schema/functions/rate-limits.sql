-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: the sign-in limits every app process shares.

CREATE OR REPLACE FUNCTION public.take_rate_limits(keys text[], capacities integer[], window_seconds integer)
 RETURNS integer
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$;
grant execute on function public.take_rate_limits(text[],integer[],integer) to service_role;
