// The request openapi-fetch builds, kept as plain data: each attempt calls fetch(url, init) once, with no extra Request objects.

/**
 * What openapi-fetch constructs in place of a `Request` (its `Request` option): the URL,
 * method, headers and serialized body, with none of a WHATWG Request's costs (a stream, an
 * AbortController). The transport sends it with `fetch(url, init)`.
 *
 * @example
 * const outgoing = new OutgoingRequest('http://localhost:4010/v1/payments', { method: 'POST', body: '{}' });
 * outgoing.method; // 'POST'
 */
export class OutgoingRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly body: BodyInit | undefined;

  constructor(input: string | URL, init: RequestInit = {}) {
    this.url = String(input);
    this.method = (init.method ?? 'GET').toUpperCase();
    this.headers = init.headers instanceof Headers ? init.headers : new Headers(init.headers);
    this.body = init.body ?? undefined;
  }
}
