// The server matches routes with a patched @remix-run/router (patches/, decision 011): a route
// tree's ranked branches and each compiled path pattern are kept instead of being rebuilt on every
// match. And a patched @remix-run/react keeps the partial manifest each document inlines for lazy
// route discovery. These tests hold the patched builds, which Node loads (CommonJS), to the
// packages' own unpatched ES module builds on this app's real route tree.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { readConfig } from '@remix-run/dev/dist/config.js';
import type * as RouterModule from '@remix-run/router';
import type { AgnosticRouteObject } from '@remix-run/router';
import { describe, expect, test } from 'vitest';

type Router = typeof RouterModule;
const require = createRequire(import.meta.url);
const patched = require('@remix-run/router') as Router;
const unpatched = (await import('@remix-run/router/dist/router.js')) as unknown as Router;

const routeConfig = (await readConfig(path.resolve(import.meta.dirname, '..'))).routes;

/** The app's route tree as remix builds it from remix.config.js and app/routes. */
async function appRoutes(): Promise<AgnosticRouteObject[]> {
  const manifest = routeConfig;
  const nodes = new Map<string, AgnosticRouteObject>();
  for (const route of Object.values(manifest)) {
    const { id, path, caseSensitive } = route;
    nodes.set(id, route.index ? { id, path, caseSensitive, index: true } : { id, path, caseSensitive });
  }
  const roots: AgnosticRouteObject[] = [];
  for (const route of Object.values(manifest)) {
    const node = nodes.get(route.id) as AgnosticRouteObject;
    const parent = route.parentId === undefined ? undefined : nodes.get(route.parentId);
    if (!parent) roots.push(node);
    else if (parent.index) throw new Error(`${route.id} is under an index route`);
    else parent.children = [...(parent.children ?? []), node];
  }
  return roots;
}

/** Every route's path with its params filled in, its parents, and addresses no route has. */
function addresses(routes: AgnosticRouteObject[]): string[] {
  const found = new Set<string>(['/', '', '/nowhere', '/w/acme/p/WEB/t/7/extra', '/W/ACME', '/w//acme']);
  const walk = (nodes: AgnosticRouteObject[], prefix: string) => {
    for (const node of nodes) {
      const filled = (node.path ?? '')
        .replace(/:(\w+)\?/g, 'opt-$1')
        .replace(/:(\w+)/g, (_, name: string) => `${name}-1`)
        .replace(/\*$/, 'some/deeper/path');
      const full = `${prefix}/${filled}`.replace(/\/+/g, '/');
      found.add(full);
      found.add(`${full}/`);
      found.add(full.toUpperCase());
      found.add(`${full}/caf%C3%A9`);
      walk(node.children ?? [], full);
    }
  };
  walk(routes, '');
  return [...found];
}

/** What a match says, without the route objects themselves (compared by id). */
const summary = (matches: ReturnType<Router['matchRoutes']>) =>
  matches?.map((m) => ({ id: m.route.id, params: m.params, pathname: m.pathname, base: m.pathnameBase }));

