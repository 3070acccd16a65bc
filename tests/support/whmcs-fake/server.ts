/**
 * A fake WHMCS API (includes/api.php) built from the reference's facts (shared/reference/integrations.md
 * sections 1-3) and the public developer docs, with WHMCS's quirks kept: ids as numbers or numeric strings,
 * money as strings, missing or "" collections, `status` instead of `result` for a missing invoice, PHP
 * truthiness, silently dropped promotion codes, prefix LIKE searches, a non-idempotent AddInvoicePayment.
 *
 * This file is the HTTP front (the form body, auth, faults, the action dispatch); each concern's actions have their own file.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { catalogueActions } from './catalogue';
import { clientActions } from './clients';
import { invoiceActions } from './invoices';
import { orderActions } from './orders';
import { fakePromotions } from './promotions';
import { fakeRenewals, type CronReport, type CronRun } from './renewals';
import { demoSeed, type WhmcsSeed } from './seed';
import { fakeServices } from './services';
import { createFakeStore } from './store';
import { ApiError, localDate, type Actions, type Answer, type Params } from './values';

export type FaultMode = 'none' | 'down' | 'slow' | 'invalid-ip' | 'warning' | 'html' | 'error';
export interface FaultOptions {
  /** Only these actions (any letter case) are faulted; every action when left out. */
  actions?: string[];
  /** slow: how long an answer waits (default 35 s, beyond the adapter's 30 s timeout). */
  delayMs?: number;
  /** How many matching calls are faulted before the fake answers normally again; every call when left out. */
  times?: number;
  /** warning: 'bare' is `{"warning": …}` alone (developer-docs issue 303), 'success' adds `"result":"success"`. Either way nothing is done. */
  warningShape?: 'bare' | 'success';
  /** error: the message of the `{"result":"error"}` answer (a business error, HTTP 200); nothing is done. */
  message?: string;
}
export interface WhmcsCall {
  action: string;
  params: Record<string, string>;
  /** The fault this call met, when one was armed for it: such a call was not carried out (slow ones were, late). */
  fault?: Exclude<FaultMode, 'none'>;
}
export interface WhmcsFakeOptions {
  port?: number;
  seed?: WhmcsSeed;
  identifier?: string;
  secret?: string;
  /** `$api_access_key`: a call that sends it skips the IP allow list. */
  accesskey?: string;
  /** The IP allow list; every address is allowed when left out. */
  allowedIps?: string[];
  /** The actions the API credential's role allows (any letter case); every action when left out. */
  allowedActions?: string[];
  /** Today, as the server's local date YYYY-MM-DD (promotion expiry, an order's date); the real date by default. */
  today?: () => string;
  /** Automation Settings › Enable Unsuspension: a paid invoice unsuspends a service the cron suspended (default true). */
  autoUnsuspend?: boolean;
}
export interface WhmcsFake {
  /** The full URL of …/includes/api.php. */
  url: string;
  port: number;
  identifier: string;
  secret: string;
  /** Every call that reached the fake, in order; secrets redacted. */
  calls: WhmcsCall[];
  /** The calls of one action (any letter case). */
  callsOf(action: string): WhmcsCall[];
  fault(mode: FaultMode, options?: FaultOptions): void;
  /** Stops listening: a connection is refused (ECONNREFUSED) until resume(), as when WHMCS's host is down. */
  suspend(): Promise<void>;
  /** Listens again on the same port. */
  resume(): Promise<void>;
  /** Makes the provisioning module fail the next `times` ModuleCreate (and so AcceptOrder with autosetup) with this message. */
  failModuleCreate(message: string, times?: number): void;
  /** Runs the daily cron's renewal work on a given day: renewal invoices due within `invoiceDays`, suspensions past `suspendDays`. */
  runCron(run: CronRun): CronReport;
  state: Readonly<WhmcsSeed>;
  close(): Promise<void>;
}

export const DEFAULT_IDENTIFIER = 'fake-identifier';
export const DEFAULT_SECRET = 'fake-secret';
const REDACTED = '[redacted]';
const SECRET_PARAMS = new Set(['secret', 'password', 'password2', 'accesskey', 'servicepassword']);

