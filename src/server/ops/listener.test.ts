import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from '../config';
import { unsafeConfigProblems } from '../production';
import { isLoopbackHost, opsAuthorized } from './listener';

/** The problems of a production start that concern the operator listener (the others are left unsolved here). */
const opsProblems = (env: Record<string, string>) => unsafeConfigProblems(readConfig({ NODE_ENV: 'production', ...env })).filter((problem) => problem.includes('OPS_'));

describe('the operator listener configuration', () => {
  it('has no listener unless OPS_PORT is set, and listens on 127.0.0.1 unless OPS_HOST says otherwise', () => {
    expect(readConfig({}).ops).toEqual({ port: null, host: '127.0.0.1', token: null });
    expect(readConfig({ OPS_PORT: '9464', OPS_HOST: '10.0.0.5', OPS_TOKEN: 't' }).ops).toEqual({ port: 9464, host: '10.0.0.5', token: 't' });
  });

  it('refuses an OPS_PORT that is not a port number', () => {
    expect(() => readConfig({ OPS_PORT: 'metrics' })).toThrow(ConfigError);
    expect(() => readConfig({ OPS_PORT: '70000' })).toThrow('OPS_PORT must be a port number, got 70000.');
  });

  it('refuses a production start with OPS_HOST beyond loopback and no OPS_TOKEN, naming OPS_TOKEN', () => {
    expect(opsProblems({ OPS_PORT: '9464', OPS_HOST: '0.0.0.0' })).toEqual([expect.stringMatching(/OPS_HOST is 0\.0\.0\.0.*set OPS_TOKEN/)]);
    expect(opsProblems({ OPS_PORT: '9464', OPS_HOST: '0.0.0.0', OPS_TOKEN: 'a-long-random-token' })).toEqual([]);
    expect(opsProblems({ OPS_PORT: '9464', OPS_HOST: '127.0.0.1' })).toEqual([]);
    expect(opsProblems({ OPS_PORT: '9464' })).toEqual([]);
  });

  it('counts 127.0.0.0/8, ::1 and localhost as loopback, nothing else', () => {
    expect(['127.0.0.1', '127.1.2.3', '::1', 'localhost'].map(isLoopbackHost)).toEqual([true, true, true, true]);
    expect(['0.0.0.0', '::', '10.0.0.5', 'ops.example', '127.0.0.1.example'].map(isLoopbackHost)).toEqual([false, false, false, false, false]);
  });

  it('beyond loopback answers only the bearer of OPS_TOKEN; without a token set, nobody', () => {
    const settings = { host: '0.0.0.0', token: 'the-token' };
    expect(opsAuthorized(settings, 'Bearer the-token')).toBe(true);
    expect([undefined, 'Bearer the-toke', 'Bearer the-token2', 'the-token', 'Basic the-token'].map((header) => opsAuthorized(settings, header))).toEqual([false, false, false, false, false]);
    expect(opsAuthorized({ host: '0.0.0.0', token: null }, 'Bearer ')).toBe(false);
    expect(opsAuthorized({ host: '127.0.0.1', token: null }, undefined)).toBe(true);
  });
});
