import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { spawnSync } from 'node:child_process';
import { defineConfig, runnerImport, type Plugin } from 'vite';

/** Writes .br and .gz beside every text asset once, so the server sends them compressed at no cost per request. */
function precompress(): Plugin {
  let outDir = 'dist';
  let ssr = false;
  return {
    name: 'tvc:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
      ssr = Boolean(config.build.ssr);
    },
    closeBundle() {
      // Nothing was written when the build failed (its error is the one to see); the server's render bundle is read from disk, never sent.
      if (ssr || !existsSync(outDir)) return;
      const files = readdirSync(outDir, { recursive: true, encoding: 'utf8' }).filter((file) => /\.(js|css|json|html|svg)$/.test(file) && !file.startsWith(`${SSR_DIR}/`));
      for (const file of files) {
        const path = join(outDir, file);
        const content = readFileSync(path);
        writeFileSync(`${path}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } }));
        writeFileSync(`${path}.gz`, gzipSync(content, { level: 9 }));
      }
    },
  };
}

/** The keys of a machine's state and transition configs that only its diagrams read. */
const DIAGRAM_TEXTS = new Set(['description', 'meta']);

/**
 * The machines describe every state and transition for their diagrams, docs and the studio (scripts/statecharts,
 * scripts/studio: `description` and `meta`, in the machine files and the parts they are built from); the shopper's
 * bundle never reads those texts, so the build blanks them out (with spaces and the same line breaks, so every
 * position and the source maps stay as they were).
 */
function stripMachineDescriptions(): Plugin {
  return {
    name: 'tvc:strip-machine-descriptions',
    apply: 'build',
    transform: {
      filter: { id: { include: /[\\/]machines[\\/][\w.-]+\.ts$/, exclude: /\.test\.ts$/ } },
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
              if (property.type === 'Property' && !property.computed && DIAGRAM_TEXTS.has(property.key.name ?? '')) {
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

/**
 * Vite wraps every dynamic import in its preload helper, which loads the chunk's dependencies
 * first; this build asks for none (modulePreload.resolveDependencies below gives [] to scripts, and
 * the one stylesheet is in the page), so the helper only calls the import: it is replaced by that call.
 */
function plainDynamicImports(): Plugin {
  return {
    name: 'tvc:plain-dynamic-imports',
    apply: 'build',
    enforce: 'pre',
    load: {
      filter: { id: /^\0vite\/preload-helper\.js$/ },
      handler: () => 'export const __vitePreload = (load) => load();',
    },
  };
}

/** The folder of the build (beside the SPA, never served) holding the server's render of the pages (src/app/entry-server.tsx). */
const SSR_DIR = 'ssr';

/**
 * After the SPA, the server's render bundle of the same sources (`vite build --ssr`) into <outDir>/ssr, so
 * every build of the SPA (npm run build, build-if-stale, the journeys' build/e2e-dist) has the one that matches it.
 */
function serverRenderBuild(): Plugin {
  let outDir = 'dist';
  let ssr = false;
  return {
    name: 'tvc:server-render-build',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
      ssr = Boolean(config.build.ssr);
    },
    closeBundle() {
      // A failed build, the render build itself, or another app built with this config (the benchmark's floor) has none.
      if (ssr || !existsSync(join(outDir, 'pages', 'template.html'))) return;
      // A build of its own (a nested build inside this one's hooks is cancelled by rolldown).
      const vite = join(import.meta.dirname, 'node_modules/vite/bin/vite.js');
      const args = [vite, 'build', '--ssr', 'src/app/entry-server.tsx', '--outDir', join(outDir, SSR_DIR), '--emptyOutDir', '--logLevel', 'warn'];
      // Production JSX to match the production React it bundles (a NODE_ENV=test inherited from a test runner would compile jsxDEV calls).
      const run = spawnSync(process.execPath, args, { cwd: import.meta.dirname, stdio: 'inherit', env: { ...process.env, NODE_ENV: 'production' } });
      if (run.status !== 0) throw new Error(`the server render build failed (exit ${run.status})`);
    },
  };
}

/** Where index.html wants the prerendered first screen. */
const APP_MARKER = '<!--app-->';

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const text = (source: string | Uint8Array) => (typeof source === 'string' ? source : Buffer.from(source).toString('utf8'));

/**
 * What the server's pages are made of (src/server/spa.ts renders each per request into them, so the
 * first paint needs no script): index.html with its stylesheet inlined (one round trip fewer) and its
 * module loaded after the first paint as the template, and per locale the starting shell (src/app/prerender.tsx)
 * the server falls back to when it cannot render. index.html is the default locale's shell. Pages go to
 * pages/ (the server does not serve that folder).
 */
function prerenderPages(): Plugin {
  let base = '/';
  return {
    name: 'tvc:prerender-pages',
    apply: 'build',
    enforce: 'post',
    configResolved(config) {
      base = config.base;
    },
    async generateBundle(_options, bundle) {
      const index = bundle['index.html'];
      if (index?.type !== 'asset') return;
      const inlined = text(index.source).replace(/<link rel="stylesheet"[^>]*? href="([^"]+)"[^>]*>/g, (tag, href: string) => {
        const stylesheet = bundle[href.slice(base.length)];
        return stylesheet?.type === 'asset' ? `<style>${text(stylesheet.source).trim()}</style>` : tag;
      });
      index.source = inlined;
      // A build of another app with this config (the benchmark's floor) has no first screen to prerender.
      if (!inlined.includes(APP_MARKER)) return;
      // The prerendered page paints without the script: the head captures what the shopper does until the app
      // hydrates, and the app's module is requested only after the first paint (src/domain/page-scripts.ts).
      const runner = { configFile: false, root: import.meta.dirname, logLevel: 'error' } as const;
      const { module: scripts } = await runnerImport<typeof import('./src/domain/page-scripts')>(join(import.meta.dirname, 'src/domain/page-scripts.ts'), runner);
      let entry = '';
      const template = inlined
        .replace(/<script type="module" crossorigin src="([^"]+)"><\/script>/, (_tag, src: string) => {
          entry = src;
          return `<script>${scripts.CAPTURE_SCRIPT}</script>`;
        })
        .replace(/(\s*)<\/body>/, (_match, space: string) => `${space}  <script data-src="${entry}">${scripts.LOADER_SCRIPT}</script>${space}</body>`);
      if (!entry) throw new Error('prerender: index.html has no module script to load after the first paint');

      const { module: prerender } = await runnerImport<typeof import('./src/app/prerender')>(join(import.meta.dirname, 'src/app/prerender.tsx'), runner);
      // The server renders each page into this template (src/server/server-render.ts), its translations in the page's data.
      this.emitFile({ type: 'asset', fileName: 'pages/template.html', source: template });
      for (const locale of prerender.LOCALES) {
        const page = (screen: { lang: string; title: string; html: string }) =>
          template
            .replace(/<html lang="[^"]*">/, `<html lang="${screen.lang}">`)
            .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(screen.title)}</title>`)
            .replace(`<div id="root">${APP_MARKER}</div>`, `<div id="root">${screen.html}</div>`);
        const starting = page(prerender.renderStartingScreen(locale));
        this.emitFile({ type: 'asset', fileName: `pages/starting.${locale}.html`, source: starting });
        // The server's 500 page: static, no script to start (the app is what failed).
        const failed = page(prerender.renderServerErrorScreen(locale)).replace(/\s*<script\b[^>]*>[\s\S]*?<\/script>/g, '').replace(/\s*<noscript>[\s\S]*?<\/noscript>/, '');
        this.emitFile({ type: 'asset', fileName: `pages/error.${locale}.html`, source: failed });
        if (locale === 'en-en') index.source = starting;
      }
    },
  };
}