/**
 * PHP's $_POST: only a POST whose content type is form-urlencoded or multipart is parsed; anything else
 * (a JSON body, a missing content type) reaches api.php as no fields at all.
 */
async function postFields(request: IncomingMessage, body: Buffer): Promise<Params> {
  const params: Params = {};
  const header = request.headers['content-type'] ?? '';
  const type = header.toLowerCase();
  if (request.method !== 'POST') return params;
  if (type.startsWith('application/x-www-form-urlencoded')) {
    for (const [key, value] of new URLSearchParams(body.toString('utf8'))) params[key] = value;
  } else if (type.startsWith('multipart/form-data')) {
    const form = await new Response(new Uint8Array(body), { headers: { 'content-type': header } }).formData().catch(() => null);
    for (const [key, value] of form ?? []) if (typeof value === 'string') params[key] = value;
  }
  return params;
}

function toXml(value: unknown, name: string): string {
  if (value === null || value === undefined) return `<${name}></${name}>`;
  if (Array.isArray(value)) return value.map((item) => toXml(item, name)).join('');
  if (typeof value === 'object') return `<${name}>${Object.entries(value as Record<string, unknown>).map(([key, item]) => toXml(item, key)).join('')}</${name}>`;
  return `<${name}><![CDATA[${String(value)}]]></${name}>`;
}

const HTML_ERROR_PAGE = '<!DOCTYPE html>\n<html><head><title>Oops! Something went wrong.</title></head>\n<body><h1>Oops!</h1><p>Something went wrong and we couldn\'t process your request.</p>\n<p>Please go back to the previous page and try again.</p></body></html>\n';

