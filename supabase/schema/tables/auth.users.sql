-- Written by `npm run db:schema` from supabase/migrations: the database as the migrations leave it.
-- Do not edit; change the schema with a new migration, then run `npm run db:schema`.
--
-- What the app adds to auth.users, a table of the platform's: its policies and triggers.

CREATE TRIGGER on_auth_user_created AFTER INSERT ON auth.users FOR EACH ROW EXECUTE FUNCTION public.create_profile_for_new_user();
CREATE TRIGGER on_auth_user_created_workspace AFTER INSERT ON auth.users FOR EACH ROW EXECUTE FUNCTION public.create_personal_workspace();
CREATE TRIGGER on_auth_user_deleted_workspaces BEFORE DELETE ON auth.users FOR EACH ROW EXECUTE FUNCTION public.delete_workspaces_of_deleted_user();
