import { config } from './env.server.ts';

/** The app's public address, for links the backend puts in emails. */
export function siteUrl(request: Request): string {
  return config().siteUrl ?? new URL(request.url).origin;
}