export async function createWhmcsFake(options: WhmcsFakeOptions = {}): Promise<WhmcsFake> {
  const state: WhmcsSeed = structuredClone(options.seed ?? demoSeed());
  const identifier = options.identifier ?? DEFAULT_IDENTIFIER;
  const secret = options.secret ?? DEFAULT_SECRET;
  const today = options.today ?? localDate;
  const calls: WhmcsCall[] = [];
  let fault: { mode: FaultMode; options: FaultOptions; left: number } = { mode: 'none', options: {}, left: Infinity };
  const store = createFakeStore(state, today);
  const promotions = fakePromotions(store);
  const services = fakeServices(store);
  const renewals = fakeRenewals(store, { autoUnsuspend: options.autoUnsuspend ?? true });
  const actions: Actions = {
    ...catalogueActions(store), ...promotions.actions, ...clientActions(store), ...orderActions(store, promotions, services), ...invoiceActions(store, renewals),
    ...services.actions,
  };

  const send = (response: ServerResponse, status: number, body: Answer, responsetype: string | undefined) => {
    if (responsetype?.toLowerCase() === 'json') {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    } else {
      // Without responsetype=json WHMCS answers XML (reference §1).
      response.writeHead(status, { 'content-type': 'text/xml' }).end(`<?xml version="1.0" encoding="utf-8"?>\n${toXml(body, 'whmcsapi')}`);
    }
  };

  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const path = (request.url ?? '').split('?')[0];
    if (!path?.endsWith('/includes/api.php')) {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<!DOCTYPE html><html><body><h1>404 Not Found</h1></body></html>');
      return;
    }
    const params = await postFields(request, Buffer.concat(chunks));
    const actionName = params.action ?? '';
    const { action: _action, ...rest } = params;
    const call: WhmcsCall = { action: actionName, params: Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, SECRET_PARAMS.has(key) ? REDACTED : value])) };
    calls.push(call);
    const responsetype = params.responsetype;

    const faulted = fault.mode !== 'none' && fault.left > 0
      && (!fault.options.actions || fault.options.actions.some((name) => name.toLowerCase() === actionName.toLowerCase()));
    const mode = faulted ? fault.mode : 'none';
    // Read before the fault is disarmed: the last faulted call still needs its options (message, delay, shape).
    const faultOptions = faulted ? { ...fault.options } : {};
    if (faulted) {
      fault.left -= 1;
      if (fault.left <= 0) fault = { mode: 'none', options: {}, left: Infinity };
    }
    if (mode !== 'none') call.fault = mode;
    if (mode === 'down') {
      // The connection drops without an answer, as when WHMCS or its proxy is down.
      request.socket.destroy();
      return;
    }
    if (mode === 'slow') {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          resolve();
        }, faultOptions.delayMs ?? 35_000);
        timers.add(timer);
      });
      if (response.destroyed || request.socket.destroyed) return;
    }
    if (mode === 'html') {
      response.writeHead(500, { 'content-type': 'text/html; charset=utf-8' }).end(HTML_ERROR_PAGE);
      return;
    }

    const remoteIp = (request.socket.remoteAddress ?? '').replace(/^::ffff:/, '');
    const accessKeyOk = options.accesskey !== undefined && params.accesskey === options.accesskey;
    if (options.accesskey !== undefined && params.accesskey !== undefined && !accessKeyOk) {
      send(response, 403, { result: 'error', message: 'Invalid Access Key' }, responsetype);
      return;
    }
    if (mode === 'invalid-ip' || (!accessKeyOk && options.allowedIps && !options.allowedIps.includes(remoteIp))) {
      send(response, 403, { result: 'error', message: `Invalid IP ${remoteIp}` }, responsetype);
      return;
    }
    const givenIdentifier = params.identifier ?? params.username;
    const givenSecret = params.secret ?? params.password;
    if (!givenIdentifier || !givenSecret) {
      send(response, 403, { result: 'error', message: 'Invalid or missing credentials' }, responsetype);
      return;
    }
    if (givenIdentifier !== identifier || givenSecret !== secret) {
      send(response, 403, { result: 'error', message: 'Authentication Failed' }, responsetype);
      return;
    }
    // Own actions only: `constructor` or `toString` is no API action, as in WHMCS.
    const handler = Object.hasOwn(actions, actionName.toLowerCase()) ? actions[actionName.toLowerCase()] : undefined;
    if (!handler) {
      send(response, 200, { result: 'error', message: 'Command Not Found' }, responsetype);
      return;
    }
    if (options.allowedActions && !options.allowedActions.some((name) => name.toLowerCase() === actionName.toLowerCase())) {
      send(response, 403, { result: 'error', message: `Invalid Permissions: API action "${actionName.toLowerCase()}" is not allowed` }, responsetype);
      return;
    }
    if (mode === 'error') {
      send(response, 200, { result: 'error', message: faultOptions.message ?? 'An unexpected error occurred' }, responsetype);
      return;
    }
    if (mode === 'warning') {
      const warning = 'Invalid or Missing Payment Information - Please Reload and Try Again';
      send(response, 200, faultOptions.warningShape === 'success' ? { result: 'success', warning } : { warning }, responsetype);
      return;
    }
    let body: Answer;
    try {
      body = handler(params);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      body = { result: 'error', message: error.message };
    }
    send(response, 200, body, responsetype);
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/html' }).end(`<html><body>${String(error)}</body></html>`);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const dropConnections = () => {
    for (const timer of timers) clearTimeout(timer);
    for (const socket of sockets) socket.destroy();
  };

  return {
    url: `http://127.0.0.1:${port}/includes/api.php`,
    port, identifier, secret, calls,
    callsOf: (action) => calls.filter((call) => call.action.toLowerCase() === action.toLowerCase()),
    fault(mode, faultOptions = {}) {
      fault = { mode, options: faultOptions, left: faultOptions.times ?? Infinity };
    },
    failModuleCreate(message, times = 1) {
      services.failModuleCreate(message, times);
    },
    runCron: (run) => renewals.runCron(run),
    suspend: () => new Promise<void>((resolve) => {
      if (!server.listening) return resolve();
      dropConnections();
      server.close(() => resolve());
    }),
    resume: () => new Promise<void>((resolve, reject) => {
      if (server.listening) return resolve();
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    }),
    state,
    close: () => new Promise<void>((resolve) => {
      dropConnections();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    }),
  };
}
