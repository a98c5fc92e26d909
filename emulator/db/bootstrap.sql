-- What every hosted Supabase project has before its own migrations run: roles, schemas, the auth,
-- storage and realtime tables with the upstream services' column names, default privileges and the
-- supabase_realtime publication. Idempotent: it runs on every start of the local backend.
-- Modelled on supabase/postgres init-scripts and the auth, storage and realtime migrations.

set client_min_messages = warning;

-- Roles -------------------------------------------------------------------------------------------
-- As in Supabase's image: supabase_admin is the bootstrap superuser that runs this file, and
-- postgres — the role migrations, the seed and `supabase db push` use — is an ordinary role with
-- the attributes supabase/postgres migrations/db/migrations/10000000000000_demote-postgres.sql
-- leaves it: nosuperuser createdb createrole login replication bypassrls.
do $$
declare
  r record;
begin
  for r in
    select * from (values
      ('anon', 'nologin inherit'),
      ('authenticated', 'nologin inherit'),
      ('service_role', 'nologin inherit bypassrls'),
      ('authenticator', 'login noinherit'),
      ('postgres', 'login nosuperuser createdb createrole replication bypassrls'),
      ('supabase_admin', 'login superuser createdb createrole replication bypassrls'),
      ('supabase_auth_admin', 'login noinherit'),
      ('supabase_storage_admin', 'login noinherit createrole'),
      ('supabase_realtime_admin', 'nologin noinherit'),
      ('dashboard_user', 'nologin createdb createrole replication')
    ) as t(name, options)
  loop
    if not exists (select 1 from pg_roles where rolname = r.name) then
      execute format('create role %I %s', r.name, r.options);
    end if;
  end loop;
  -- A server given by DATABASE_URL may have made postgres its bootstrap superuser, which PostgreSQL
  -- does not let be demoted; the embedded server never does (emulator/db/postgres.ts).
  if (select oid from pg_roles where rolname = 'postgres') <> 10 and current_user <> 'postgres' then
    alter role postgres nosuperuser createdb createrole login replication bypassrls;
  end if;
end
$$;

-- The Supabase CLI's local databases use one password for every login.
alter role postgres with password 'postgres';
alter role authenticator with password 'postgres';
alter role supabase_auth_admin with password 'postgres';
alter role supabase_storage_admin with password 'postgres';
alter role supabase_admin with password 'postgres';
-- supabase/postgres 20260821154147_revoke_createrole_from_auth_admin.sql
alter role supabase_auth_admin nocreaterole;

grant anon, authenticated, service_role to authenticator;
-- supabase/postgres 20230201083204_grant_auth_roles_to_postgres.sql, and ADMIN on them from
-- PostgreSQL 16 on (20250605172253_grant_with_admin_to_postgres_16_and_above.sql): postgres may grant
-- them and change their settings. supautils' reserved_roles keeps it from dropping, renaming or
-- altering their attributes; no stand-in can (event triggers do not fire for role commands), so
-- locally those are refused only by their dependencies or not at all (emulator/README.md, "Roles").
grant anon, authenticated, service_role to postgres;
do $$
begin
  if current_setting('server_version_num')::int >= 160000 then
    grant anon, authenticated, service_role to postgres with admin option;
    -- supautils lets postgres change authenticator's settings (reserved_roles `authenticator*`) within
    -- privileged_role_allowed_configs, which need the SET grants below. ADMIN alone gives that
    -- here; without INHERIT or SET it adds no privilege of authenticator's to postgres.
    execute 'grant authenticator to postgres with admin option, inherit false, set false';
  end if;
end
$$;
-- supautils.privileged_role_allowed_configs (supabase/postgres ansible/files/postgresql_config/
-- supautils.conf.j2): settings postgres may SET, and set on the roles above, though only a superuser
-- could otherwise. supautils switches to a superuser for them; a SET privilege on each does the same
-- here. Its `pgrst.*` is PostgREST 12's in-database settings, `plan_filter.*` has no extension here.
do $$
declare
  name text;
begin
  if current_setting('server_version_num')::int < 150000 then
    return;
  end if;
  foreach name in array array[
    'auto_explain.log_min_duration', 'auto_explain.log_nested_statements', 'log_lock_waits',
    'log_min_messages', 'pg_net.batch_size', 'pg_net.ttl', 'pgaudit.log', 'pgaudit.log_catalog',
    'pgaudit.log_client', 'pgaudit.log_level', 'pgaudit.log_relation', 'pgaudit.log_rows',
    'pgaudit.log_statement', 'pgaudit.log_statement_once', 'pgaudit.role', 'safeupdate.enabled',
    'session_replication_role', 'track_io_timing',
    'pgrst.db_aggregates_enabled', 'pgrst.db_anon_role', 'pgrst.db_extra_search_path',
    'pgrst.db_max_rows', 'pgrst.db_plan_enabled', 'pgrst.db_pre_config', 'pgrst.db_pre_request',
    'pgrst.db_prepared_statements', 'pgrst.db_root_spec', 'pgrst.db_schemas', 'pgrst.db_tx_end',
    'pgrst.jwt_aud', 'pgrst.jwt_role_claim_key', 'pgrst.jwt_secret', 'pgrst.jwt_secret_is_base64',
    'pgrst.jwt_cache_max_lifetime', 'pgrst.openapi_mode', 'pgrst.openapi_security_active',
    'pgrst.openapi_server_proxy_uri', 'pgrst.raw_media_types', 'pgrst.server_cors_allowed_origins',
    'pgrst.server_trace_header', 'pgrst.server_timing_enabled'
  ] loop
    execute format('grant set on parameter %s to postgres', name);
  end loop;
end
$$;
grant pg_monitor, pg_read_all_data, pg_signal_backend to postgres;
-- Hosted dropped these memberships (20250421084701_revoke_admin_roles_from_postgres.sql): postgres
-- reaches platform tables only through its grants and the supautils stand-in below. Revoked only
-- where granted (by whichever role granted it): a revoke of nothing logs a WARNING on every start.
do $$
declare
  m record;
begin
  for m in
    select granted.rolname as role, grantor.rolname as grantor
    from pg_auth_members a
    join pg_roles granted on granted.oid = a.roleid
    join pg_roles grantor on grantor.oid = a.grantor
    where a.member = 'postgres'::regrole
      and granted.rolname in ('supabase_auth_admin', 'supabase_storage_admin', 'supabase_realtime_admin')
  loop
    execute format('revoke %I from postgres granted by %I', m.role, m.grantor);
  end loop;
