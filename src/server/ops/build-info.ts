import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../project-root';
import type { BuildInfo } from './metrics';

/** The commit a git checkout is at, read from .git (no git process); null where the build came without one. */
function gitCommit(root: string): string | null {
  try {
    const gitDir = join(root, '.git');
    // A worktree's .git is a file naming its git directory.
    const dir = existsSync(join(gitDir, 'HEAD')) ? gitDir : readFileSync(gitDir, 'utf8').replace(/^gitdir:\s*/, '').trim();
    const head = readFileSync(join(dir, 'HEAD'), 'utf8').trim();
    if (/^[0-9a-f]{40}$/.test(head)) return head;
    const ref = /^ref:\s*(\S+)$/.exec(head)?.[1];
    if (!ref) return null;
    const commonDir = existsSync(join(dir, 'commondir')) ? join(dir, readFileSync(join(dir, 'commondir'), 'utf8').trim()) : dir;
    for (const base of [dir, commonDir]) {
      if (existsSync(join(base, ref))) return readFileSync(join(base, ref), 'utf8').trim();
    }
    const packed = existsSync(join(commonDir, 'packed-refs')) ? readFileSync(join(commonDir, 'packed-refs'), 'utf8') : '';
    return packed.split('\n').find((line) => line.endsWith(` ${ref}`))?.slice(0, 40) ?? null;
  } catch {
    return null;
  }
}

/** package.json's version and the git commit the server runs from ("unknown" without a git checkout). */
export function buildInfo(root: string = projectRoot): BuildInfo {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string };
  const commit = gitCommit(root);
  return { version: version ?? 'unknown', commit: commit && /^[0-9a-f]{40}$/.test(commit) ? commit : 'unknown' };
}
