import type { IncomingMessage, ServerResponse } from 'node:http';

/** The whole body of a request, as text. */
export async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

export function sendHtml(response: ServerResponse, status: number, title: string, body: string): void {
  response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  response.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(title)}</title>`
    + '<meta name="viewport" content="width=device-width, initial-scale=1"></head>'
    + `<body style="font-family:system-ui;max-width:28rem;margin:2rem auto">${body}</body></html>`);
}

export function redirect(response: ServerResponse, location: string): void {
  response.writeHead(303, { location });
  response.end();
}

export const escape = (text: string) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** POSTs a JSON body with headers; resolves with the status and text (a refused connection resolves with status 0). */
export async function postJson(url: string, rawBody: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  try {
    const answer = await fetch(url, { method: 'POST', headers, body: rawBody });
    return { status: answer.status, text: await answer.text() };
  } catch (error) {
    return { status: 0, text: (error as Error).message };
  }
}