end
$$;
-- storage-api logs in as supabase_storage_admin and switches to the caller's role
-- (20231013070755_grant_authenticator_to_supabase_storage_admin.sql: via authenticator).
grant authenticator to supabase_storage_admin;

alter role anon set statement_timeout = '3s';
alter role authenticated set statement_timeout = '8s';
alter role authenticator set statement_timeout = '8s';
-- supabase/postgres 20231130133139_set_lock_timeout_to_authenticator_role.sql
alter role authenticator set lock_timeout = '8s';
alter role supabase_auth_admin set search_path = auth;
alter role supabase_storage_admin set search_path = storage;
-- The storage service is the Storage API: its own deletes pass storage.protect_delete() (below), as
-- storage-api's pass by setting this per transaction.
alter role supabase_storage_admin set storage.allow_delete_query = 'true';
alter role postgres set search_path = "$user", public, extensions;

-- The database belongs to postgres (postgres-init.ts: `alter database postgres owner to postgres`), so
-- migrations may create schemas and, as pg_database_owner, tables in public.
do $$
begin
  if (select datdba from pg_database where datname = current_database()) = 10 then
    execute format('alter database %I owner to postgres', current_database());
  end if;
end
$$;

-- Schemas and extensions --------------------------------------------------------------------------
-- The platform schemas belong to supabase_admin (supabase/postgres init-scripts 00000000000001 and
-- 00000000000002: `create schema … authorization supabase_admin`); the services own their tables.
create schema if not exists extensions;
create schema if not exists graphql_public;
create schema if not exists auth authorization supabase_admin;
create schema if not exists storage authorization supabase_admin;
create schema if not exists realtime authorization supabase_admin;
alter schema auth owner to supabase_admin;
alter schema storage owner to supabase_admin;
alter schema realtime owner to supabase_admin;

create extension if not exists pgcrypto with schema extensions;
create extension if not exists "uuid-ossp" with schema extensions;
-- Installed in every hosted project (supabase/postgres migrations/schema-15.sql); its library is
-- preloaded (db/postgres.ts), so it has rows here too. Skipped on a DATABASE_URL server without it.
do $$
begin
  if exists (select 1 from pg_settings where name = 'shared_preload_libraries' and setting like '%pg_stat_statements%') then
    create extension if not exists pg_stat_statements with schema extensions;
  end if;
end
$$;

grant usage on schema public, extensions, graphql_public to postgres, anon, authenticated, service_role;
-- 10000000000000_demote-postgres.sql and 20230224042246_grant_extensions_perms_for_postgres.sql:
-- postgres may create in extensions and holds everything in it with grant option.
grant all on schema extensions to postgres;
grant all on all tables in schema extensions to postgres with grant option;
grant all on all routines in schema extensions to postgres with grant option;
grant all on all sequences in schema extensions to postgres with grant option;
alter default privileges for role supabase_admin in schema extensions grant all on tables to postgres with grant option;
alter default privileges for role supabase_admin in schema extensions grant all on routines to postgres with grant option;
alter default privileges for role supabase_admin in schema extensions grant all on sequences to postgres with grant option;
grant usage on schema auth to postgres, anon, authenticated, service_role;
-- 20250709135250 and 20260506172403: usage with grant option on storage and realtime.
grant usage on schema storage, realtime to postgres with grant option;
grant usage on schema storage, realtime to anon, authenticated, service_role;
-- 20250421084701_revoke_admin_roles_from_postgres.sql: postgres creates nothing in the platform schemas.
revoke create on schema auth, storage, realtime from postgres;
grant all on schema auth to supabase_auth_admin;
grant all on schema storage to supabase_storage_admin;
grant usage on schema extensions to supabase_auth_admin, supabase_storage_admin;
grant all on schema realtime to supabase_realtime_admin;

-- Hosted migrations never grant on new objects in public: these defaults do, and RLS decides.
alter default privileges for role postgres in schema public grant all on tables to anon, authenticated, service_role;
alter default privileges for role postgres in schema public grant all on functions to anon, authenticated, service_role;
alter default privileges for role postgres in schema public grant all on sequences to anon, authenticated, service_role;
alter default privileges for role supabase_admin in schema public grant all on tables to postgres, anon, authenticated, service_role;
alter default privileges for role supabase_admin in schema public grant all on functions to postgres, anon, authenticated, service_role;
alter default privileges for role supabase_admin in schema public grant all on sequences to postgres, anon, authenticated, service_role;
-- No `grant … on all tables`: bootstrap runs on every start, after migrations that may have revoked.

-- auth: the JWT helpers policies call --------------------------------------------------------------
set role supabase_auth_admin;

create or replace function auth.uid() returns uuid
language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.sub', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
  )::uuid
$$;

create or replace function auth.role() returns text
language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.role', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role')
  )::text
$$;

create or replace function auth.email() returns text
language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim.email', true), ''),
    (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'email')
  )::text
$$;

create or replace function auth.jwt() returns jsonb
language sql stable as $$
  select coalesce(
    nullif(current_setting('request.jwt.claim', true), ''),
    nullif(current_setting('request.jwt.claims', true), '')
  )::jsonb
$$;

-- auth: tables, with GoTrue's column names ----------------------------------------------------------
do $$
begin
  if not exists (select 1 from pg_type where typname = 'aal_level' and typnamespace = 'auth'::regnamespace) then
    create type auth.aal_level as enum ('aal1', 'aal2', 'aal3');
  end if;
  if not exists (select 1 from pg_type where typname = 'factor_type' and typnamespace = 'auth'::regnamespace) then
    create type auth.factor_type as enum ('totp', 'webauthn', 'phone');
  end if;
  if not exists (select 1 from pg_type where typname = 'factor_status' and typnamespace = 'auth'::regnamespace) then
    create type auth.factor_status as enum ('unverified', 'verified');
  end if;
  if not exists (select 1 from pg_type where typname = 'code_challenge_method' and typnamespace = 'auth'::regnamespace) then
    create type auth.code_challenge_method as enum ('s256', 'plain');
  end if;
  if not exists (select 1 from pg_type where typname = 'one_time_token_type' and typnamespace = 'auth'::regnamespace) then
    create type auth.one_time_token_type as enum (
      'confirmation_token', 'reauthentication_token', 'recovery_token',
      'email_change_token_new', 'email_change_token_current', 'phone_change_token'
    );
  end if;
