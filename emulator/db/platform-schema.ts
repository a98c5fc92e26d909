// What a hosted project's auth, storage and realtime schemas look like to an app, written here from
// reading the upstream migrations (not copied from them). platform-schema.contract.test.ts compares the
// local database against it; each difference must be listed in emulator/README.md.
//
// Sources, read at these versions:
// - supabase/postgres migrations/db: init-scripts/00000000000001-auth-schema.sql and
//   00000000000002-storage-schema.sql (schema owners, the first tables), migrations/
//   10000000000000_demote-postgres.sql, 20211115181400_update-auth-permissions.sql and
//   20211130151719_update-realtime-permissions.sql (postgres's default privileges),
//   20250421084701_revoke_admin_roles_from_postgres.sql, 20250623125453_tmp_grant_storage_tables_to_postgres_with_grant_option.sql;
// - supabase/auth migrations/ (bc32168, 2026-08-20): 00_init_auth_schema through 20260625000000;
// - supabase/storage migrations/tenant/ (4fa61fb, 2026-08-21): 0001 through 0063;
// - supabase/realtime lib/realtime/tenants/repo/migrations/ (833cf36, 2026-08-21), in particular
//   20241030150047_messages_partitioning, 20260514120000_add_binary_payload_to_messages and
//   20260707120000_restrict_realtime_schema (owners).

export interface Column {
  type: string;
  nullable: boolean;
  /** As PostgreSQL prints it (`pg_get_expr` of the default); null for none or a generated column. */
  default: string | null;
  /** A stored generated column (GoTrue's confirmed_at and email, storage-api's path_tokens). */
  generated?: boolean;
}

export type Privilege = 'SELECT' | 'INSERT' | 'UPDATE' | 'DELETE' | 'TRUNCATE' | 'REFERENCES' | 'TRIGGER';

export interface Trigger {
  timing: 'BEFORE' | 'AFTER';
  events: Array<'INSERT' | 'UPDATE' | 'DELETE' | 'TRUNCATE'>;
  /** UPDATE OF these columns only. */
  of?: string[];
  level: 'ROW' | 'STATEMENT';
  /** schema.name of the trigger function. */
  function: string;
}

export interface Table {
  owner: string;
  rls: boolean;
  /** Partitioned upstream (realtime.messages, by day). */
  partitioned?: boolean;
  /** Every column, for the tables the local backend has; tables it lacks give owner and RLS only. */
  columns?: Record<string, Column>;
  /** What each API role and postgres may do, as `has_table_privilege` answers. */
  privileges?: Record<Role, Privilege[]>;
  /** What postgres may grant on to others (`… with grant option`). */
  grantable?: Privilege[];
  triggers?: Record<string, Trigger>;
}

export type Role = 'postgres' | 'anon' | 'authenticated' | 'service_role';
export const roles: Role[] = ['postgres', 'anon', 'authenticated', 'service_role'];
export const privilegeNames: Privilege[] = [
  'SELECT',
  'INSERT',
  'UPDATE',
  'DELETE',
  'TRUNCATE',
  'REFERENCES',
  'TRIGGER',
];

export interface Function {
  /** What `pg_get_function_result` prints. */
  returns: string;
  owner: string;
  securityDefiner: boolean;
  /** Roles that may call it (`has_function_privilege … EXECUTE`); PUBLIC keeps EXECUTE upstream. */
  execute: Role[];
}

const col = (type: string, nullable = true, dflt: string | null = null): Column => ({
  type,
  nullable,
  default: dflt,
});
const generated = (type: string): Column => ({ type, nullable: true, default: null, generated: true });
const varchar = 'character varying(255)';
const tz = 'timestamp with time zone';
const ts = 'timestamp without time zone';
const ALL: Privilege[] = [...privilegeNames];
const NONE: Privilege[] = [];
const everyone: Role[] = [...roles];

// GoTrue creates its tables as supabase_auth_admin, whose default privileges in auth give postgres
// ALL (20211115181400_update-auth-permissions.sql); 20240612123726_enable_rls_update_grants.up.sql turns
// RLS on with no policy and lets postgres grant SELECT on. The API roles get nothing.
const authTable = (columns: Record<string, Column>): Table => ({
  owner: 'supabase_auth_admin',
  rls: true,
  columns,
  privileges: { postgres: ALL, anon: NONE, authenticated: NONE, service_role: NONE },
  grantable: ['SELECT'],
});

