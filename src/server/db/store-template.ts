/**
 * The embedded store's template: a PGlite data directory initialised (initdb) and migrated at build time
 * (`npm run build:server`), so a server given an empty DATA_DIR copies it instead of running initdb (seconds
 * and ~800 MiB). It holds the schema only: no rows, no keys (the demo seed and the generated secrets are
 * written at start, per install). It is kept under a key made of the migration files and PGlite's version,
 * so a template made for other migrations is never used: the start falls back to initdb with a warning.
 */
import { createHash } from 'node:crypto';
import { constants, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire as requireFrom } from 'node:module';
import { dirname, join } from 'node:path';
import { projectRoot } from '../project-root';

/** Where `npm run build:server` writes templates, one folder per key. */
export const STORE_TEMPLATES_ROOT = join(projectRoot, 'build/store-template');

export const MIGRATIONS_FOLDER = join(projectRoot, 'src/server/db/migrations');

/** The file PostgreSQL writes last into a new data directory, and which PGlite reads to tell an existing one. */
const PG_VERSION = 'PG_VERSION';

/** PGlite's version: another PGlite may write another on-disk format, so it is part of the key. */
function pgliteVersion(): string {
  const entry = requireFrom(import.meta.url).resolve('@electric-sql/pglite');
  for (let dir = dirname(entry); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const { name, version } = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
      if (name === '@electric-sql/pglite') return String(version);
    }
  }
  throw new Error('The version of @electric-sql/pglite was not found');
}

/** The key of the current migrations: a hash of every file the migrator reads (SQL and journal) and PGlite's version. */
export function storeTemplateKey(migrationsFolder = MIGRATIONS_FOLDER): string {
  const hash = createHash('sha256').update(`pglite ${pgliteVersion()}\n`);
  const files = [...readdirSync(migrationsFolder).filter((name) => name.endsWith('.sql')).sort(), 'meta/_journal.json'];
  for (const file of files) hash.update(`${file}\n`).update(readFileSync(join(migrationsFolder, file))).update('\n');
  return hash.digest('hex').slice(0, 16);
}

/** The template folder for the current migrations (it may not exist). */
export function storeTemplateDir(root = STORE_TEMPLATES_ROOT, migrationsFolder = MIGRATIONS_FOLDER): string {
  return join(root, storeTemplateKey(migrationsFolder));
}

/** Whether a data directory holds no database yet (PGlite would run initdb on it). */
export function isNewDataDir(dataDir: string): boolean {
  return !existsSync(join(dataDir, PG_VERSION));
}

/**
 * Copies the current template into a data directory that holds no database yet and says whether it did;
 * without a template for these migrations it warns and returns false (the caller's PGlite runs initdb).
 * PG_VERSION is copied last, so a copy cut short is seen as new (and copied again) at the next start.
 */
export function startFromTemplate(dataDir: string, warn: (message: string) => void, root = STORE_TEMPLATES_ROOT): boolean {
  if (!isNewDataDir(dataDir)) return false;
  const template = storeTemplateDir(root);
  if (!existsSync(join(template, PG_VERSION))) {
    const others = existsSync(root) ? readdirSync(root).filter((name) => !name.startsWith('.')) : [];
    warn(`${others.length ? `The store template in ${root} was made for other migrations` : `No store template in ${root}`}; initialising the new data directory ${dataDir} from scratch (initdb, a few seconds). \`npm run build:server\` makes the template.`);
    return false;
  }
  // COPYFILE_FICLONE: a reflink where the filesystem has them, a plain copy elsewhere.
  const copy = { recursive: true, force: true, mode: constants.COPYFILE_FICLONE };
  for (const entry of readdirSync(template)) {
    if (entry !== PG_VERSION) cpSync(join(template, entry), join(dataDir, entry), copy);
  }
  cpSync(join(template, PG_VERSION), join(dataDir, PG_VERSION), copy);
  return true;
}

/**
 * Makes the template for the current migrations unless it exists, with `initialise` (the store's own open:
 * initdb and migrations on an empty directory, then close), in a scratch folder renamed into place when
 * complete. Templates of other keys are removed. Returns the template's folder and whether it was made now.
 */
export async function makeStoreTemplate(initialise: (dataDir: string) => Promise<void>, root = STORE_TEMPLATES_ROOT): Promise<{ dir: string; made: boolean }> {
  const dir = storeTemplateDir(root);
  if (existsSync(join(dir, PG_VERSION))) return { dir, made: false };
  mkdirSync(root, { recursive: true });
  const scratch = join(root, `.making-${process.pid}`);
  rmSync(scratch, { recursive: true, force: true });
  try {
    await initialise(scratch);
    rmSync(dir, { recursive: true, force: true });
    renameSync(scratch, dir);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  for (const other of readdirSync(root)) {
    if (join(root, other) !== dir && !other.startsWith('.making-')) rmSync(join(root, other), { recursive: true, force: true });
  }
  return { dir, made: true };
}