end
$$;

create table if not exists auth.instances (
  id uuid primary key,
  uuid uuid,
  raw_base_config text,
  created_at timestamptz,
  updated_at timestamptz
);

create table if not exists auth.users (
  instance_id uuid,
  id uuid primary key,
  aud varchar(255),
  role varchar(255),
  email varchar(255),
  encrypted_password varchar(255),
  email_confirmed_at timestamptz,
  invited_at timestamptz,
  confirmation_token varchar(255) default '',
  confirmation_sent_at timestamptz,
  recovery_token varchar(255) default '',
  recovery_sent_at timestamptz,
  email_change_token_new varchar(255) default '',
  email_change varchar(255) default '',
  email_change_sent_at timestamptz,
  last_sign_in_at timestamptz,
  raw_app_meta_data jsonb,
  raw_user_meta_data jsonb,
  is_super_admin boolean,
  created_at timestamptz,
  updated_at timestamptz,
  phone text unique default null,
  phone_confirmed_at timestamptz,
  phone_change text default '',
  phone_change_token varchar(255) default '',
  phone_change_sent_at timestamptz,
  confirmed_at timestamptz generated always as (least(email_confirmed_at, phone_confirmed_at)) stored,
  email_change_token_current varchar(255) default '',
  email_change_confirm_status smallint default 0 check (email_change_confirm_status >= 0 and email_change_confirm_status <= 2),
  banned_until timestamptz,
  reauthentication_token varchar(255) default '',
  reauthentication_sent_at timestamptz,
  is_sso_user boolean not null default false,
  deleted_at timestamptz,
  is_anonymous boolean not null default false
);
create unique index if not exists users_email_partial_key on auth.users (email) where (is_sso_user = false);
create index if not exists users_instance_id_email_idx on auth.users (instance_id, lower(email));
create index if not exists users_is_anonymous_idx on auth.users (is_anonymous);
create unique index if not exists confirmation_token_idx on auth.users (confirmation_token) where confirmation_token !~ '^[0-9 ]*$';
create unique index if not exists recovery_token_idx on auth.users (recovery_token) where recovery_token !~ '^[0-9 ]*$';
create unique index if not exists email_change_token_current_idx on auth.users (email_change_token_current) where email_change_token_current !~ '^[0-9 ]*$';
create unique index if not exists email_change_token_new_idx on auth.users (email_change_token_new) where email_change_token_new !~ '^[0-9 ]*$';
create unique index if not exists reauthentication_token_idx on auth.users (reauthentication_token) where reauthentication_token !~ '^[0-9 ]*$';

create table if not exists auth.identities (
  provider_id text not null,
  user_id uuid not null references auth.users (id) on delete cascade,
  identity_data jsonb not null,
  provider text not null,
  last_sign_in_at timestamptz,
  created_at timestamptz,
  updated_at timestamptz,
  email text generated always as (lower(identity_data ->> 'email')) stored,
  id uuid primary key default gen_random_uuid(),
  constraint identities_provider_id_provider_unique unique (provider_id, provider)
);
create index if not exists identities_user_id_idx on auth.identities (user_id);
create index if not exists identities_email_idx on auth.identities (email text_pattern_ops);

create table if not exists auth.sessions (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz,
  updated_at timestamptz,
  factor_id uuid,
  aal auth.aal_level,
  not_after timestamptz,
  refreshed_at timestamp,
  user_agent text,
  ip inet,
  tag text
);
create index if not exists sessions_user_id_idx on auth.sessions (user_id);
create index if not exists sessions_not_after_idx on auth.sessions (not_after desc);

create table if not exists auth.refresh_tokens (
  instance_id uuid,
  id bigserial primary key,
  token varchar(255) unique,
  user_id varchar(255),
  revoked boolean,
  created_at timestamptz,
  updated_at timestamptz,
  parent varchar(255),
  session_id uuid references auth.sessions (id) on delete cascade
);
create index if not exists refresh_tokens_parent_idx on auth.refresh_tokens (parent);
create index if not exists refresh_tokens_session_id_revoked_idx on auth.refresh_tokens (session_id, revoked);
create index if not exists refresh_tokens_updated_at_idx on auth.refresh_tokens (updated_at desc);

create table if not exists auth.mfa_factors (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  friendly_name text,
  factor_type auth.factor_type not null,
  status auth.factor_status not null,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  secret text,
  phone text,
  last_challenged_at timestamptz unique,
  web_authn_credential jsonb,
  web_authn_aaguid uuid
);
create index if not exists factor_id_created_at_idx on auth.mfa_factors (user_id, created_at);
create unique index if not exists mfa_factors_user_friendly_name_unique on auth.mfa_factors (friendly_name, user_id) where trim(friendly_name) <> '';

create table if not exists auth.mfa_challenges (
  id uuid primary key,
  factor_id uuid not null references auth.mfa_factors (id) on delete cascade,
  created_at timestamptz not null,
  verified_at timestamptz,
  ip_address inet not null,
  otp_code text,
  web_authn_session_data jsonb
);

create table if not exists auth.mfa_amr_claims (
  session_id uuid not null references auth.sessions (id) on delete cascade,
  created_at timestamptz not null,
  updated_at timestamptz not null,
  authentication_method text not null,
  id uuid primary key,
  constraint mfa_amr_claims_session_id_authentication_method_pkey unique (session_id, authentication_method)
);

create table if not exists auth.flow_state (
  id uuid primary key,
  user_id uuid,
  auth_code text not null,
  code_challenge_method auth.code_challenge_method not null,
  code_challenge text not null,
  provider_type text not null,
  provider_access_token text,
  provider_refresh_token text,
  created_at timestamptz,
  updated_at timestamptz,
  authentication_method text not null,
  auth_code_issued_at timestamptz
);
create index if not exists idx_auth_code on auth.flow_state (auth_code);
create index if not exists flow_state_created_at_idx on auth.flow_state (created_at desc);