/** In development the page shows the starting shell until the app renders, as a built page shows its first screen. */
function startingShellInDev(): Plugin {
  return {
    name: 'tvc:starting-shell-dev',
    apply: 'serve',
    async transformIndexHtml(html, { server }) {
      if (!server || !html.includes(APP_MARKER)) return html;
      const prerender = (await server.ssrLoadModule('/src/app/prerender.tsx')) as typeof import('./src/app/prerender');
      return html.replace(APP_MARKER, prerender.renderStartingScreen('en-en').html);
    },
  };
}

/**
 * INSPECT=on builds the app with the statechart inspection hook (src/app/inspect) sending to the flow
 * studio's live view, INSPECT=record with the hook recording only (the browser journeys' coverage);
 * unset, the hook is not built at all. Such a build says so in inspect.json, which the server reads.
 */
function inspection(): { mode: '' | 'on' | 'record'; liveUrl: string; plugin: Plugin } {
  const value = process.env.INSPECT ?? '';
  const mode = value === 'on' || value === 'record' ? value : value === '' || value === 'off' ? '' : null;
  if (mode === null) throw new Error(`INSPECT=${value}: use on, record or off`);
  const liveUrl = `ws://localhost:${process.env.STUDIO_PORT || '3001'}/live`;
  const plugin: Plugin = {
    name: 'tvc:inspect-marker',
    apply: 'build',
    generateBundle() {
      if (mode) this.emitFile({ type: 'asset', fileName: 'inspect.json', source: `${JSON.stringify({ mode, live: mode === 'on' ? liveUrl : null })}\n` });
    },
  };
  return { mode, liveUrl, plugin };
}

const inspect = inspection();

/** The SPA is served under /checkout/ by the Fastify server. */
export default defineConfig(({ isSsrBuild }) => ({
  base: '/checkout/',
  // The server's render bundle carries its libraries, so it runs from its folder alone.
  ...(isSsrBuild ? { ssr: { noExternal: true } } : {}),
  plugins: [react(), stripMachineDescriptions(), plainDynamicImports(), prerenderPages(), startingShellInDev(), precompress(), serverRenderBuild(), inspect.plugin],
  define: {
    // The render bundle carries React as CommonJS, which picks its development or production build by
    // process.env.NODE_ENV when it runs (unset in the demo: the development one, and both to parse). The
    // browser gets the production build: so does the server's render, and the other is left out.
    ...(isSsrBuild ? { 'process.env.NODE_ENV': JSON.stringify('production') } : {}),
    'import.meta.env.VITE_INSPECT': JSON.stringify(inspect.mode),
    'import.meta.env.VITE_STUDIO_LIVE_URL': JSON.stringify(inspect.liveUrl),
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // No polyfill (every supported browser preloads modules); the page preloads the entry's imports,
    // while the lazy views need only chunks the first screen already loaded (plainDynamicImports relies on that).
    modulePreload: { polyfill: false, resolveDependencies: (_file, deps, { hostType }) => (hostType === 'html' ? deps : []) },
    rolldownOptions: {
      output: {
        // Everything the first screen needs (libraries included) is one chunk: no cross-chunk glue, one
        // request, within the 140 kB budget. The other views split off by their dynamic imports
        // (src/app/router.tsx); translations are JSON assets (src/i18n).
        codeSplitting: isSsrBuild ? false : { groups: [{ name: 'index', tags: ['$initial'] }] },
      },
    },
  },
}));