describe('the patched route matching', async () => {
  const routes = await appRoutes();
  const urls = addresses(routes);

  test('Node loads the patched build', () => {
    expect(readFileSync(require.resolve('@remix-run/router'), 'utf8')).toContain('rankedBranchesByTree');
  });

  test('the app has the routes these tests walk', () => {
    expect(urls.length).toBeGreaterThan(100);
    expect(summary(unpatched.matchRoutes(routes, '/w/acme/p/web/t/7'))?.at(-1)?.id).toMatch(/t\.\$number/);
  });

  test('matches every address as the unpatched router does, first time and again', () => {
    for (const url of urls) {
      const expected = summary(unpatched.matchRoutes(routes, url));
      expect(summary(patched.matchRoutes(routes, url)), url).toEqual(expected);
      expect(summary(patched.matchRoutes(routes, url)), `${url}, again`).toEqual(expected);
      expect(summary(patched.matchRoutes(structuredClone(routes), url)), `${url}, a copy`).toEqual(expected);
      expect(patched.matchPath('/w/:workspace/*', url), `matchPath ${url}`).toEqual(
        unpatched.matchPath('/w/:workspace/*', url),
      );
    }
  });

  test('a basename and partial paths match as before', () => {
    for (const url of urls) {
      expect(summary(patched.matchRoutes(routes, `/base${url}`, '/base'))).toEqual(
        summary(unpatched.matchRoutes(routes, `/base${url}`, '/base')),
      );
    }
    expect(patched.matchPath({ path: '/w/:workspace', end: false }, '/w/acme/members')).toEqual(
      unpatched.matchPath({ path: '/w/:workspace', end: false }, '/w/acme/members'),
    );
    expect(patched.matchPath({ path: '/W/:workspace', caseSensitive: true }, '/w/acme')).toBeNull();
  });

  test('routes patched into a live router are matched at once', () => {
    const router = patched.createRouter({
      routes: [{ id: 'root', path: '/', children: [{ id: 'home', index: true }] }],
      history: patched.createMemoryHistory(),
    });
    // patchRoutes adds to the tree in place, then gives the router a new top-level array: the array
    // matched before holds the new route too, and must find it.
    const before = router.routes;
    expect(summary(patched.matchRoutes(before, '/later'))).toBeUndefined();
    router.patchRoutes('root', [{ id: 'later', path: 'later' }]);
    for (const tree of [before, router.routes])
      expect(summary(patched.matchRoutes(tree, '/later'))?.map((m) => m.id)).toEqual(['root', 'later']);
    router.dispose();
  });
});

interface FogOfWar {
  getPartialManifest(manifest: unknown, router: unknown): unknown;
  getPartialManifestJson?(manifest: unknown, router: unknown): string;
}
const patchedFogOfWar = require('@remix-run/react/dist/fog-of-war.js') as FogOfWar;
// The ES module build ships no types of its own: it is read here as the same module shape.
const unpatchedFogOfWarPath: string = '@remix-run/react/dist/esm/fog-of-war.js';
const unpatchedFogOfWar = (await import(/* @vite-ignore */ unpatchedFogOfWarPath)) as FogOfWar;

/** A build's assets manifest for the app's routes, its module names marked with `tag`. */
function assetsManifest(tag: string) {
  const routes = Object.fromEntries(
    Object.values(routeConfig).map((route) => [
      route.id,
      {
        id: route.id,
        parentId: route.parentId,
        path: route.path,
        index: route.index,
        module: `/build/${tag}/${route.id}.js`,
        hasLoader: true,
      },
    ]),
  );
  return {
    version: tag,
    url: `/build/manifest-${tag}.js`,
    entry: { module: '/build/entry.client.js', imports: [] },
    routes,
  };
}

/** What `<Scripts>` reads of the router while rendering a document at `url`. */
function renderedRouter(routes: AgnosticRouteObject[], url: string, basename = '/') {
  return {
    routes,
    basename,
    state: { location: { pathname: url }, matches: patched.matchRoutes(routes, url, basename) ?? [] },
  };
}

describe("the patched partial manifest (lazy route discovery's inline script)", async () => {
  const routes = await appRoutes();
  const urls = addresses(routes);

  test('Node loads the patched build, and Scripts uses it', () => {
    expect(patchedFogOfWar.getPartialManifestJson).toBeTypeOf('function');
    expect(readFileSync(require.resolve('@remix-run/react/dist/components.js'), 'utf8')).toContain(
      'fogOfWar.getPartialManifestJson(manifest, router)',
    );
  });

  test('writes the manifest the unpatched build gives, as compact JSON, for every address, first time and again', () => {
    const manifest = assetsManifest('a');
    for (const url of urls) {
      const router = renderedRouter(routes, url);
      const expected = JSON.stringify(unpatchedFogOfWar.getPartialManifest(manifest, router));
      expect(patchedFogOfWar.getPartialManifestJson?.(manifest, router), url).toBe(expected);
      expect(patchedFogOfWar.getPartialManifestJson?.(manifest, router), `${url}, again`).toBe(expected);
      expect(patchedFogOfWar.getPartialManifest(manifest, router), `${url}, as an object`).toEqual(
        unpatchedFogOfWar.getPartialManifest(manifest, router),
      );
    }
  });

  test('keeps nothing from one build for the next, nor from one basename for another', () => {
    const before = assetsManifest('before');
    const after = assetsManifest('after');
    const url = '/w/acme/p/web/t/7';
    const first = patchedFogOfWar.getPartialManifestJson?.(before, renderedRouter(routes, url));
    const next = patchedFogOfWar.getPartialManifestJson?.(after, renderedRouter(routes, url));
    expect(first).toContain('/build/before/');
    expect(next).toContain('/build/after/');
    expect(next).not.toContain('/build/before/');
    const based = renderedRouter(routes, `/base${url}`, '/base');
    expect(patchedFogOfWar.getPartialManifestJson?.(after, based)).toBe(
      JSON.stringify(unpatchedFogOfWar.getPartialManifest(after, based)),
    );
  });
});