create table if not exists auth.one_time_tokens (
  id uuid primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  token_type auth.one_time_token_type not null,
  token_hash text not null check (char_length(token_hash) > 0),
  relates_to text not null,
  created_at timestamp without time zone not null default now(),
  updated_at timestamp without time zone not null default now(),
  constraint one_time_tokens_user_id_token_type_key unique (user_id, token_type)
);
create index if not exists one_time_tokens_token_hash_hash_idx on auth.one_time_tokens using hash (token_hash);
create index if not exists one_time_tokens_relates_to_hash_idx on auth.one_time_tokens using hash (relates_to);

create table if not exists auth.audit_log_entries (
  instance_id uuid,
  id uuid primary key,
  payload json,
  created_at timestamptz,
  ip_address varchar(64) not null default ''
);
create index if not exists audit_logs_instance_id_idx on auth.audit_log_entries (instance_id);

-- GoTrue gives these no default (migrations/00_init_auth_schema.up.sql and the rename in
-- 20210730183235_add_email_change_confirmed.up.sql) and scans them into Go strings
-- (internal/models/user.go): a row inserted without them cannot sign in on hosted.
alter table auth.users alter column confirmation_token drop default;
alter table auth.users alter column recovery_token drop default;
alter table auth.users alter column email_change_token_new drop default;
alter table auth.users alter column email_change drop default;

-- Columns GoTrue's later migrations add, added the same way so that an older data directory converges:
-- sessions (20250904133000_add_oauth_client_id_to_session, 20251007112900_add_session_refresh_token_columns,
-- 20251111201300_add_scopes_to_sessions), mfa_factors (20250925093508_add_last_webauthn_challenge_data),
-- flow_state (20260115000000_add_flow_state_oauth_context, which also lets the PKCE columns be NULL).
-- The oauth_clients table sessions.oauth_client_id refers to upstream is not made here (emulator/README.md).
alter table auth.sessions
  add column if not exists oauth_client_id uuid,
  add column if not exists refresh_token_hmac_key text,
  add column if not exists refresh_token_counter bigint,
  add column if not exists scopes text;
alter table auth.mfa_factors add column if not exists last_webauthn_challenge_data jsonb;
alter table auth.flow_state
  add column if not exists invite_token text,
  add column if not exists referrer text,
  add column if not exists oauth_client_state_id uuid,
  add column if not exists linking_target_id uuid,
  add column if not exists email_optional boolean not null default false,
  alter column auth_code drop not null,
  alter column code_challenge_method drop not null,
  alter column code_challenge drop not null;
-- phone_change began as varchar with an empty default and became text in
-- 20230116124310_alter_phone_type.up.sql; PostgreSQL keeps the default it had, typed varchar.
alter table auth.users alter column phone_change set default ''::character varying;

-- RLS on, no policies (migrations/20240612123726_enable_rls_update_grants.up.sql): only the owner
-- (the auth server) and roles that bypass RLS (postgres, service_role) see rows.
do $$
declare
  t text;
begin
  foreach t in array array['instances', 'users', 'audit_log_entries', 'refresh_tokens', 'mfa_factors',
    'sessions', 'mfa_challenges', 'mfa_amr_claims', 'flow_state', 'identities', 'one_time_tokens']
  loop
    execute format('alter table auth.%I enable row level security', t);
  end loop;
end
$$;

reset role;

grant execute on function auth.uid(), auth.role(), auth.email(), auth.jwt()
  to postgres, anon, authenticated, service_role, dashboard_user;
grant all on all tables in schema auth to postgres, dashboard_user;
grant all on all sequences in schema auth to postgres, dashboard_user;
-- GoTrue's 20240612123726_enable_rls_update_grants.up.sql: postgres may pass SELECT on on (to a view's
-- owner, say); every auth table here is on its list.
grant select on all tables in schema auth to postgres with grant option;
-- Hosted projects give the API roles no table access in auth: only the helpers above.

-- storage ----------------------------------------------------------------------------------------
set role supabase_storage_admin;

-- tenant/0038-iceberg-catalog-flag-on-buckets.sql and 0044-vector-bucket-type.sql.
do $$
begin
  if not exists (select 1 from pg_type where typname = 'buckettype' and typnamespace = 'storage'::regnamespace) then
    create type storage.buckettype as enum ('STANDARD', 'ANALYTICS', 'VECTOR');
  end if;
end
$$;

create table if not exists storage.buckets (
  id text primary key,
  name text not null,
  owner uuid,
  owner_id text,
  public boolean default false,
  avif_autodetection boolean default false,
  file_size_limit bigint,
  allowed_mime_types text[],
  type storage.buckettype not null default 'STANDARD',
  created_at timestamptz default now(),
  updated_at timestamptz default now()
);
create unique index if not exists bname on storage.buckets (name);

create table if not exists storage.objects (
  id uuid primary key default gen_random_uuid(),
  bucket_id text references storage.buckets (id),
  name text,
  owner uuid,
  owner_id text,
  created_at timestamptz default now(),
  updated_at timestamptz default now(),
  last_accessed_at timestamptz default now(),
  metadata jsonb,
  user_metadata jsonb,
  version text,
  path_tokens text[] generated always as (string_to_array(name, '/')) stored
);
create unique index if not exists bucketid_objname on storage.objects (bucket_id, name);
create index if not exists name_prefix_search on storage.objects (name text_pattern_ops);

create table if not exists storage.migrations (
  id integer primary key,
  name varchar(100) unique not null,
  hash varchar(40) not null,
  executed_at timestamp default current_timestamp
);

-- Data directories made before the enum kept `type` as text with a check; convert them in place.
do $$
begin
  if (select atttypid from pg_attribute where attrelid = 'storage.buckets'::regclass and attname = 'type')
     = 'text'::regtype then
    alter table storage.buckets drop constraint if exists buckets_type_check;
    alter table storage.buckets alter column type drop default;
    alter table storage.buckets alter column type type storage.buckettype using type::storage.buckettype;
    alter table storage.buckets alter column type set default 'STANDARD';
  end if;
end
$$;

-- tenant/0062-object-versioning-core.sql: columns for object versioning, which no bucket can enable yet.
alter table storage.buckets add column if not exists versioning_status text not null default 'DISABLED';
alter table storage.objects
  add column if not exists archived_at timestamptz,
  add column if not exists is_delete_marker boolean not null default false,
  add column if not exists is_versioned boolean not null default false;

