import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** Writes .br and .gz beside every text asset once, so the server sends them compressed at no cost per request. */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'tvc:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      const files = readdirSync(outDir, { recursive: true, encoding: 'utf8' }).filter((file) => /\.(js|css|json|html|svg)$/.test(file));
      for (const file of files) {
        const path = join(outDir, file);
        const content = readFileSync(path);
        writeFileSync(`${path}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } }));
        writeFileSync(`${path}.gz`, gzipSync(content, { level: 9 }));
      }
    },
  };
}

/**
 * The machines describe every state and transition for their diagrams and docs (scripts/statecharts);
 * the shopper's bundle never reads those texts, so the build blanks them out (with spaces and the
 * same line breaks, so every position and the source maps stay as they were).
 */
function stripMachineDescriptions(): Plugin {
  return {
    name: 'tvc:strip-machine-descriptions',
    apply: 'build',
    transform: {
      filter: { id: /[\\/]machines[\\/][\w-]+\.machine\.ts$/ },
      handler(code) {
        let blanked = code;
        const blank = (start: number, end: number) => {
          blanked = blanked.slice(0, start) + blanked.slice(start, end).replace(/[^\n]/g, ' ') + blanked.slice(end);
        };
        const visit = (node: unknown): void => {
          if (Array.isArray(node)) return node.forEach(visit);
          if (typeof node !== 'object' || node === null) return;
          const { type, properties } = node as { type?: string; properties?: { type: string; computed?: boolean; key: { name?: string }; start: number; end: number }[] };
          if (type === 'ObjectExpression' && properties) {
            for (const property of properties) {
              if (property.type === 'Property' && !property.computed && property.key.name === 'description') {
                blank(property.start, code[property.end] === ',' ? property.end + 1 : property.end);
              }
            }
          }
          Object.values(node).forEach(visit);
        };
        visit(this.parse(code));
        return { code: blanked, map: null };
      },
    },
  };
}

/** The SPA is served under /checkout/ by the Fastify server. */
export default defineConfig({
  base: '/checkout/',
  plugins: [react(), stripMachineDescriptions(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // No polyfill (every supported browser preloads modules); the page preloads the entry's imports,
    // while the lazy views need only chunks the first screen already loaded.
    modulePreload: { polyfill: false, resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? deps : []) },
    rolldownOptions: {
      output: {
        // Everything the first screen needs (libraries included) is one chunk: no cross-chunk glue, one
        // request, within the 140 kB budget. The other views split off by their dynamic imports
        // (src/app/router.tsx); translations are JSON assets (src/i18n).
        codeSplitting: { groups: [{ name: 'index', tags: ['$initial'] }] },
      },
    },
  },
});
