import { describe, expect, it } from '@jest/globals';
import express from 'express';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expressMessageClasses } from './json-express-adapter.js';

describe(expressMessageClasses.name, () => {
  it('makes requests and responses that already have the app prototypes, with every Express feature working', async () => {
    const app = express();
    const { ExpressRequest, ExpressResponse } = expressMessageClasses(app);
    const arrived: { request: boolean; response: boolean }[] = [];
    app.get('/echo', (req, res) => {
      res.status(201).json({ header: req.get('x-probe'), query: req.query.q, sameApp: req.app === app });
    });
    const server = createServer({ IncomingMessage: ExpressRequest, ServerResponse: ExpressResponse }, app);
    // Before Express sees them: the prototypes `app.handle` would set are already theirs (its call changes nothing).
    server.prependListener('request', (request: IncomingMessage, response) => {
      arrived.push({
        request: Object.getPrototypeOf(request) === app.request,
        response: Object.getPrototypeOf(response) === app.response,
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const answer = await fetch(`http://127.0.0.1:${port}/echo?q=leak`, { headers: { 'X-Probe': 'yes' } });
      expect(answer.status).toBe(201);
      expect(await answer.json()).toEqual({ header: 'yes', query: 'leak', sameApp: true });
      expect(arrived).toEqual([{ request: true, response: true }]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
