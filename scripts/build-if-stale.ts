/** `npm start`'s first step: builds the SPA and the server only when their sources changed since the last build. */
import { buildIfStale } from './lib/build-if-stale';

try {
  buildIfStale();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
