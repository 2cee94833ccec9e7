/// <reference lib="dom" />
// The console's inspector, as it runs in the browser: polls GET /_sandbox/inspector for the pasted key and renders it.
// It is served as the source of `inspectorMain` (see `inspectorScript`), so it uses nothing from outside the function
// but the display helpers it is called with (their sources are served beside it).
import { deliveryOutcome, majorAmount } from './display.js';

/**
 * The inspector's browser code. The key lives only in the tab's `sessionStorage` and is sent only
 * as the `Authorization` header; every value is put on the page as text, never as HTML.
 *
 * @example
 * // Served as `(${inspectorMain.toString()})(majorAmount, deliveryOutcome);` by the console's routes.
 */
export function inspectorMain(
  showMajor: typeof majorAmount,
  outcomeOf: typeof deliveryOutcome,
): void {
  const STORAGE = 'payment-service-console:key';
  const KEY_FORMAT = /^sk_test_[A-Za-z0-9_-]{8,128}$/;
  const POLL_MS = 1000;
  const base = document.body.dataset.base ?? '';
  const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
  const status = $<HTMLParagraphElement>('inspector-status');
  const keyForm = $<HTMLFormElement>('key-form');
  const keyInput = $<HTMLInputElement>('key');
  const live = $<HTMLDivElement>('inspector-live');
  let key = sessionStorage.getItem(STORAGE);
  let timer: number | undefined;
  let lastText = '';

  // biome-ignore lint/suspicious/noExplicitAny: snapshot fields are read as the spec documents them
  type Json = Record<string, any>;

  function say(text: string, isError = false): void {
    status.textContent = text;
    status.classList.toggle('error', isError);
  }

  function el<K extends keyof HTMLElementTagNameMap>(
    tag: K,
    attributes: Record<string, string> = {},
    ...children: (Node | string | null)[]
  ): HTMLElementTagNameMap[K] {
    const element = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
    for (const child of children) if (child !== null) element.append(child);
    return element;
  }

  async function call(method: string, path: string, body?: unknown): Promise<Json> {
    const headers: Record<string, string> = { authorization: `Bearer ${key}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${base}${path}`, {
      method,
      headers,
      cache: 'no-store',
      body: body === undefined ? null : JSON.stringify(body),
    });
    const json = (await response.json().catch(() => ({}))) as Json;
    if (!response.ok) {
      const error = new Error(json.detail ?? `HTTP ${response.status}`);
      (error as Error & { status?: number }).status = response.status;
      throw error;
    }
    return json;
  }

  function statusBadge(value: string | number | null): HTMLElement {
    const text = value === null ? 'dropped' : String(value);
    const kind =
      typeof value === 'number'
        ? value >= 500
          ? 'bad'
          : value >= 400
            ? 'warn'
            : 'ok'
        : value === null
          ? 'bad'
          : ['FAILED', 'CANCELED'].includes(text)
            ? 'bad'
            : ['PENDING', 'AUTHORIZED'].includes(text)
              ? 'warn'
              : 'ok';
    return el('span', { class: `badge badge-${kind}` }, text);
  }

  /** An amount as the major-unit amount with its currency, and the minor units beside it. */
  function amount(minor: number, currency: string): (HTMLElement | string)[] {
    const major = showMajor(minor, currency);
    if (major === undefined) return [`${minor} ${currency} (minor units)`];
    return [el('strong', {}, major), ' ', el('span', { class: 'muted' }, `(${minor} minor units)`)];
  }

  function deliveryBadge(attempt: Json): HTMLElement {
    const { text, kind } = outcomeOf(attempt.status, attempt.error);
    return el('span', { class: `badge badge-${kind}`, 'data-outcome': kind }, text);
  }

  function body(label: string, text: string | null): HTMLElement | null {
    if (text === null) return null;
    let shown = text;
    try {
      shown = JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      // Not JSON (or cut short): shown as sent.
    }
    return el('div', {}, el('h4', {}, label), el('pre', {}, shown));
  }

  function requestsSection(requests: Json[]): HTMLElement {
    const rows = requests.map((request) =>
      el(
        'tr',
        {},
        el('td', {}, request.received_at.slice(11, 19)),
        el('td', {}, el('code', {}, request.method)),
        el(
          'td',
          { class: 'path' },
          el(
            'details',
            {},
            el('summary', {}, request.path),
            body('Request body', request.request_body),
            body('Response body', request.response_body),
            request.truncated
              ? el('p', { class: 'muted' }, 'Bodies cut at 4,096 characters.')
              : null,
          ),
        ),
        el('td', {}, statusBadge(request.status)),
        el('td', {}, request.code ?? ''),
        el('td', { class: 'num' }, `${request.latency_ms} ms`),
        el('td', {}, el('code', {}, request.request_id)),
      ),
    );
    const head = ['Time', 'Method', 'Path', 'Status', 'Code', 'Latency', 'Request-Id'].map((name) =>
      el('th', { scope: 'col' }, name),
    );
    return el(
      'section',
      { 'aria-labelledby': 'requests-title' },
      el('h3', { id: 'requests-title' }, `Requests (${requests.length})`),
      requests.length === 0
        ? el('p', { class: 'muted' }, 'No requests yet: send one with this key.')
        : el(
            'div',
            { class: 'scroll' },
            el('table', {}, el('thead', {}, el('tr', {}, ...head)), el('tbody', {}, ...rows)),
          ),
    );
  }

  function paymentsSection(payments: Json[]): HTMLElement {
    const items = payments.map(({ payment, timeline }) =>
      el(
        'li',
        { class: 'card', 'data-payment-id': payment.id },
        el(
          'div',
          { class: 'card-head' },
          el('code', {}, payment.id),
          statusBadge(payment.status),
          el('span', { class: 'amount' }, ...amount(payment.amount, payment.currency)),
          payment.amount_refunded > 0
            ? el(
                'span',
                { class: 'muted' },
                `refunded ${showMajor(payment.amount_refunded, payment.currency) ?? payment.amount_refunded}`,
              )
            : null,
        ),
        el(
          'ol',
          { class: 'timeline', 'aria-label': `Timeline of ${payment.id}` },
          ...timeline.map((step: Json) =>
            el(
              'li',
              {},
              el('time', {}, step.at.replace('T', ' ').replace('Z', '')),
              ` ${step.change} → `,
              statusBadge(step.status),
              step.amount > 0
                ? ` ${showMajor(step.amount, payment.currency) ?? `${step.amount} (minor units)`}`
                : '',
            ),
          ),
        ),
      ),
    );
    return el(
      'section',
      { 'aria-labelledby': 'payments-title' },
      el('h3', { id: 'payments-title' }, `Payments (${payments.length})`),
      payments.length === 0
        ? el('p', { class: 'muted' }, 'No payments yet.')
        : el('ul', { class: 'cards' }, ...items),
    );
  }

  function eventsSection(events: Json[]): HTMLElement {
    const items = events.map((event) =>
      el(
        'li',
        { class: 'card', 'data-event-type': event.type },
        el(
          'div',
          { class: 'card-head' },
          el('code', {}, event.type),
          el('span', { class: 'muted' }, `${event.id} · ${event.payment_id}`),
          el('button', { type: 'button', 'data-redeliver': event.id }, 'Redeliver'),
        ),
        event.deliveries.length === 0
          ? el('p', { class: 'muted' }, 'No attempt logged yet.')
          : el(
              'ul',
              { class: 'attempts' },
              ...event.deliveries.map((attempt: Json) =>
                el(
                  'li',
                  { class: 'delivery' },
                  `#${attempt.attempt} ${attempt.attempted_at.slice(11, 19)} → `,
                  deliveryBadge(attempt),
                  ` ${attempt.latency_ms} ms ${attempt.url}`,
                  attempt.error === null ? '' : ` · ${attempt.error}`,
                  attempt.response_body === null ? '' : ` · “${attempt.response_body}”`,
                  attempt.next_retry_at === null
                    ? ''
                    : ` · retry at ${attempt.next_retry_at.slice(11, 19)}`,
                ),
              ),
            ),
      ),
    );
    return el(
      'section',
      { 'aria-labelledby': 'events-title' },
      el('h3', { id: 'events-title' }, `Events and webhook deliveries (${events.length})`),
      events.length === 0
        ? el(
            'p',
            { class: 'muted' },
            'No events: they are made while an endpoint listens to this key.',
          )
        : el('ul', { class: 'cards' }, ...items),
    );
  }

  function render(snapshot: Json): void {
    $('clock-now').textContent =
      `${snapshot.clock.now} (offset ${snapshot.clock.offset_seconds} s)`;
    $('faults-now').textContent =
      Object.keys(snapshot.faults).length === 0 ? 'none' : JSON.stringify(snapshot.faults);
    const panels = $('inspector-panels');
    panels.replaceChildren(
      paymentsSection(snapshot.payments),
      eventsSection(snapshot.events),
      requestsSection(snapshot.requests),
    );
  }

  async function poll(): Promise<void> {
    if (key === null) return;
    try {
      const snapshot = await call('GET', '/_sandbox/inspector');
      const text = JSON.stringify(snapshot);
      // Re-render only on change, so open details and focus survive quiet polls.
      if (text !== lastText && !document.querySelector('#inspector-panels details[open]')) {
        lastText = text;
        render(snapshot);
      }
      say(`Live: ${key.slice(0, 8)}… · updated ${new Date().toLocaleTimeString()}`);
    } catch (error) {
      const failed = error as Error & { status?: number };
      say(
        failed.status === 401
          ? `The sandbox refused this key: ${failed.message}`
          : `Cannot reach the sandbox: ${failed.message}`,
        true,
      );
      if (failed.status === 401) stop();
    }
  }

  function start(): void {
    live.hidden = false;
    keyInput.value = '';
    lastText = '';
    void poll();
    clearInterval(timer);
    timer = window.setInterval(poll, POLL_MS);
  }

  function stop(): void {
    clearInterval(timer);
    timer = undefined;
  }

  async function act(label: string, action: () => Promise<unknown>): Promise<void> {
    try {
      await action();
      say(`${label}: done`);
      await poll();
    } catch (error) {
      say(`${label} failed: ${(error as Error).message}`, true);
    }
  }

  keyForm.addEventListener('submit', (event) => {
    event.preventDefault();
    const value = keyInput.value.trim();
    if (!KEY_FORMAT.test(value)) {
      say('A test key is sk_test_ followed by 8 to 128 letters, digits, _ or -.', true);
      keyInput.focus();
      return;
    }
    key = value;
    sessionStorage.setItem(STORAGE, value);
    start();
  });
  $('forget-key').addEventListener('click', () => {
    sessionStorage.removeItem(STORAGE);
    key = null;
    stop();
    live.hidden = true;
    say('Key forgotten: it is no longer kept in this tab.');
  });
  $('advance-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const seconds = Number($<HTMLInputElement>('advance-seconds').value);
    void act(`Advance the clock ${seconds} s`, () =>
      call('POST', '/_sandbox/clock/advance', { seconds }),
    );
  });
  $('faults-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const faults: Json = {};
    const latency = Number($<HTMLInputElement>('fault-latency').value);
    const count = Number($<HTMLInputElement>('fault-count').value);
    if (latency > 0) faults.latency_ms = latency;
    if (count > 0)
      faults.fail_next = { count, status: Number($<HTMLSelectElement>('fault-status').value) };
    void act('Set faults', () => call('PUT', '/_sandbox/faults', faults));
  });
  $('clear-faults').addEventListener(
    'click',
    () => void act('Clear faults', () => call('DELETE', '/_sandbox/faults')),
  );
  $('reset-key').addEventListener('click', () => {
    if (confirm('Delete every payment, event and record of this key?')) {
      void act('Reset', () => call('POST', '/_sandbox/reset'));
    }
  });
  $('inspector-panels').addEventListener('click', (event) => {
    const target = (event.target as HTMLElement).closest<HTMLElement>('[data-redeliver]');
    const id = target?.dataset.redeliver;
    if (id !== undefined)
      void act(`Redeliver ${id}`, () =>
        call('POST', `/_sandbox/events/${encodeURIComponent(id)}/redeliver`),
      );
  });

  if (key !== null) start();
}

/**
 * The inspector's script as served: `inspectorMain`'s source, called at once.
 *
 * @example
 * inspectorScript().startsWith('('); // true
 */
export function inspectorScript(): string {
  return `"use strict";(${inspectorMain.toString()})(${majorAmount.toString()}, ${deliveryOutcome.toString()});\n`;
}
