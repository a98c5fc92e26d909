-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- Functions: public.tick_checklist_item(uuid,integer,boolean,text).

CREATE OR REPLACE FUNCTION public.tick_checklist_item(task_id uuid, item integer, checked boolean, item_text text)
 RETURNS void
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  changed int;
begin
  update public.tasks t
     set description = public.checklist_ticked(t.description, tick_checklist_item.item,
                                               tick_checklist_item.checked, tick_checklist_item.item_text)
   where t.id = tick_checklist_item.task_id;
  get diagnostics changed = row_count;
  if changed = 0 then
    if exists (select 1 from public.tasks t where t.id = tick_checklist_item.task_id) then
      raise exception 'This task is read-only.' using errcode = 'insufficient_privilege';
    end if;
    raise exception 'No such task.' using errcode = 'no_data_found';
  end if;
end
$function$;
grant execute on function public.tick_checklist_item(uuid,integer,boolean,text) to authenticated, service_role;
