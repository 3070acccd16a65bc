import { createHash } from 'node:crypto';
import { PAGE_SCRIPTS } from '../domain/page-scripts';

/** The CSP sources that allow the pages' own inline scripts, and no other inline script: one SHA-256 hash each. */
export const PAGE_SCRIPT_SOURCES: readonly string[] = PAGE_SCRIPTS.map((script) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`);
