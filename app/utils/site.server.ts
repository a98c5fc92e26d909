/** The app's public address, for links the backend puts in emails. */
export function siteUrl(request: Request): string {
  return process.env.SITE_URL || new URL(request.url).origin;
}
