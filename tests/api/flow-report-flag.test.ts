import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../scripts/lib/build-if-stale';
import { createTestApp, type TestApp } from './helper';

// Issue 29 item 1: the server tells each page whether it reports its flow traffic, in the request's own data block.
const REQUEST_BLOCK = /<script type="application\/json" id="tvc-request">([^<]*)<\/script>/;

/** The page's word on flow traffic, as the app reads it (false when the request block does not say true). */
const flowReportOf = (body: string): boolean => (JSON.parse(REQUEST_BLOCK.exec(body)?.[1] ?? '{}') as { flowReport?: unknown }).flowReport === true;

describe('the flow traffic switch of a server-rendered page', () => {
  let on: TestApp;
  let off: TestApp;
  beforeAll(async () => {
    [on, off] = await Promise.all([createTestApp({ DIST_DIR: join(ROOT, 'dist') }), createTestApp({ DIST_DIR: join(ROOT, 'dist'), FLOW_ANALYTICS: 'off' })]);
  });
  afterAll(async () => {
    await Promise.all([on?.close(), off?.close()]);
  });

  const get = (t: TestApp, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: '/checkout/', headers: { 'accept-encoding': 'identity', ...headers } });

  it("is on for a visitor of a shop that reports, and off for one who sends Sec-GPC: 1 or DNT: 1, though both get the same cached page", async () => {
    const first = await get(on);
    expect(first.statusCode).toBe(200);
    expect(flowReportOf(first.body)).toBe(true);
    const privacy = await get(on, { 'sec-gpc': '1' });
    const doNotTrack = await get(on, { dnt: '1' });
    const again = await get(on);
    expect(flowReportOf(privacy.body)).toBe(false);
    expect(flowReportOf(doNotTrack.body)).toBe(false);
    expect(flowReportOf(again.body)).toBe(true);
    // One cached page for all four: only the request's own block differs, and the cached part carries no one's choice.
    expect(privacy.body.replace(REQUEST_BLOCK, '')).toBe(first.body.replace(REQUEST_BLOCK, ''));
    for (const page of on.app.serverRenderer.cache.values()) expect(`${page.before}${page.after}`).not.toContain('flowReport');
  });

  it('is off for every visitor when FLOW_ANALYTICS=off', async () => {
    const answer = await get(off);
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toMatch(REQUEST_BLOCK);
    expect(flowReportOf(answer.body)).toBe(false);
  });
});
