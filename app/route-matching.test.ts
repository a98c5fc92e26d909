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

  test('writes the same text as the unpatched build for every address, first time and again', () => {
    const manifest = assetsManifest('a');
    for (const url of urls) {
      const router = renderedRouter(routes, url);
      const expected = JSON.stringify(unpatchedFogOfWar.getPartialManifest(manifest, router), null, 2);
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
      JSON.stringify(unpatchedFogOfWar.getPartialManifest(after, based), null, 2),
    );
  });
});
