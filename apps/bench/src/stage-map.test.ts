import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MOCK_DIR } from './paths.js';
import {
  LEGACY_MODULE_STAGES,
  MOCK_FOLDER_STAGES,
  MOCK_MODULE_STAGES,
  mockFrameStage,
  nodeFrameStage,
} from './stage-map.js';

// The stage table places each profile sample by the mock's module and function: a module the map
// lacks would land in "unattributed" on the next run. This fails first, naming it.
const SRC = join(MOCK_DIR, 'src');

/** Relative imports a module makes at run time (`import type` and `export type` are erased). */
function runtimeImports(module: string): string[] {
  const text = readFileSync(join(SRC, `${module}.ts`), 'utf8');
  const targets: string[] = [];
  const statements = /(?:^|\n)\s*(import|export)\s+(type\s+)?[^;]*?\bfrom\s+'(\.[^']+)'/g;
  for (const match of text.matchAll(statements)) {
    if (match[2] === undefined) targets.push(match[3] as string);
  }
  for (const match of text.matchAll(/(?:^|\n)\s*import\s+'(\.[^']+)'/g))
    targets.push(match[1] as string);
  for (const match of text.matchAll(/\bimport\(\s*'(\.[^']+)'\s*\)/g))
    targets.push(match[1] as string);
  return targets.map((target) =>
    relative(SRC, join(dirname(join(SRC, module)), target)).replace(/\.js$/, ''),
  );
}

/** Every module the CLI loads at run time: the import closure of `cli.ts` and `cli/main.ts`. */
function cliModules(): string[] {
  const seen = new Set<string>();
  const pending = ['cli', 'cli/main'];
  while (pending.length > 0) {
    const module = pending.pop() as string;
    if (seen.has(module)) continue;
    if (!existsSync(join(SRC, `${module}.ts`)))
      throw new Error(`${module}.ts is imported but absent`);
    seen.add(module);
    pending.push(...runtimeImports(module));
  }
  return [...seen].sort();
}

/** Whether a module's source declares a function of this name (function, const, method or property). */
function declares(text: string, name: string): boolean {
  const modifiers = '(?:(?:export|async|static|get|set|private|public)\\s+)*';
  return new RegExp(
    `(?:function\\s+${name}\\s*\\(|(?:const|let)\\s+${name}\\s*=|^\\s*${modifiers}${name}\\s*\\(|\\b${name}:\\s*(?:async\\s*)?\\()`,
    'm',
  ).test(text);
}

describe('the stage map', () => {
  it('places every module on the request path of the CLI', () => {
    const modules = cliModules();
    // The request path's own modules are among them (the walk follows the real imports).
    for (const module of [
      'http/pipeline',
      'http/auth',
      'service/idempotency',
      'store/memory/memory-store',
    ]) {
      expect(modules).toContain(module);
    }
    const missing = modules.filter((module) => mockFrameStage(module, '') === undefined);
    expect(
      missing,
      'add these modules of packages/mock/src to MOCK_MODULE_STAGES in apps/bench/src/stage-map.ts',
    ).toEqual([]);
  });

  it('names only modules that exist, and functions that are in them', () => {
    const stale: string[] = [];
    for (const [module, entry] of Object.entries(MOCK_MODULE_STAGES)) {
      const path = join(SRC, `${module}.ts`);
      if (!existsSync(path)) {
        stale.push(module);
        continue;
      }
      const text = readFileSync(path, 'utf8');
      for (const name of Object.keys(entry.functions ?? {})) {
        if (!declares(text, name)) stale.push(`${module}#${name}`);
      }
    }
    for (const folder of Object.keys(MOCK_FOLDER_STAGES)) {
      if (!existsSync(join(SRC, folder))) stale.push(folder);
    }
    expect(stale, 'remove or rename these entries of MOCK_MODULE_STAGES').toEqual([]);
  });

  it('places an earlier build’s moved modules, never one this build has', () => {
    // A legacy entry naming a module of today's src would place it silently: the test above
    // would no longer ask for it to be placed.
    // An entry for a module that exists today may only name functions it no longer declares.
    const shadowing = Object.entries(LEGACY_MODULE_STAGES).flatMap(([module, entry]) => {
      const path = join(SRC, `${module}.ts`);
      if (!existsSync(path)) return [];
      const text = readFileSync(path, 'utf8');
      const names = Object.keys(entry.functions ?? {});
      if (names.length === 0 || MOCK_MODULE_STAGES[module] === undefined) return [module];
      return names.filter((name) => declares(text, name)).map((name) => `${module}#${name}`);
    });
    expect(shadowing, 'move these entries from LEGACY_MODULE_STAGES to MOCK_MODULE_STAGES').toEqual(
      [],
    );
    expect(mockFrameStage('cli', 'logger')).toBe('observation');
    expect(mockFrameStage('cli', 'main')).toBe('startup');
    expect(mockFrameStage('http/v1', 'validate')).toBe('validation');
    expect(mockFrameStage('http/v1', 'runDomain')).toBe('operation');
    expect(mockFrameStage('service/service-cache', 'serviceFor')).toBe('auth');
    expect(mockFrameStage('store/account', 'claimIdempotencyKey')).toBe('idempotency');
    // Today's map and folders come first.
    expect(mockFrameStage('http/auth', '')).toBe('auth');
    expect(mockFrameStage('no/such-module', '')).toBeUndefined();
  });

  it('gives a function its own stage over its module’s', () => {
    expect(mockFrameStage('http/exchange', 'answerWith')).toBe('serialization');
    expect(mockFrameStage('http/exchange', '')).toBe('observation');
    expect(mockFrameStage('http/steps/idempotency', 'f')).toBe('idempotency');
    expect(mockFrameStage('store/memory/account', 'claimIdempotencyKey')).toBe('idempotency');
    expect(mockFrameStage('store/memory/account', 'insertPayment')).toBe('operation');
    expect(mockFrameStage('no/such-module', 'f')).toBeUndefined();
    // A folder's default places its new modules; a module named in the map keeps its own.
    expect(mockFrameStage('store/redis/new-module', 'f')).toBe('operation');
    expect(mockFrameStage('store/redis/url', 'parse')).toBe('startup');
    expect(mockFrameStage('http/new-step', 'f')).toBeUndefined();
  });

  it('places Node’s and @hono/node-server’s answer writing and body reading', () => {
    expect(nodeFrameStage('@hono/node-server/dist/index.mjs', 'responseViaCache')).toBe('response');
    expect(nodeFrameStage('@hono/node-server/dist/index.mjs', 'readBodyDirect')).toBe('body');
    expect(nodeFrameStage('@hono/node-server/dist/index.mjs', 'newRequest')).toBeUndefined();
    expect(nodeFrameStage('node:_http_outgoing', 'end')).toBe('response');
    expect(nodeFrameStage('node:internal/stream_base_commons', 'writevGeneric')).toBe('response');
    expect(nodeFrameStage('node:_http_server', 'parserOnIncoming')).toBeUndefined();
    expect(nodeFrameStage('hono/dist/hono-base.js', 'fetch')).toBeUndefined();
  });
});
