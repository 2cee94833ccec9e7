import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createMockServer } from '../app/mock-server.js';
import { AnsweringRouter, alwaysAnswers } from './answering-router.js';

/** A Hono app on the router, recording which routes ran. */
function appWith(ran: string[]) {
  const app = new Hono({ router: new AnsweringRouter() });
  app.get(
    '/things/:id',
    alwaysAnswers((c) => {
      ran.push(`answering ${c.req.param('id')}`);
      return c.text(`thing ${c.req.param('id')}`);
    }),
  );
  app.all('/things/:id', (c) => {
    ran.push('405');
    return c.text('not allowed', 405);
  });
  app.get('/open/:id', async (c, next) => {
    ran.push(`middleware ${c.req.param('id')}`);
    await next();
  });
  app.all('*', (c) => {
    ran.push('catch-all');
    return c.text('none', 404);
  });
  return app;
}

describe('AnsweringRouter', () => {
  it('ends a match at a route that always answers, with its path parameters', async () => {
    const ran: string[] = [];
    const router = new AnsweringRouter<[unknown, unknown]>();
    const app = appWith(ran);
    const response = await app.request('/things/a%20b');
    expect(await response.text()).toBe('thing a b');
    expect(ran).toEqual(['answering a b']);
    // Three routes match the path; the router hands Hono only the first.
    router.add('GET', '/x/:id', [alwaysAnswers(() => 1), 'first']);
    router.add('ALL', '/x/:id', [() => 2, 'second']);
    router.add('ALL', '*', [() => 3, 'third']);
    const [routes, stash] = router.match('GET', '/x/7');
    expect(routes.map(([[, name]]) => name)).toEqual(['first']);
    const indexes = routes[0]?.[1] as Record<string, number>;
    expect(stash?.[indexes.id ?? -1]).toBe('7');
  });

  it('leaves whole a match whose first route may go on, and one of a single route', async () => {
    const ran: string[] = [];
    const app = appWith(ran);
    expect((await app.request('/things/1', { method: 'DELETE' })).status).toBe(405);
    expect((await app.request('/open/2')).status).toBe(404);
    expect((await app.request('/elsewhere')).status).toBe(404);
    expect(ran).toEqual(['405', 'middleware 2', 'catch-all', 'catch-all']);
  });

  it('serves the mock the same: operations, their 405 and every 404', async () => {
    const mock = createMockServer();
    // An operation's path matches its route alone (Hono's single-handler path); others stay whole.
    expect(mock.app.router.match('GET', '/v1/payments/pay_1')[0]).toHaveLength(1);
    expect(mock.app.router.match('POST', '/v1/payments')[0]).toHaveLength(1);
    expect(mock.app.router.match('PUT', '/v1/payments/pay_1')[0].length).toBeGreaterThan(1);
    const headers = { authorization: 'Bearer sk_test_answering_01' };
    expect((await mock.fetch('/v1/payments/pay_none', { headers })).status).toBe(404);
    const wrong = await mock.fetch('/v1/payments/pay_none', { method: 'PUT', headers });
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET');
    const unknown = await mock.fetch('/v1/nothing', { headers });
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { code: string }).code).toBe('not_found');
    mock.close();
  });
});
