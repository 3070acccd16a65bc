import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeSync, fsyncSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../config';

/**
 * One server per data directory. PGlite 0.5.16 has no lock of its own across processes: it writes a
 * postmaster.pid with the fixed pid -42 and never checks it, so two servers would share (and corrupt) one
 * directory. The lock is a file created exclusively ('wx'), so two servers starting in the same instant
 * cannot both create it.
 */
export const LOCK_FILE = 'server.lock';

interface LockOwner {
  pid: number;
  host: string;
  startedAt: string;
  /** Tells this holder's file from a newer one written after a takeover. */
  token: string;
}

export interface DataDirLock {
  /** Removes the lock file if it is still ours; safe to call twice. */
  release(): void;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

function readOwner(path: string): LockOwner | null {
  try {
    const owner = JSON.parse(readFileSync(path, 'utf8')) as Partial<LockOwner>;
    return typeof owner.pid === 'number' && typeof owner.token === 'string' ? owner as LockOwner : null;
  } catch {
    return null;
  }
}

/** Whether the process that wrote the lock is still running (and is not this very process reusing its pid). */
function isAlive(pid: number): boolean {
  if (pid === process.pid || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function createExclusive(path: string, content: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return true;
}

function removeIfUnchanged(path: string, token: string): void {
  if (readOwner(path)?.token === token) unlinkSync(path);
}

/**
 * Takes the data directory's lock, or throws a ConfigError naming the server that holds it. A lock left by a
 * process that no longer runs is taken over (with one warning). Between a crash after the exclusive create
 * and the write, the file is empty for a moment: an unreadable lock younger than 2 s is waited for.
 */
export async function lockDataDir(dataDir: string, warn: (message: string) => void = console.warn): Promise<DataDirLock> {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, LOCK_FILE);
  const guardPath = `${path}.takeover`;
  const me: LockOwner = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString(), token: randomBytes(8).toString('hex') };
  const deadline = Date.now() + 5_000;
  while (Date.now() < deadline) {
    if (createExclusive(path, `${JSON.stringify(me)}\n`)) {
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        process.off('exit', release);
        try {
          removeIfUnchanged(path, me.token);
        } catch { /* already gone */ }
      };
      // A process.exit() elsewhere still frees the directory.
      process.on('exit', release);
      return { release };
    }
    const owner = readOwner(path);
    if (!owner) {
      const age = (() => {
        try {
          return Date.now() - statSync(path).mtimeMs;
        } catch {
          return 0;
        }
      })();
      if (age < 2_000) {
        await sleep(50);
        continue;
      }
    } else if (isAlive(owner.pid)) {
      throw new ConfigError(`another TV Checkout server (pid ${owner.pid} on ${owner.host}, started ${owner.startedAt}) is using the data directory ${dataDir}; stop it first, or give this one its own DATA_DIR (the lock is ${path}).`);
    }
    // Stale: one newcomer at a time takes it over, and only if it is still the same stale file.
    if (!createExclusive(guardPath, `${process.pid}\n`)) {
      try {
        if (Date.now() - statSync(guardPath).mtimeMs > 10_000) unlinkSync(guardPath);
      } catch { /* gone meanwhile */ }
      await sleep(50);
      continue;
    }
    try {
      const again = readOwner(path);
      if (again?.token === owner?.token) {
        try {
          unlinkSync(path);
        } catch { /* gone meanwhile */ }
        warn(owner
          ? `Taking over the data directory ${dataDir}: its lock was left by pid ${owner.pid} (started ${owner.startedAt}), which no longer runs.`
          : `Taking over the data directory ${dataDir}: its lock file was empty (left by a crash).`);
      }
    } finally {
      unlinkSync(guardPath);
    }
  }
  throw new ConfigError(`the data directory ${dataDir} is locked (${path}) and its lock could not be taken within 5 s.`);
}
