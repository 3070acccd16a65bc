/** `npm start`'s first step: builds the SPA, the server, the store template and the API reference only when their sources changed since the last build. */
import { API_DOCS_TARGET, BUILD_TARGETS, buildIfStale, STORE_TEMPLATE_TARGET } from './lib/build-if-stale';

try {
  // One line per step built; the server then prints where it is.
  buildIfStale({ targets: [...BUILD_TARGETS, STORE_TEMPLATE_TARGET, API_DOCS_TARGET], quiet: true });
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
