// What a hosted project's auth, storage and realtime schemas look like to an app, written here from
// reading the upstream migrations (not copied from them): supabase/postgres migrations/db
// (schema owners, postgres's grants), supabase/auth migrations/ (auth tables, RLS in
// 20240612123726_enable_rls_update_grants.up.sql), supabase/storage migrations/tenant/ (storage tables,
// functions, triggers) and realtime's tenant migrations (realtime.messages). platform-schema.contract.test.ts
// compares the local database against it; each difference must be listed in emulator/README.md.

export interface Column {
  type: string;
  nullable: boolean;
  /** As PostgreSQL prints it (`information_schema.columns.column_default`); null for none. */
  default: string | null;
}

export interface Table {
  owner: string;
  rls: boolean;
  /** Columns an app can read or write; only tables described column by column list them. */
  columns?: Record<string, Column>;
  /** Privileges per role, as `has_table_privilege` answers for SELECT/INSERT/UPDATE/DELETE/TRIGGER. */
  privileges?: Record<string, string[]>;
  triggers?: string[];
}

const col = (type: string, nullable = true, dflt: string | null = null): Column => ({
  type,
  nullable,
  default: dflt,
});
const varchar = 'character varying(255)';
const tz = 'timestamp with time zone';
const ALL = ['SELECT', 'INSERT', 'UPDATE', 'DELETE', 'TRIGGER'];

export const schemaOwners: Record<string, string> = {
  auth: 'supabase_admin',
  storage: 'supabase_admin',
  realtime: 'supabase_admin',
};

/** Every table a hosted project has in these schemas. */
export const tables: Record<string, Table> = {
  // GoTrue: every table owned by supabase_auth_admin with RLS on and no policies; postgres holds ALL
  // on each (20211115181400_update-auth-permissions.sql and the default privileges there).
  'auth.users': {
    owner: 'supabase_auth_admin',
    rls: true,
    privileges: { postgres: ALL, anon: [], authenticated: [], service_role: [] },
    columns: {
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
      phone_change: col('text', true, "''::text"),
      phone_change_token: col(varchar, true, "''::character varying"),
      phone_change_sent_at: col(tz),
      confirmed_at: col(tz),
      email_change_token_current: col(varchar, true, "''::character varying"),
      email_change_confirm_status: col('smallint', true, '0'),
      banned_until: col(tz),
      reauthentication_token: col(varchar, true, "''::character varying"),
      reauthentication_sent_at: col(tz),
      is_sso_user: col('boolean', false, 'false'),
      deleted_at: col(tz),
      is_anonymous: col('boolean', false, 'false'),
    },
  },
  ...Object.fromEntries(
    [
      'instances',
      'audit_log_entries',
      'refresh_tokens',
      'schema_migrations',
      'identities',
      'sessions',
      'mfa_factors',
      'mfa_challenges',
      'mfa_amr_claims',
      'sso_providers',
      'sso_domains',
      'saml_providers',
      'saml_relay_states',
      'flow_state',
      'one_time_tokens',
      'oauth_clients',
      'oauth_authorizations',
      'oauth_consents',
      'oauth_client_states',
      'custom_oauth_providers',
      'webauthn_credentials',
      'webauthn_challenges',
    ].map((name) => [`auth.${name}`, { owner: 'supabase_auth_admin', rls: true }]),
  ),
  // storage-api: tables owned by supabase_storage_admin; the API roles and postgres hold ALL on
  // buckets and objects (supabase/postgres 00000000000002-storage-schema.sql default privileges,
  // 20250623125453_tmp_grant_storage_tables_to_postgres_with_grant_option.sql).
  'storage.buckets': {
    owner: 'supabase_storage_admin',
    rls: true,
    privileges: { postgres: ALL, anon: ALL, authenticated: ALL, service_role: ALL },
    triggers: ['enforce_bucket_name_length_trigger', 'protect_buckets_delete'],
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
    },
  },
  'storage.objects': {
    owner: 'supabase_storage_admin',
    rls: true,
    privileges: { postgres: ALL, anon: ALL, authenticated: ALL, service_role: ALL },
    triggers: ['update_objects_updated_at', 'protect_objects_delete'],
    columns: {
      id: col('uuid', false, 'gen_random_uuid()'),
      bucket_id: col('text'),
      name: col('text'),
      owner: col('uuid'),
      created_at: col(tz, true, 'now()'),
      updated_at: col(tz, true, 'now()'),
      last_accessed_at: col(tz, true, 'now()'),
      metadata: col('jsonb'),
      path_tokens: col('text[]'),
      version: col('text'),
      owner_id: col('text'),
      user_metadata: col('jsonb'),
      level: col('integer'),
    },
  },
  // 20250421084701_revoke_admin_roles_from_postgres.sql revokes every grant; postgres still reads it
  // through pg_read_all_data (20240606060239_grant_predefined_roles_to_postgres.sql).
  'storage.migrations': {
    owner: 'supabase_storage_admin',
    rls: false,
    privileges: { postgres: ['SELECT'], anon: [], authenticated: [], service_role: [] },
  },
  ...Object.fromEntries(
    [
      'prefixes',
      's3_multipart_uploads',
      's3_multipart_uploads_parts',
      'buckets_analytics',
      'buckets_vectors',
      'vector_indexes',
    ].map((name) => [`storage.${name}`, { owner: 'supabase_storage_admin', rls: true }]),
  ),
  'realtime.messages': {
    owner: 'supabase_realtime_admin',
    rls: true,
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
      updated_at: col('timestamp without time zone', false, 'now()'),
      inserted_at: col('timestamp without time zone', false, 'now()'),
      id: col('uuid', false, 'gen_random_uuid()'),
    },
  },
  'realtime.subscription': { owner: 'supabase_admin', rls: false },
  'realtime.schema_migrations': { owner: 'supabase_admin', rls: false },
};

/** Functions an app's policies and SQL call, with the role that owns them. */
export const functions: Record<string, { owner: string }> = {
  'auth.uid()': { owner: 'supabase_auth_admin' },
  'auth.role()': { owner: 'supabase_auth_admin' },
  'auth.email()': { owner: 'supabase_auth_admin' },
  'auth.jwt()': { owner: 'supabase_auth_admin' },
  'storage.foldername(name text)': { owner: 'supabase_storage_admin' },
  'storage.filename(name text)': { owner: 'supabase_storage_admin' },
  'storage.extension(name text)': { owner: 'supabase_storage_admin' },
  'storage.protect_delete()': { owner: 'supabase_storage_admin' },
  'storage.update_updated_at_column()': { owner: 'supabase_storage_admin' },
  'storage.enforce_bucket_name_length()': { owner: 'supabase_storage_admin' },
  'storage.get_size_by_bucket()': { owner: 'supabase_storage_admin' },
  'realtime.topic()': { owner: 'supabase_realtime_admin' },
  'realtime.send(payload jsonb, event text, topic text, private boolean)': { owner: 'supabase_admin' },
};

/** What storage.extension() answers upstream (tenant/0060-optimize-existing-functions-again.sql). */
export const extensionExamples: Array<[string, string]> = [
  ['a.tar.gz', 'gz'],
  ['README', 'README'],
  ['folder/photo.png', 'png'],
];