interface ServerRoutesModule {
  createServerRoutes(manifest: unknown, modules: unknown, future: unknown, isSpaMode: boolean): ServerRoute[];
  serverRoutesFor?(manifest: unknown, modules: unknown, future: unknown, isSpaMode: boolean): ServerRoute[];
}
interface ServerRoute {
  id: string;
  path?: string;
  index?: boolean;
  caseSensitive?: boolean;
  handle?: unknown;
  loader?: unknown;
  children?: ServerRoute[];
  [key: string]: unknown;
}
interface StaticRouterModule {
  createStaticRouter(
    routes: ServerRoute[],
    context: unknown,
  ): { routes: ServerRoute[]; state: { matches: { route: ServerRoute; params: unknown }[] } };
}
const patchedServerRoutes = require('@remix-run/react/dist/routes.js') as ServerRoutesModule;
const unpatchedServerRoutesPath: string = '@remix-run/react/dist/esm/routes.js';
const unpatchedServerRoutes = (await import(
  /* @vite-ignore */ unpatchedServerRoutesPath
)) as ServerRoutesModule;
const patchedStaticRouter = require('react-router-dom/server') as StaticRouterModule;
const unpatchedStaticRouterPath: string = 'react-router-dom/server.mjs';
const unpatchedStaticRouter = (await import(
  /* @vite-ignore */ unpatchedStaticRouterPath
)) as StaticRouterModule;

/** A build's route modules: a component each, some with an error boundary, the root with a layout. */
function routeModules(tag: string) {
  return Object.fromEntries(
    Object.values(routeConfig).map((route, i) => [
      route.id,
      {
        default: () => null,
        handle: { tag, id: route.id },
        ...(i % 3 === 0 ? { ErrorBoundary: () => null } : {}),
        ...(route.id === 'root' ? { Layout: ({ children }: { children: unknown }) => children } : {}),
      },
    ]),
  );
}

/**
 * A route tree as data: every field of every route, React elements by their type's name and their
 * props, so that two builds' trees can be compared.
 */
function shape(routes: ServerRoute[] | undefined): unknown {
  // Each build has its own default components (the root's fallback): they compare by name.
  const name = (type: unknown) => (typeof type === 'function' ? `function ${type.name}` : type);
  const isElement = (v: unknown): v is { type: unknown; props: unknown } =>
    typeof v === 'object' && v !== null && '$$typeof' in v;
  const value = (v: unknown): unknown =>
    typeof v === 'function'
      ? 'function'
      : isElement(v)
        ? { type: name(v.type), props: value(v.props) }
        : v && typeof v === 'object' && !Array.isArray(v)
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, value(x)]))
          : v;
  return routes?.map(({ children, ...route }) => ({
    ...(value(route) as object),
    children: shape(children),
  }));
}

/** Every route of a tree, by id. */
function byId(routes: ServerRoute[], found = new Map<string, ServerRoute>()): Map<string, ServerRoute> {
  for (const route of routes) {
    found.set(route.id, route);
    byId(route.children ?? [], found);
  }
  return found;
}