alter table storage.buckets enable row level security;
alter table storage.objects enable row level security;
-- tenant/0004-add-migrations-rls.sql
alter table storage.migrations enable row level security;

create or replace function storage.foldername(name text) returns text[]
language plpgsql immutable as $$
declare
  _parts text[];
begin
  select string_to_array(name, '/') into _parts;
  return _parts[1 : array_length(_parts, 1) - 1];
end
$$;

create or replace function storage.filename(name text) returns text
language plpgsql immutable as $$
declare
  _parts text[];
begin
  select string_to_array(name, '/') into _parts;
  return _parts[array_length(_parts, 1)];
end
$$;

-- What follows the last dot of the file name, or the whole name when it has none, as storage-api's
-- migrations/tenant/0060-optimize-existing-functions-again.sql defines it ('a.tar.gz' → 'gz', 'README' → 'README').
create or replace function storage.extension(name text) returns text
language plpgsql immutable as $$
declare
  _parts text[];
  _filename text;
begin
  select string_to_array(name, '/') into _parts;
  select _parts[array_length(_parts, 1)] into _filename;
  return reverse(split_part(reverse(_filename), '.', 1));
end
$$;

-- The list endpoint's query (storage-api's `storage.search`, same signature and result): the entries
-- directly under `prefix` whose names start with `prefix || search` (case-insensitive), names
-- relative to `prefix`, each deeper path folded into one folder entry with a null id. Security
-- invoker, so RLS on storage.objects decides what a caller can list. `levels` is unused, as upstream.
create or replace function storage.search(
  prefix text,
  bucketname text,
  limits int default 100,
  levels int default 1,
  offsets int default 0,
  search text default '',
  sortcolumn text default 'name',
  sortorder text default 'asc'
) returns table (
  name text,
  id uuid,
  updated_at timestamptz,
  created_at timestamptz,
  last_accessed_at timestamptz,
  metadata jsonb
)
language plpgsql stable security invoker
as $$
declare
  _prefix text := coalesce(prefix, '');
  _match text := lower(coalesce(prefix, '') || coalesce(search, ''));
  _column text := case lower(coalesce(sortcolumn, 'name'))
    when 'updated_at' then 'updated_at'
    when 'created_at' then 'created_at'
    when 'last_accessed_at' then 'last_accessed_at'
    else 'name'
  end;
  _direction text := case when lower(coalesce(sortorder, 'asc')) = 'desc' then 'desc' else 'asc' end;
  _order text;
begin
  if _column = 'name' then
    -- Folders sort where their paths would (`a/` after `a.txt`), as in a listing of full keys.
    _order := format('lower(case when e.id is null then e.name || %L else e.name end) collate "C" %s',
      '/', _direction);
  else
    _order := format('(e.id is not null), case when e.id is null then e.name end %s, e.%I %s, e.name',
      _direction, _column, _direction);
  end if;
  return query execute format($sql$
    with matched as (
      select o.name as full_name, o.id, o.updated_at, o.created_at, o.last_accessed_at, o.metadata,
             strpos(substr(o.name, length($2) + 1), '/') as slash
        from storage.objects o
       where o.bucket_id = $1 and starts_with(lower(o.name), $2)
    ), entries as (
      select distinct substr(m.full_name, $3 + 1, length($2) + m.slash - 1 - $3) as name,
             null::uuid as id, null::timestamptz as updated_at, null::timestamptz as created_at,
             null::timestamptz as last_accessed_at, null::jsonb as metadata
        from matched m where m.slash > 0
      union all
      select substr(m.full_name, $3 + 1), m.id, m.updated_at, m.created_at, m.last_accessed_at, m.metadata
        from matched m where m.slash = 0
    )
    select e.name, e.id, e.updated_at, e.created_at, e.last_accessed_at, e.metadata
      from entries e
     order by %s
     limit $4 offset $5
  $sql$, _order)
  using bucketname, _match, length(_prefix), least(coalesce(limits, 100), 1500), coalesce(offsets, 0);
end
$$;

-- Bytes stored per bucket, from each object's metadata size (tenant/0060-optimize-existing-functions-again.sql
-- gives the result columns these names and types).
create or replace function storage.get_size_by_bucket() returns table (size bigint, bucket_id text)
language sql stable as $$
  select coalesce(sum((o.metadata ->> 'size')::bigint), 0)::bigint, o.bucket_id
    from storage.objects o
   group by o.bucket_id
$$;

-- The operation the Storage API is performing, for policies that allow one kind of request only; the
-- service sets `storage.operation` per request (tenant/0024-operation-function.sql). The two helpers of
-- tenant/0058-operation-ergonomics.sql compare it with the expected names, with or without their
-- `storage.` prefix; an empty or missing expectation allows nothing.
create or replace function storage.operation() returns text
language plpgsql stable as $$
begin
  return current_setting('storage.operation', true);
end
$$;

create or replace function storage.allow_any_operation(expected_operations text[]) returns boolean
language sql stable as $$
  select coalesce(bool_or(
           regexp_replace(storage.operation(), '^storage\.', '') = regexp_replace(wanted, '^storage\.', '')
         ), false)
    from unnest(expected_operations) as wanted
   where coalesce(wanted, '') <> ''
$$;

create or replace function storage.allow_only_operation(expected_operation text) returns boolean
language sql stable as $$
  select storage.allow_any_operation(array[expected_operation])
$$;

-- storage-api's triggers: objects keep updated_at current (tenant/0011), bucket names stay within 100
-- characters (tenant/0037), and a DELETE on either table outside the Storage API fails unless the
-- transaction set storage.allow_delete_query (tenant/0055-prevent-direct-deletes.sql).
create or replace function storage.update_updated_at_column() returns trigger
language plpgsql as $$
begin
  new.updated_at := now();
  return new;
end
$$;

create or replace function storage.enforce_bucket_name_length() returns trigger
language plpgsql as $$
begin
  if length(new.name) > 100 then
    raise exception 'bucket name "%" is too long (% characters). Max is 100.', new.name, length(new.name);
  end if;
  return new;
end
$$;

create or replace function storage.protect_delete() returns trigger
language plpgsql as $$
begin
  if coalesce(current_setting('storage.allow_delete_query', true), '') <> 'true' then
    raise exception 'Direct deletion from storage tables is not allowed. Use the Storage API instead.'
      using errcode = '42501', hint = 'This prevents accidental data loss from orphaned objects.';
  end if;
  return null;
