/** What the figures were taken on: CPU, cores, memory, Node, Chromium, the commit. */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { ROOT } from './proc';

export interface Machine {
  cpu: string;
  cores: number;
  ramGiB: number;
  node: string;
  os: string;
  chromium: string;
  commit: string;
  date: string;
}

/** The browser Lighthouse drives: CHROME_PATH, else Debian's Chromium. */
export const chromePath = (): string => process.env.CHROME_PATH || '/usr/bin/chromium';

const quiet = (command: string, args: string[]): string => {
  try {
    return execFileSync(command, args, { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 15_000 }).trim();
  } catch {
    return '';
  }
};

export function describeMachine(): Machine {
  const cpuinfo = existsSync('/proc/cpuinfo') ? readFileSync('/proc/cpuinfo', 'utf8') : '';
  const cpu = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1]?.trim() ?? os.cpus()[0]?.model ?? 'unknown';
  const commit = quiet('git', ['rev-parse', '--short', 'HEAD']);
  const dirty = quiet('git', ['status', '--porcelain']) !== '';
  return {
    cpu,
    cores: os.availableParallelism(),
    ramGiB: Math.round(os.totalmem() / 1024 ** 3),
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    chromium: quiet(chromePath(), ['--version']) || 'not found',
    commit: commit ? `${commit}${dirty ? ' with uncommitted changes' : ''}` : 'unknown',
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
  };
}
