// The browser the e2e tests and the browser benchmarks run: Debian's Chromium when it is there (CI
// installs it), Playwright's own otherwise, with the same flags.
import { existsSync } from 'node:fs';

export const systemChromium = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((p) => existsSync(p));

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