end
$$;

create or replace trigger update_objects_updated_at before update on storage.objects
  for each row execute function storage.update_updated_at_column();
create or replace trigger enforce_bucket_name_length_trigger before insert or update of name on storage.buckets
  for each row execute function storage.enforce_bucket_name_length();
create or replace trigger protect_objects_delete before delete on storage.objects
  for each statement execute function storage.protect_delete();
create or replace trigger protect_buckets_delete before delete on storage.buckets
  for each statement execute function storage.protect_delete();

reset role;

grant all on storage.buckets, storage.objects to anon, authenticated, service_role;
-- 20250623125453_tmp_grant_storage_tables_to_postgres_with_grant_option.sql
grant all on storage.buckets, storage.objects to postgres with grant option;
-- 20250421084701_revoke_admin_roles_from_postgres.sql
revoke all on storage.migrations from anon, authenticated, service_role, postgres;
grant execute on function storage.foldername(text), storage.filename(text), storage.extension(text)
  to anon, authenticated, service_role, postgres;
grant execute on function storage.search(text, text, int, int, int, text, text, text)
  to anon, authenticated, service_role, postgres;
-- The storage service logs in as supabase_storage_admin and runs each request as the caller's role.
grant anon, authenticated, service_role to supabase_storage_admin;
-- 00000000000002-storage-schema.sql ran as postgres before 10000000000000_demote-postgres.sql made it an
-- ordinary role, so on hosted what postgres creates in storage is granted to the API roles too.
alter default privileges for role postgres in schema storage grant all on tables to postgres, anon, authenticated, service_role;
alter default privileges for role postgres in schema storage grant all on functions to postgres, anon, authenticated, service_role;
alter default privileges for role postgres in schema storage grant all on sequences to postgres, anon, authenticated, service_role;
alter default privileges for role supabase_storage_admin in schema storage grant all on tables to postgres, anon, authenticated, service_role;
alter default privileges for role supabase_storage_admin in schema storage grant all on functions to postgres, anon, authenticated, service_role;
alter default privileges for role supabase_storage_admin in schema storage grant all on sequences to postgres, anon, authenticated, service_role;

-- realtime ---------------------------------------------------------------------------------------
create table if not exists realtime.messages (
  topic text not null,
  extension text not null,
  payload jsonb,
  event text,
  private boolean default false,
  updated_at timestamp without time zone not null default now(),
  inserted_at timestamp without time zone not null default now(),
  id uuid not null default gen_random_uuid(),
  primary key (id, inserted_at)
);
-- realtime's 20260514120000_add_binary_payload_to_messages: a broadcast carries JSON or bytes, not both.
alter table realtime.messages add column if not exists binary_payload bytea;
alter table realtime.messages enable row level security;
-- Realtime hands the table to its own admin role (realtime's tenant migration
-- 20231018144023_create_realtime_admin_and_move_ownership); postgres keeps the privileges supabase/postgres
-- 20211130151719_update-realtime-permissions.sql gives it on everything supabase_admin makes there.
alter table realtime.messages owner to supabase_realtime_admin;
grant select, insert, update on realtime.messages to anon, authenticated, service_role;
grant all on realtime.messages to postgres, dashboard_user;

create or replace function realtime.topic() returns text
language sql stable as $$
  select nullif(current_setting('realtime.topic', true), '')::text
$$;
grant execute on function realtime.topic() to anon, authenticated, service_role, postgres;
alter function realtime.topic() owner to supabase_realtime_admin;

create or replace function realtime.send(payload jsonb, event text, topic text, private boolean default true)
returns void
language plpgsql as $$
begin
  insert into realtime.messages (payload, event, topic, private, extension)
  values (payload, event, topic, private, 'broadcast');
exception when others then
  raise warning 'realtime.send: failed to send message: %', sqlerrm;
end
$$;
-- The bytes form of send() (20260603120000_add_send_binary_function).
create or replace function realtime.send_binary(payload bytea, event text, topic text, private boolean default true)
returns void
language plpgsql as $$
begin
  insert into realtime.messages (binary_payload, event, topic, private, extension)
  values (payload, event, topic, private, 'broadcast');
exception when others then
  raise warning 'realtime.send_binary: failed to send message: %', sqlerrm;
end
$$;
grant execute on function realtime.send(jsonb, text, text, boolean), realtime.send_binary(bytea, text, text, boolean)
  to postgres, service_role;
-- Realtime hands its functions to its admin role too (20260707120000_restrict_realtime_schema).
alter function realtime.send(jsonb, text, text, boolean) owner to supabase_realtime_admin;
alter function realtime.send_binary(bytea, text, text, boolean) owner to supabase_realtime_admin;

do $$
begin
  if not exists (select 1 from pg_publication where pubname = 'supabase_realtime') then
    create publication supabase_realtime with (publish = 'insert, update, delete, truncate');
  end if;
end
$$;
-- The image's init scripts run as postgres while it is still a superuser (supabase/cli
-- packages/stack/src/services/postgres-init.ts), so the publication stays postgres's to alter.
alter publication supabase_realtime owner to postgres;

-- PostgREST reloads its schema cache after DDL, as on hosted projects ------------------------------
create or replace function extensions.pgrst_ddl_watch() returns event_trigger
language plpgsql as $$
declare
  cmd record;
begin
  for cmd in select * from pg_event_trigger_ddl_commands() loop
    if cmd.command_tag in (
      'CREATE SCHEMA', 'ALTER SCHEMA', 'CREATE TABLE', 'CREATE TABLE AS', 'SELECT INTO', 'ALTER TABLE',
      'CREATE FOREIGN TABLE', 'ALTER FOREIGN TABLE', 'CREATE VIEW', 'ALTER VIEW', 'CREATE MATERIALIZED VIEW',
      'ALTER MATERIALIZED VIEW', 'CREATE FUNCTION', 'ALTER FUNCTION', 'CREATE TRIGGER', 'CREATE TYPE',
      'ALTER TYPE', 'CREATE RULE', 'COMMENT'
    ) and cmd.schema_name is distinct from 'pg_temp' then
      notify pgrst, 'reload schema';
    end if;
  end loop;
end
$$;

create or replace function extensions.pgrst_drop_watch() returns event_trigger
language plpgsql as $$
declare
  obj record;
