// /readyz against the running local backend: every part answers, so the app is ready.
import { afterAll, describe, expect, it, vi } from 'vitest';
import { loader } from '../../app/routes/readyz.ts';
import { reloadConfig } from '../../app/utils/env.server.ts';
import { backend } from '../support/backend.ts';

afterAll(() => {
  vi.unstubAllEnvs();
  reloadConfig();
});

describe('/readyz', () => {
  it('answers 200 with every part ok when the backend runs', async () => {
    vi.stubEnv('SUPABASE_URL', backend().apiUrl);
    vi.stubEnv('SUPABASE_ANON_KEY', backend().anonKey);
    reloadConfig();
    const res = await loader();
    expect(await res.json()).toEqual({ status: 'ok', checks: { auth: 'ok', rest: 'ok', storage: 'ok' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('Cache-Control')).toBe('no-store');
  });
});
