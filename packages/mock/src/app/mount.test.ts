import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { validCreateBody } from '../test-support/harness.js';
import { createMockServer, type MockServer } from './mock-server.js';

let mock: MockServer | undefined;
afterEach(() => mock?.close());

const headers = {
  authorization: 'Bearer sk_test_mounted_0001',
  'content-type': 'application/json',
};

describe('the mock mounted in a user app', () => {
  it('serves the API under a prefix and leaves the app’s own routes alone', async () => {
    mock = createMockServer();
    const app = new Hono();
    app.get('/health', (c) => c.text('ok'));
    app.post('/v1/payments', (c) => c.json({ mine: true }, 202));
    app.route('/sandbox', mock.app);

    const created = await app.request('/sandbox/v1/payments', {
      method: 'POST',
      headers,
      body: JSON.stringify(validCreateBody),
    });
    expect(created.status).toBe(201);
    const payment = (await created.json()) as { id: string };
    expect(created.headers.get('request-id')).toMatch(/^req_/);

    const retrieved = await app.request(`/sandbox/v1/payments/${payment.id}`, { headers });
    expect(retrieved.status).toBe(200);
    const wrongMethod = await app.request(`/sandbox/v1/payments/${payment.id}`, {
      method: 'PUT',
      headers,
    });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('GET');
    const clock = await app.request('/sandbox/_sandbox/clock', { headers });
    expect(clock.status).toBe(200);

    expect(await (await app.request('/health')).text()).toBe('ok');
    const own = await app.request('/v1/payments', { method: 'POST', body: '{}' });
    expect(own.status).toBe(202);
    expect(await own.json()).toEqual({ mine: true });
  });

  it('keeps the console, its links and every 404 and 405 correct under the prefix', async () => {
    mock = createMockServer();
    const app = new Hono();
    app.route('/sandbox', mock.app);
    const html = { accept: 'text/html' };

    for (const home of ['/sandbox/', '/sandbox']) {
      const page = await app.request(home, { headers: html });
      expect(page.status, home).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      const text = await page.text();
      expect(text).toContain('data-base="/sandbox"');
      const links = [...text.matchAll(/(?:src|href)="([^"#]+)[^"]*"/g)].map((m) => m[1] as string);
      expect(links.length).toBeGreaterThan(4);
      for (const link of links) {
        expect(link.startsWith('/sandbox/'), link).toBe(true);
        expect((await app.request(link, { headers: html })).status, link).toBe(200);
      }
    }

    const expectProblem = async (response: Response, status: number, code: string) => {
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(response.headers.get('request-id')).toMatch(/^req_/);
      expect((await response.json()).code).toBe(code);
    };
    await expectProblem(await app.request('/sandbox/v1/nope', { headers }), 404, 'not_found');
    await expectProblem(await app.request('/sandbox/nope/deeper'), 404, 'not_found');
    await expectProblem(await app.request('/sandbox/'), 404, 'not_found');
    await expectProblem(
      await app.request('/sandbox/_console/nope', { headers: html }),
      404,
      'not_found',
    );
    await expectProblem(
      await app.request('/sandbox/v1/payments', { method: 'PATCH', headers }),
      405,
      'method_not_allowed',
    );
    // Outside the prefix, the host app's own answers stay its own.
    expect((await app.request('/elsewhere')).headers.get('content-type')).not.toBe(
      'application/problem+json',
    );
  });

  it('still answers in process through fetch', async () => {
    mock = createMockServer();
    const response = await mock.fetch('/v1/payments', {
      method: 'POST',
      headers,
      body: JSON.stringify(validCreateBody),
    });
    expect(response.status).toBe(201);
  });
});

describe('401', () => {
  it('sends WWW-Authenticate: Bearer, with invalid_token when a key was sent', async () => {
    mock = createMockServer();
    const missing = await mock.fetch('/v1/payments');
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    expect(missing.headers.get('content-type')).toBe('application/problem+json');
    const invalid = await mock.fetch('/_sandbox/clock', { headers: { authorization: 'Bearer x' } });
    expect(invalid.status).toBe(401);
    expect(invalid.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
  });
});