begin
  for obj in select * from pg_event_trigger_dropped_objects() loop
    if obj.object_type in (
      'schema', 'table', 'foreign table', 'view', 'materialized view', 'function', 'trigger', 'type', 'rule'
    ) and obj.is_temporary is false then
      notify pgrst, 'reload schema';
    end if;
  end loop;
end
$$;

do $$
begin
  if not exists (select 1 from pg_event_trigger where evtname = 'pgrst_ddl_watch') then
    create event trigger pgrst_ddl_watch on ddl_command_end execute procedure extensions.pgrst_ddl_watch();
  end if;
  if not exists (select 1 from pg_event_trigger where evtname = 'pgrst_drop_watch') then
    create event trigger pgrst_drop_watch on sql_drop execute procedure extensions.pgrst_drop_watch();
  end if;
end
$$;

-- What supautils lets postgres do on platform tables ----------------------------------------------
-- Hosted projects load supautils with `supautils.policy_grants` and `supautils.drop_trigger_grants`
-- both naming, for postgres, the 24 tables below (supabase/postgres
-- ansible/files/postgresql_config/conf.d/supautils.conf): CREATE/ALTER/DROP POLICY and DROP TRIGGER
-- on them run as if postgres owned them, and nothing else does. This PostgreSQL has no supautils, so
-- an event trigger stands in: at the start of one of those four commands issued by postgres it grants
-- postgres the owner roles of the listed tables, and when the command ends (or drops its object) it
-- revokes them and refuses the command if its table was not on the list. Both happen inside the
-- statement's transaction, so no other session ever sees the grant. CREATE TRIGGER needs no help:
-- postgres holds TRIGGER on the auth tables (10000000000000_demote-postgres.sql).
create schema if not exists supautils_local authorization supabase_admin;
revoke all on schema supautils_local from public;

create or replace function supautils_local.granted_tables() returns text[]
language sql immutable set search_path = '' as $$
  select array[
    'auth.audit_log_entries', 'auth.flow_state', 'auth.identities', 'auth.instances', 'auth.mfa_amr_claims',
    'auth.mfa_challenges', 'auth.mfa_factors', 'auth.oauth_clients', 'auth.one_time_tokens',
    'auth.refresh_tokens', 'auth.saml_providers', 'auth.saml_relay_states', 'auth.sessions',
    'auth.sso_domains', 'auth.sso_providers', 'auth.users', 'realtime.messages', 'realtime.subscription',
    'storage.buckets', 'storage.buckets_analytics', 'storage.objects', 'storage.prefixes',
    'storage.s3_multipart_uploads', 'storage.s3_multipart_uploads_parts'
  ]
$$;

create or replace function supautils_local.lend_ownership() returns event_trigger
language plpgsql security definer set search_path = '' as $$
declare
  lent text[] := '{}';
  owner_role text;
begin
  if session_user <> 'postgres' or tg_tag not in ('CREATE POLICY', 'ALTER POLICY', 'DROP POLICY', 'DROP TRIGGER')
     or coalesce(current_setting('supautils_local.lent', true), '') <> '' then
    return;
  end if;
  for owner_role in
    select distinct r.rolname
      from unnest(supautils_local.granted_tables()) as t(name)
      join pg_catalog.pg_class c on c.oid = pg_catalog.to_regclass(t.name)
      join pg_catalog.pg_roles r on r.oid = c.relowner
     where not r.rolsuper and not pg_catalog.pg_has_role('postgres', r.oid, 'USAGE')
  loop
    execute format('grant %I to postgres', owner_role);
    lent := lent || owner_role;
  end loop;
  perform pg_catalog.set_config('supautils_local.lent', array_to_string(lent, ','), true);
end
$$;

-- Takes the lent roles back; then `tables` (schema-qualified, as regclass text) must each be on the
-- list or belong to a role postgres had without the loan, else PostgreSQL's own refusal is raised.
create or replace function supautils_local.settle(tables regclass[], what text) returns void
language plpgsql security definer set search_path = '' as $$
declare
  lent text[] := string_to_array(coalesce(current_setting('supautils_local.lent', true), ''), ',');
  owner_role text;
  t regclass;
begin
  if cardinality(lent) = 0 then
    return;
  end if;
  foreach owner_role in array lent loop
    execute format('revoke %I from postgres', owner_role);
  end loop;
  perform pg_catalog.set_config('supautils_local.lent', '', true);
  foreach t in array tables loop
    if not (t::text = any(supautils_local.granted_tables()))
       and (select r.rolname from pg_catalog.pg_class c join pg_catalog.pg_roles r on r.oid = c.relowner
             where c.oid = t) = any(lent) then
      raise exception 'must be owner of % %', what, (select relname from pg_catalog.pg_class where oid = t)
        using errcode = '42501',
              hint = 'Hosted Supabase refuses this too: supautils lets postgres manage policies and drop '
                     'triggers only on the platform tables in supabase/postgres conf.d/supautils.conf.';
    end if;
  end loop;
end
$$;

create or replace function supautils_local.settle_command() returns event_trigger
language plpgsql security definer set search_path = '' as $$
begin
  perform supautils_local.settle(
    array(select p.polrelid::regclass
            from pg_catalog.pg_event_trigger_ddl_commands() as cmd
            join pg_catalog.pg_policy p on p.oid = cmd.objid
           where cmd.object_type = 'policy'),
    'table');
end
$$;

create or replace function supautils_local.settle_drop() returns event_trigger
language plpgsql security definer set search_path = '' as $$
begin
  if tg_tag not in ('DROP POLICY', 'DROP TRIGGER') then
    return;
  end if;
  perform supautils_local.settle(
    array(select pg_catalog.to_regclass(format('%I.%I', d.address_names[1], d.address_names[2]))
            from pg_catalog.pg_event_trigger_dropped_objects() as d
           where d.object_type in ('policy', 'trigger')),
    case tg_tag when 'DROP TRIGGER' then 'relation' else 'table' end);
end
$$;

revoke all on function supautils_local.granted_tables(), supautils_local.lend_ownership(),
  supautils_local.settle(regclass[], text), supautils_local.settle_command(), supautils_local.settle_drop()
  from public;

