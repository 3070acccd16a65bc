import { readFileSync } from 'node:fs';
import openapiTS, { astToString } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';

/** Drops the generator's banner and blank lines, which the CLI adds and the API does not. */
const normalise = (text: string) => text.replace(/^\/\*\*[\s\S]*?\*\/\s*/, '').split('\n').filter((line) => line.trim() !== '').join('\n');

describe('src/api/schema.d.ts', () => {
  it('is what openapi-typescript generates from openapi.yaml today (run npm run gen:api when this fails)', async () => {
    const generated = astToString(await openapiTS(new URL('../../openapi.yaml', import.meta.url)));
    const committed = readFileSync(new URL('./schema.d.ts', import.meta.url), 'utf8');
    expect(normalise(committed)).toBe(normalise(generated));
  }, 30_000);
});