export const schemaOwners: Record<string, string> = {
  auth: 'supabase_admin',
  storage: 'supabase_admin',
  realtime: 'supabase_admin',
};

/** Every table a hosted project has in these schemas. */
export const tables: Record<string, Table> = {
  // 00_init_auth_schema.up.sql
  'auth.instances': authTable({
    id: col('uuid', false),
    uuid: col('uuid'),
    raw_base_config: col('text'),
    created_at: col(tz),
    updated_at: col(tz),
  }),
  // 00_init_auth_schema (confirmed_at renamed email_confirmed_at, email_change_token renamed
  // email_change_token_new: 20210710035447, 20210730183235); phone columns 20210710035447, typed text by
  // 20230116124310 (phone_change keeps the varchar default it was given); confirmed_at 20210722035447;
  // email_change_token_current and email_change_confirm_status 20210730183235; banned_until
  // 20220114185340; reauthentication_* 20220323170000; is_sso_user 20221215195500; deleted_at
  // 20230116124412; is_anonymous 20240214120130.
  'auth.users': authTable({
    instance_id: col('uuid'),
    id: col('uuid', false),
    aud: col(varchar),
    role: col(varchar),
    email: col(varchar),
    encrypted_password: col(varchar),
    email_confirmed_at: col(tz),
    invited_at: col(tz),
    confirmation_token: col(varchar),
    confirmation_sent_at: col(tz),
    recovery_token: col(varchar),
    recovery_sent_at: col(tz),
    email_change_token_new: col(varchar),
    email_change: col(varchar),
    email_change_sent_at: col(tz),
    last_sign_in_at: col(tz),
    raw_app_meta_data: col('jsonb'),
    raw_user_meta_data: col('jsonb'),
    is_super_admin: col('boolean'),
    created_at: col(tz),
    updated_at: col(tz),
    phone: col('text'),
    phone_confirmed_at: col(tz),
    phone_change: col('text', true, "''::character varying"),
    phone_change_token: col(varchar, true, "''::character varying"),
    phone_change_sent_at: col(tz),
    confirmed_at: generated(tz),
    email_change_token_current: col(varchar, true, "''::character varying"),
    email_change_confirm_status: col('smallint', true, '0'),
    banned_until: col(tz),
    reauthentication_token: col(varchar, true, "''::character varying"),
    reauthentication_sent_at: col(tz),
    is_sso_user: col('boolean', false, 'false'),
    deleted_at: col(tz),
    is_anonymous: col('boolean', false, 'false'),
  }),
  // 00_init_auth_schema; parent 20210927181326; session_id 20220811173540.
  'auth.refresh_tokens': authTable({
    instance_id: col('uuid'),
    id: col('bigint', false, "nextval('auth.refresh_tokens_id_seq'::regclass)"),
    token: col(varchar),
    user_id: col(varchar),
    revoked: col('boolean'),
    created_at: col(tz),
    updated_at: col(tz),
    parent: col(varchar),
    session_id: col('uuid'),
  }),
  // 00_init_auth_schema; ip_address 20220614074223.
  'auth.audit_log_entries': authTable({
    instance_id: col('uuid'),
    id: col('uuid', false),
    payload: col('json'),
    created_at: col(tz),
    ip_address: col('character varying(64)', false, "''::character varying"),
  }),
  // 20210909172000; email 20221215195800; the old text id renamed provider_id and a uuid id added
  // in 20231117164230.
  'auth.identities': authTable({
    provider_id: col('text', false),
    user_id: col('uuid', false),
    identity_data: col('jsonb', false),
    provider: col('text', false),
    last_sign_in_at: col(tz),
    created_at: col(tz),
    updated_at: col(tz),
    email: generated('text'),
    id: col('uuid', false, 'gen_random_uuid()'),
  }),
  // 20220811173540; factor_id and aal 20221003041400; not_after 20221114143122; refreshed_at, user_agent
  // and ip 20231027141322; tag 20231114161723; oauth_client_id 20250904133000; refresh_token_hmac_key and
  // refresh_token_counter 20251007112900; scopes 20251111201300.
  'auth.sessions': authTable({
    id: col('uuid', false),
    user_id: col('uuid', false),
    created_at: col(tz),
    updated_at: col(tz),
    factor_id: col('uuid'),
    aal: col('auth.aal_level'),
    not_after: col(tz),
    refreshed_at: col(ts),
    user_agent: col('text'),
    ip: col('inet'),
    tag: col('text'),
    oauth_client_id: col('uuid'),
    refresh_token_hmac_key: col('text'),
    refresh_token_counter: col('bigint'),
    scopes: col('text'),
  }),
  // 20221003041349; phone 20240729123726; last_challenged_at 20240802193726; web_authn_* 20241009103726;
  // last_webauthn_challenge_data 20250925093508.
  'auth.mfa_factors': authTable({
    id: col('uuid', false),
    user_id: col('uuid', false),
    friendly_name: col('text'),
    factor_type: col('auth.factor_type', false),
    status: col('auth.factor_status', false),
    created_at: col(tz, false),
    updated_at: col(tz, false),
    secret: col('text'),
    phone: col('text'),
    last_challenged_at: col(tz),
    web_authn_credential: col('jsonb'),
    web_authn_aaguid: col('uuid'),
    last_webauthn_challenge_data: col('jsonb'),
  }),
  // 20221003041349; otp_code 20240729123726; web_authn_session_data 20241009103726.
  'auth.mfa_challenges': authTable({
    id: col('uuid', false),
    factor_id: col('uuid', false),
    created_at: col(tz, false),
    verified_at: col(tz),
    ip_address: col('inet', false),
    otp_code: col('text'),
    web_authn_session_data: col('jsonb'),
  }),
  // 20221003041349; id 20221011041400.
  'auth.mfa_amr_claims': authTable({
    session_id: col('uuid', false),
    created_at: col(tz, false),
    updated_at: col(tz, false),
    authentication_method: col('text', false),
    id: col('uuid', false),
  }),
  // 20230322519590; authentication_method 20230402418590; auth_code_issued_at 20240306115329; the
  // columns from invite_token on, and the PKCE columns made nullable, 20260115000000.
  'auth.flow_state': authTable({
    id: col('uuid', false),
    user_id: col('uuid'),
    auth_code: col('text'),
    code_challenge_method: col('auth.code_challenge_method'),
    code_challenge: col('text'),
    provider_type: col('text', false),
    provider_access_token: col('text'),
    provider_refresh_token: col('text'),
    created_at: col(tz),
    updated_at: col(tz),
    authentication_method: col('text', false),
    auth_code_issued_at: col(tz),
    invite_token: col('text'),
    referrer: col('text'),
    oauth_client_state_id: col('uuid'),
    linking_target_id: col('uuid'),
    email_optional: col('boolean', false, 'false'),
  }),
  // 20240427152123
  'auth.one_time_tokens': authTable({
    id: col('uuid', false),
    user_id: col('uuid', false),
    token_type: col('auth.one_time_token_type', false),
    token_hash: col('text', false),
    relates_to: col('text', false),
    created_at: col(ts, false, 'now()'),
    updated_at: col(ts, false, 'now()'),
  }),
  // Tables for what the local auth server does not offer (SSO/SAML 20221021082433, OAuth server
  // 20250731150234 onwards, custom providers 20260219120000, passkeys 20260302000000) and GoTrue's own
  // migration ledger: owner and RLS only.
  ...Object.fromEntries(
    [
      'schema_migrations',
      'sso_providers',
      'sso_domains',
      'saml_providers',
      'saml_relay_states',
      'oauth_clients',
      'oauth_authorizations',
      'oauth_consents',
      'oauth_client_states',
      'custom_oauth_providers',
      'webauthn_credentials',
      'webauthn_challenges',
    ].map((name): [string, Table] => [`auth.${name}`, { owner: 'supabase_auth_admin', rls: true }]),
  ),

  // storage-api: its tables belong to supabase_storage_admin. The API roles and postgres hold ALL on
  // buckets and objects, postgres with grant option (tenant/0046-buckets-objects-grants.sql,
  // 0049-buckets-objects-grants-postgres.sql).
  // 00000000000002-storage-schema.sql; public 0008; avif_autodetection 0012; file_size_limit and
  // allowed_mime_types 0013/0014; owner_id 0018; type 0038 (its enum gains VECTOR in 0044);
  // versioning_status 0062. Triggers: 0037 (name length) and 0055 (deletes only through the API).
  'storage.buckets': {
    owner: 'supabase_storage_admin',
    rls: true,
    privileges: { postgres: ALL, anon: ALL, authenticated: ALL, service_role: ALL },
    grantable: ALL,
    triggers: {
      enforce_bucket_name_length_trigger: {
        timing: 'BEFORE',
        events: ['INSERT', 'UPDATE'],
        of: ['name'],
        level: 'ROW',
        function: 'storage.enforce_bucket_name_length',
      },
      protect_buckets_delete: {
        timing: 'BEFORE',
        events: ['DELETE'],
        level: 'STATEMENT',
        function: 'storage.protect_delete',
      },
    },
    columns: {
      id: col('text', false),
      name: col('text', false),
      owner: col('uuid'),
      created_at: col(tz, true, 'now()'),
      updated_at: col(tz, true, 'now()'),
      public: col('boolean', true, 'false'),
      avif_autodetection: col('boolean', true, 'false'),
      file_size_limit: col('bigint'),
      allowed_mime_types: col('text[]'),
      owner_id: col('text'),
      type: col('storage.buckettype', false, "'STANDARD'::storage.buckettype"),
      versioning_status: col('text', false, "'DISABLED'::text"),
    },
  },
  // 00000000000002-storage-schema.sql; path_tokens 0003; version 0016; owner_id 0018; id's default
  // 0019; user_metadata 0025; level 0026, dropped again with the prefixes in 0052; archived_at,
  // is_delete_marker and is_versioned 0062. Triggers: 0011 (updated_at) and 0055.
  'storage.objects': {
    owner: 'supabase_storage_admin',
    rls: true,
    privileges: { postgres: ALL, anon: ALL, authenticated: ALL, service_role: ALL },
    grantable: ALL,
    triggers: {
      update_objects_updated_at: {
        timing: 'BEFORE',
        events: ['UPDATE'],
        level: 'ROW',
        function: 'storage.update_updated_at_column',
      },
      protect_objects_delete: {
        timing: 'BEFORE',
        events: ['DELETE'],
        level: 'STATEMENT',
        function: 'storage.protect_delete',
      },
    },
    columns: {
      id: col('uuid', false, 'gen_random_uuid()'),
      bucket_id: col('text'),
      name: col('text'),
      owner: col('uuid'),
      created_at: col(tz, true, 'now()'),
      updated_at: col(tz, true, 'now()'),
      last_accessed_at: col(tz, true, 'now()'),
      metadata: col('jsonb'),
      path_tokens: generated('text[]'),
      version: col('text'),
      owner_id: col('text'),
      user_metadata: col('jsonb'),
      archived_at: col(tz),
      is_delete_marker: col('boolean', false, 'false'),
      is_versioned: col('boolean', false, 'false'),
    },
  },
  // 00000000000002-storage-schema.sql; RLS since tenant/0004. 20250421084701 revokes every grant;
  // postgres still reads it through pg_read_all_data (20240606060239_grant_predefined_roles_to_postgres.sql).
  'storage.migrations': {
    owner: 'supabase_storage_admin',
    rls: true,
    privileges: { postgres: ['SELECT'], anon: NONE, authenticated: NONE, service_role: NONE },
    columns: {
      id: col('integer', false),
      name: col('character varying(100)', false),
      hash: col('character varying(40)', false),
      executed_at: col(ts, true, 'CURRENT_TIMESTAMP'),
    },
  },
  // S3 multipart uploads (0021), analytics buckets (0038), vector buckets (0045). The prefixes table of
  // 0026 is gone since 0052; the iceberg tables of 0038 are made only where storage is single-tenant.
  ...Object.fromEntries(
    [
      's3_multipart_uploads',
      's3_multipart_uploads_parts',
      'buckets_analytics',
      'buckets_vectors',
      'vector_indexes',
    ].map((name): [string, Table] => [`storage.${name}`, { owner: 'supabase_storage_admin', rls: true }]),
  ),

  // Realtime's migrations run as supabase_admin, whose default privileges in realtime give postgres ALL
  // (20211130151719_update-realtime-permissions.sql); messages_partitioning grants the API roles SELECT,
  // INSERT and UPDATE; restrict_realtime_schema hands messages and subscription to supabase_realtime_admin.
  // Columns: messages_partitioning (id replaced by a uuid in 20241108114728_messages_using_uuid),
  // binary_payload 20260514120000.
  'realtime.messages': {
    owner: 'supabase_realtime_admin',
    rls: true,
    partitioned: true,
    privileges: {
      postgres: ALL,
      anon: ['SELECT', 'INSERT', 'UPDATE'],
      authenticated: ['SELECT', 'INSERT', 'UPDATE'],
      service_role: ['SELECT', 'INSERT', 'UPDATE'],
    },
    columns: {
      topic: col('text', false),
      extension: col('text', false),
      payload: col('jsonb'),
      event: col('text'),
      private: col('boolean', true, 'false'),
      updated_at: col(ts, false, 'now()'),
      inserted_at: col(ts, false, 'now()'),
      id: col('uuid', false, 'gen_random_uuid()'),
      binary_payload: col('bytea'),
    },
  },
  'realtime.subscription': { owner: 'supabase_realtime_admin', rls: false },
  'realtime.schema_migrations': { owner: 'supabase_admin', rls: false },
};

