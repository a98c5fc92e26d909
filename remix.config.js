/**
 * Remix v2 with the classic compiler (no Vite plugin), as the project's users run it.
 * @type {import('@remix-run/dev').AppConfig}
 */
export default {
  appDirectory: 'app',
  assetsBuildDirectory: 'public/build',
  publicPath: '/build/',
  serverBuildPath: 'build/index.js',
  serverModuleFormat: 'esm',
  ignoredRouteFiles: ['**/.*', '**/*.test.{ts,tsx}'],
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    v3_lazyRouteDiscovery: true,
  },
};