describe("the render's route tree, kept per build", async () => {
  const urls = addresses(await appRoutes());
  const future = { v3_fetcherPersist: true };

  test('Node loads the patched builds, and RemixServer uses them', () => {
    expect(readFileSync(require.resolve('@remix-run/react/dist/server.js'), 'utf8')).toContain(
      'routes.serverRoutesFor(manifest.routes',
    );
    expect(readFileSync(require.resolve('react-router-dom/server'), 'utf8')).toContain(
      'staticDataRoutes(routes)',
    );
  });

  test('is the tree the unpatched build makes, made once while the build is the same', () => {
    const manifest = assetsManifest('a').routes;
    const modules = routeModules('a');
    const tree = patchedServerRoutes.serverRoutesFor?.(manifest, modules, future, false);
    expect(shape(tree)).toEqual(
      shape(unpatchedServerRoutes.createServerRoutes(manifest, modules, future, false)),
    );
    expect(shape(tree)).toContainEqual(expect.objectContaining({ id: 'root', element: expect.anything() }));
    // Every request brings a new object of the same modules.
    expect(patchedServerRoutes.serverRoutesFor?.(manifest, { ...modules }, future, false)).toBe(tree);
  });

  test('is made again for another build, route module, future or SPA mode', () => {
    const manifest = assetsManifest('b').routes;
    const modules = routeModules('b');
    const tree = patchedServerRoutes.serverRoutesFor?.(manifest, modules, future, false) ?? [];
    const changedId = [...byId(tree).keys()].at(-1) ?? '';
    const changed = { ...modules, [changedId]: { default: () => null, handle: 'changed' } };
    const changedTree = patchedServerRoutes.serverRoutesFor?.(manifest, changed, future, false) ?? [];
    expect(changedTree).not.toBe(tree);
    expect(byId(changedTree).get(changedId)?.handle).toBe('changed');
    expect(shape(changedTree)).toEqual(
      shape(unpatchedServerRoutes.createServerRoutes(manifest, changed, future, false)),
    );
    const nextBuild = assetsManifest('b').routes;
    expect(patchedServerRoutes.serverRoutesFor?.(nextBuild, changed, future, false)).not.toBe(changedTree);
    expect(patchedServerRoutes.serverRoutesFor?.(manifest, changed, { ...future }, false)).not.toBe(
      changedTree,
    );
    const spa = patchedServerRoutes.serverRoutesFor?.(manifest, changed, future, true) ?? [];
    expect(shape(spa)).toEqual(
      shape(unpatchedServerRoutes.createServerRoutes(manifest, changed, future, true)),
    );
  });

  test("the static router's routes and matches are the unpatched build's, for every address", () => {
    const tree =
      patchedServerRoutes.serverRoutesFor?.(assetsManifest('c').routes, routeModules('c'), future, false) ??
      [];
    const context = (url: string) => ({
      basename: '/',
      location: { pathname: url, search: '', hash: '', state: null, key: 'default' },
      matches: unpatched.matchRoutes(tree as AgnosticRouteObject[], url) ?? [],
      loaderData: {},
      actionData: null,
      errors: null,
      statusCode: 200,
      loaderHeaders: {},
      actionHeaders: {},
      activeDeferreds: null,
    });
    const first = patchedStaticRouter.createStaticRouter(tree, context('/')).routes;
    for (const url of urls) {
      const router = patchedStaticRouter.createStaticRouter(tree, context(url));
      const expected = unpatchedStaticRouter.createStaticRouter(tree, context(url));
      expect(router.routes, url).toBe(first);
      expect(shape(router.routes), url).toEqual(shape(expected.routes));
      const ids = byId(router.routes);
      expect(
        router.state.matches.map((m) => [m.route.id, m.params]),
        url,
      ).toEqual(expected.state.matches.map((m) => [m.route.id, m.params]));
      // Each match's route is the router's own data route, as the unpatched build gives.
      for (const match of router.state.matches) expect(match.route, url).toBe(ids.get(match.route.id));
    }
    const copy = (routes: ServerRoute[]): ServerRoute[] =>
      routes.map((route) => ({ ...route, children: route.children && copy(route.children) }));
    const other = patchedStaticRouter.createStaticRouter(copy(tree), context('/')).routes;
    expect(other).not.toBe(first);
    expect(shape(other)).toEqual(shape(first));
  });
});
