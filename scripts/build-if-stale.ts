/** `npm start`'s first step: builds the SPA, the server and the API reference only when their sources changed since the last build. */
import { API_DOCS_TARGET, BUILD_TARGETS, buildIfStale } from './lib/build-if-stale';

try {
  buildIfStale({ targets: [...BUILD_TARGETS, API_DOCS_TARGET] });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