do $$
begin
  if not exists (select 1 from pg_event_trigger where evtname = 'supautils_local_lend') then
    create event trigger supautils_local_lend on ddl_command_start
      when tag in ('CREATE POLICY', 'ALTER POLICY', 'DROP POLICY', 'DROP TRIGGER')
      execute function supautils_local.lend_ownership();
  end if;
  if not exists (select 1 from pg_event_trigger where evtname = 'supautils_local_settle_drop') then
    create event trigger supautils_local_settle_drop on sql_drop
      when tag in ('DROP POLICY', 'DROP TRIGGER')
      execute function supautils_local.settle_drop();
  end if;
  if not exists (select 1 from pg_event_trigger where evtname = 'supautils_local_settle') then
    create event trigger supautils_local_settle on ddl_command_end
      when tag in ('CREATE POLICY', 'ALTER POLICY', 'DROP POLICY', 'DROP TRIGGER')
      execute function supautils_local.settle_command();
  end if;
end
$$;

-- safeupdate in PostgREST's sessions ---------------------------------------------------------------
-- Hosted preloads safeupdate for authenticator (supabase/postgres 20220224211803_fix-postgrest-
-- supautils.sql: session_preload_libraries = supautils, safeupdate), so an UPDATE or DELETE without
-- a WHERE clause sent through the REST API fails with SQLSTATE 21000, "DELETE requires a WHERE
-- clause" (eradman/pg-safeupdate), unless `safeupdate.enabled` is off. It is a C module this
-- PostgreSQL lacks. A statement trigger on each table outside the platform schemas stands in: in a
-- session authenticator logged in to, it reads the statement PostgREST sent (current_query()) and
-- refuses it the same way when the UPDATE or DELETE in it has no WHERE. It judges only the statement
-- PostgREST wrote; one inside a function that an RPC call runs is not checked here (safeupdate checks
-- those too).

-- Whether the first INSERT, UPDATE or DELETE in `query` has a WHERE at its own nesting level: true,
-- false, or null when there is no UPDATE or DELETE to judge (an INSERT … ON CONFLICT DO UPDATE, a
-- SELECT calling a function). Quoted identifiers and string literals are skipped.
create or replace function supautils_local.dml_has_where(query text) returns boolean
language plpgsql immutable set search_path = '' as $$
declare
  i int := 1;
  n int := length(query);
  c text;
  depth int := 0;
  found_depth int;
  word text;
  close_at int;
begin
  while i <= n loop
    c := substr(query, i, 1);
    if c = '"' or c = '''' then
      close_at := i;
      loop
        close_at := strpos(substr(query, close_at + 1), c) + close_at;
        exit when close_at = i or substr(query, close_at + 1, 1) <> c;
        close_at := close_at + 1; -- a doubled quote inside the quoted text
      end loop;
      if close_at = i then
        return null;
      end if;
      i := close_at + 1;
      continue;
    elsif c = '(' then
      depth := depth + 1;
    elsif c = ')' then
      depth := depth - 1;
      if found_depth is not null and depth < found_depth then
        return false;
      end if;
    elsif c ~ '[A-Za-z_]' and (i = 1 or substr(query, i - 1, 1) !~ '[A-Za-z0-9_$.]') then
      word := upper(substring(substr(query, i) from '^[A-Za-z_][A-Za-z0-9_$]*'));
      if found_depth is null then
        if word = 'INSERT' then
          return null;
        elsif word in ('UPDATE', 'DELETE') then
          found_depth := depth;
        end if;
      elsif depth = found_depth and word = 'WHERE' then
        return true;
      elsif depth = found_depth and word = 'RETURNING' then
        return false;
      end if;
      i := i + length(word);
      continue;
    end if;
    i := i + 1;
  end loop;
  return case when found_depth is null then null else false end;
end
$$;

create or replace function supautils_local.safeupdate() returns trigger
language plpgsql security definer set search_path = '' as $$
begin
  if session_user = 'authenticator' and pg_catalog.pg_trigger_depth() = 1
     and coalesce(nullif(pg_catalog.current_setting('safeupdate.enabled', true), ''), 'on')
         not in ('off', 'false', '0', 'no')
     and supautils_local.dml_has_where(pg_catalog.current_query()) is false then
    raise exception '% requires a WHERE clause', tg_op using errcode = '21000';
  end if;
  return null;
end
$$;

-- Every table that is not the platform's or an extension's gets the trigger, now and when made.
create or replace function supautils_local.watch_table(tab regclass) returns void
language plpgsql security definer set search_path = '' as $$
begin
  if (select c.relkind in ('r', 'p') and n.nspname not in (
            'pg_catalog', 'information_schema', 'auth', 'storage', 'realtime', 'extensions',
            'supautils_local', 'supabase_migrations', 'graphql', 'graphql_public', 'pgbouncer', 'vault')
            and n.nspname not like 'pg\_%'
        from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
       where c.oid = tab)
     and not exists (select 1 from pg_catalog.pg_trigger
                      where tgrelid = tab and tgname = 'supautils_local_safeupdate') then
    execute format(
      'create trigger supautils_local_safeupdate before update or delete on %s
         for each statement execute function supautils_local.safeupdate()', tab);
  end if;
end
$$;

create or replace function supautils_local.watch_new_tables() returns event_trigger
language plpgsql security definer set search_path = '' as $$
declare
  cmd record;
begin
  for cmd in select objid from pg_catalog.pg_event_trigger_ddl_commands()
              where object_type = 'table' and command_tag in ('CREATE TABLE', 'CREATE TABLE AS', 'SELECT INTO')
  loop
    perform supautils_local.watch_table(cmd.objid::regclass);
  end loop;
end
$$;

revoke all on function supautils_local.dml_has_where(text), supautils_local.safeupdate(),
  supautils_local.watch_table(regclass), supautils_local.watch_new_tables() from public;

do $$
declare
  tab regclass;
begin
  if not exists (select 1 from pg_event_trigger where evtname = 'supautils_local_safeupdate') then
    create event trigger supautils_local_safeupdate on ddl_command_end
      when tag in ('CREATE TABLE', 'CREATE TABLE AS', 'SELECT INTO')
      execute function supautils_local.watch_new_tables();
  end if;
  for tab in select c.oid::regclass from pg_catalog.pg_class c where c.relkind in ('r', 'p') loop
    perform supautils_local.watch_table(tab);
  end loop;
end
$$;
