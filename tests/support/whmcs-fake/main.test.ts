/** `npm run whmcs:fake` as a newcomer runs it: it listens on WHMCS_FAKE_PORT and prints the env that reaches it. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { expect, it } from 'vitest';
import { freePort } from '../../../scripts/lib/free-port';
import { callWhmcs } from './call';

it('starts on WHMCS_FAKE_PORT and prints BILLING=whmcs with the URL, credentials and group ids', async () => {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/whmcs-fake/main.ts'], { env: { ...process.env, WHMCS_FAKE_PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
  try {
    let output = '';
    child.stdout.setEncoding('utf8');
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: string) => {
        output += chunk;
        if (output.includes('npm start')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`exited with ${code}: ${output}`)));
    });
    const line = output.split('\n').find((text) => text.startsWith('BILLING=whmcs ')) ?? '';
    const env = Object.fromEntries(line.replace(/ npm start$/, '').split(' ').map((pair) => pair.split('=') as [string, string]));
    expect(env).toMatchObject({
      BILLING: 'whmcs', WHMCS_API_URL: `http://127.0.0.1:${port}/includes/api.php`, WHMCS_RETAIL_GID: '1', WHMCS_RESELLER_GID: '2', WHMCS_RESELLER_CLIENT_GROUP: '1',
    });
    const answer = await callWhmcs({ url: env.WHMCS_API_URL ?? '', identifier: env.WHMCS_API_IDENTIFIER ?? '', secret: env.WHMCS_API_SECRET ?? '' }, 'GetProducts', { gid: env.WHMCS_RETAIL_GID ?? '' });
    expect(answer.body.products.product.map((product: { pid: number }) => product.pid)).toEqual([1, 2, 3]);
  } finally {
    child.kill('SIGTERM');
    if (child.exitCode === null) await once(child, 'exit');
  }
}, 30_000);
