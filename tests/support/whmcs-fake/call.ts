import type { WhmcsFake } from './server';

/** A parsed JSON answer: tests read WHMCS's loosely typed fields directly. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = Record<string, any>;

/** What the fake answered: HTTP status, content type, raw text and (when it is JSON) the body. */
export interface FakeAnswer { status: number; contentType: string; text: string; body: Json }

/** POSTs one form-encoded call to the fake with its credentials and responsetype=json unless overridden. */
export async function callWhmcs(fake: Pick<WhmcsFake, 'url' | 'identifier' | 'secret'>, action: string, params: Record<string, string> = {}, init: { signal?: AbortSignal; auth?: boolean } = {}): Promise<FakeAnswer> {
  const form = new URLSearchParams({ action, ...(init.auth === false ? {} : { identifier: fake.identifier, secret: fake.secret }), responsetype: 'json', ...params });
  for (const [key, value] of Object.entries(params)) if (value === undefined) form.delete(key);
  const response = await fetch(fake.url, { method: 'POST', body: form, signal: init.signal });
  const text = await response.text();
  let body: Json = {};
  try {
    body = JSON.parse(text) as Json;
  } catch {
    // Not JSON (XML or an HTML page): the text is what to look at.
  }
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', text, body };
}