const fn = (returns: string, owner: string, securityDefiner = false): Function => ({
  returns,
  owner,
  securityDefiner,
  execute: everyone,
});
const searchResult =
  'TABLE(name text, id uuid, updated_at timestamp with time zone, created_at timestamp with time zone, last_accessed_at timestamp with time zone, metadata jsonb)';
const keyedResult =
  'TABLE(key text, name text, id uuid, updated_at timestamp with time zone, created_at timestamp with time zone, last_accessed_at timestamp with time zone, metadata jsonb)';

/**
 * Every function in the three schemas, by `schema.name(identity arguments)`. None is security definer
 * and none has EXECUTE revoked from PUBLIC, so every role may call every one.
 */
export const functions: Record<string, Function> = {
  // auth: 00_init_auth_schema, redefined in 20220224000811; jwt() 20220531120530. Owned by
  // supabase_auth_admin (20211124212715_update-auth-owner.sql; GoTrue makes them as that role).
  'auth.uid()': fn('uuid', 'supabase_auth_admin'),
  'auth.role()': fn('text', 'supabase_auth_admin'),
  'auth.email()': fn('text', 'supabase_auth_admin'),
  'auth.jwt()': fn('jsonb', 'supabase_auth_admin'),

  // storage: path helpers (00000000000002-storage-schema.sql, last redefined in tenant/0060 and 0061).
  'storage.foldername(name text)': fn('text[]', 'supabase_storage_admin'),
  'storage.filename(name text)': fn('text', 'supabase_storage_admin'),
  'storage.extension(name text)': fn('text', 'supabase_storage_admin'),
  // The list endpoint's query (last redefined in tenant/0063).
  'storage.search(prefix text, bucketname text, limits integer, levels integer, offsets integer, search text, sortcolumn text, sortorder text)':
    fn(searchResult, 'supabase_storage_admin'),
  // tenant/0060 (first in 0005).
  'storage.get_size_by_bucket()': fn('TABLE(size bigint, bucket_id text)', 'supabase_storage_admin'),
  // Policy helpers: tenant/0024 and 0058.
  'storage.operation()': fn('text', 'supabase_storage_admin'),
  'storage.allow_only_operation(expected_operation text)': fn('boolean', 'supabase_storage_admin'),
  'storage.allow_any_operation(expected_operations text[])': fn('boolean', 'supabase_storage_admin'),
  // Trigger functions: 0011, 0037, 0055.
  'storage.update_updated_at_column()': fn('trigger', 'supabase_storage_admin'),
  'storage.enforce_bucket_name_length()': fn('trigger', 'supabase_storage_admin'),
  'storage.protect_delete()': fn('trigger', 'supabase_storage_admin'),
  // storage-api's own queries: upload checks (0015), S3 listings (0021, 0050), list v2 (0050).
  'storage.can_insert_object(bucketid text, name text, owner uuid, metadata jsonb)': fn(
    'void',
    'supabase_storage_admin',
  ),
  'storage.list_multipart_uploads_with_delimiter(bucket_id text, prefix_param text, delimiter_param text, max_keys integer, next_key_token text, next_upload_token text)':
    fn('TABLE(key text, id text, created_at timestamp with time zone)', 'supabase_storage_admin'),
  'storage.list_objects_with_delimiter(_bucket_id text, prefix_param text, delimiter_param text, max_keys integer, start_after text, next_token text, sort_order text)':
    fn(
      'TABLE(name text, id uuid, metadata jsonb, updated_at timestamp with time zone, created_at timestamp with time zone, last_accessed_at timestamp with time zone)',
      'supabase_storage_admin',
    ),
  'storage.get_common_prefix(p_key text, p_prefix text, p_delimiter text)': fn(
    'text',
    'supabase_storage_admin',
  ),
  'storage.search_v2(prefix text, bucket_name text, limits integer, levels integer, start_after text, sort_order text, sort_column text, sort_column_after text)':
    fn(keyedResult, 'supabase_storage_admin'),
  'storage.search_by_timestamp(p_prefix text, p_bucket_id text, p_limit integer, p_level integer, p_start_after text, p_sort_order text, p_sort_column text, p_sort_column_after text)':
    fn(keyedResult, 'supabase_storage_admin'),

  // realtime: owners from 20260707120000_restrict_realtime_schema. topic() for broadcast/presence
  // policies (20240523004032), send() and send_binary() for broadcasts from SQL, broadcast_changes()
  // for triggers that broadcast row changes.
  'realtime.topic()': fn('text', 'supabase_realtime_admin'),
  'realtime.send(payload jsonb, event text, topic text, private boolean)': fn(
    'void',
    'supabase_realtime_admin',
  ),
  'realtime.send_binary(payload bytea, event text, topic text, private boolean)': fn(
    'void',
    'supabase_realtime_admin',
  ),
  'realtime.broadcast_changes(topic_name text, event_name text, operation text, table_name text, table_schema text, new record, old record, level text)':
    fn('void', 'supabase_realtime_admin'),
  // What realtime's server calls for postgres_changes (the WALRUS functions) and its subscription trigger.
  'realtime.apply_rls(wal jsonb, max_record_bytes integer)': fn(
    'SETOF realtime.wal_rls',
    'supabase_realtime_admin',
  ),
  'realtime.list_changes(publication name, slot_name name, max_changes integer, max_record_bytes integer)':
    fn(
      'TABLE(wal jsonb, is_rls_enabled boolean, subscription_ids uuid[], errors text[], slot_changes_count bigint)',
      'supabase_realtime_admin',
    ),
  'realtime.quote_wal2json(entity regclass)': fn('text', 'supabase_realtime_admin'),
  'realtime.wal2json_escape_identifier(name text)': fn('text', 'supabase_realtime_admin'),
  'realtime.subscription_check_filters()': fn('trigger', 'supabase_realtime_admin'),
  'realtime.to_regrole(role_name text)': fn('regrole', 'supabase_realtime_admin'),
  'realtime.build_prepared_statement_sql(prepared_statement_name text, entity regclass, columns realtime.wal_column[])':
    fn('text', 'supabase_realtime_admin'),
  'realtime."cast"(val text, type_ regtype)': fn('jsonb', 'supabase_realtime_admin'),
  'realtime.check_equality_op(op realtime.equality_op, type_ regtype, val_1 text, val_2 text)': fn(
    'boolean',
    'supabase_realtime_admin',
  ),
  'realtime.check_equality_op(op realtime.equality_op, type_ regtype, val_1 text, val_2 text, negate boolean)':
    fn('boolean', 'supabase_realtime_admin'),
  'realtime.is_visible_through_filters(columns realtime.wal_column[], filters realtime.user_defined_filter[])':
    fn('boolean', 'supabase_realtime_admin'),
};

/** What storage.extension() answers upstream (tenant/0060-optimize-existing-functions-again.sql). */
export const extensionExamples: Array<[string, string]> = [
  ['a.tar.gz', 'gz'],
  ['README', 'README'],
  ['folder/photo.png', 'png'],
];
