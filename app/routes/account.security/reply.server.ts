import type { SubmissionResult } from '@conform-to/dom';
import { json, type AppLoadContext } from '@remix-run/node';
import type { RequestSupabase } from '~/utils/session/supabase.server.ts';
import type { SecurityIntent } from './intents.server.ts';

/** A shared workspace that keeps the account from being deleted: it would be left without an owner. */
export interface Blocker {
  name: string;
  slug: string;
}

export interface SecurityRequest {
  request: Request;
  context: AppLoadContext;
  supabase: RequestSupabase['supabase'];
  userId: string;
}

/** Every answer of the page's action has one shape, so the page can read any of them. */
export function reply(
  intent: SecurityIntent,
  fields: { result?: SubmissionResult<string[]> | null; notice?: string | null; blockers?: Blocker[] | null },
  status = 200,
) {
  return json(
    {
      intent,
      result: fields.result ?? null,
      notice: fields.notice ?? null,
      blockers: fields.blockers ?? null,
    },
    { status },
  );
}
