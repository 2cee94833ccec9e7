// The Hono floor: the floor's two answers served by a bare Hono app on @hono/node-server, the mock's framework with nothing of the mock.
import { randomBytes } from 'node:crypto';
import { Hono } from 'hono';
import {
  createdPayment,
  type FloorCreateBody,
  floorNow,
  retrievedPayment,
} from './floor-server.js';

/**
 * Creates the Hono floor app: the same answers as the raw floor (`POST /v1/payments` → 201,
 * `GET /v1/payments/{id}` → 200), through Hono's router and `c.json`. Between it and the raw
 * floor is the cost of the framework; between it and the mock, the cost of the mock's own work.
 *
 * @example
 * serve({ fetch: createHonoFloorApp().fetch, port: 4100, hostname: '127.0.0.1' });
 */
export function createHonoFloorApp(): Hono {
  const idPrefix = `pay_${randomBytes(6).toString('hex')}`;
  let counter = 0;
  const app = new Hono();
  app.post('/v1/payments', async (c) => {
    let body: FloorCreateBody;
    try {
      body = await c.req.json<FloorCreateBody>();
    } catch {
      return c.json({ code: 'invalid_json' }, 400);
    }
    return c.json(createdPayment(body, `${idPrefix}${counter++}`, floorNow()), 201);
  });
  app.get('/v1/payments/:id', (c) => c.json(retrievedPayment(c.req.param('id'), floorNow())));
  return app;
}
