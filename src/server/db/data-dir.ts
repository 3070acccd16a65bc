import { chmodSync, lstatSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The embedded store's directory, created (or narrowed) to its owner alone before anything is written in it. */
export function createPrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/**
 * Everything in the store's directory made its owner's alone: folders 0700, files 0600. PGlite writes its
 * files 0666 whatever the umask, so they are tightened once the store is open and again at close; between
 * the two, the folder's own 0700 keeps other users out of what it creates.
 */
export function secureDataDir(dir: string): void {
  const tighten = (path: string) => {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return;
    if (stat.isDirectory()) {
      if ((stat.mode & 0o777) !== 0o700) chmodSync(path, 0o700);
      for (const entry of readdirSync(path)) tighten(join(path, entry));
    } else if ((stat.mode & 0o777) !== 0o600) {
      chmodSync(path, 0o600);
    }
  };
  tighten(dir);
}
