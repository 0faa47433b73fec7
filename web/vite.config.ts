import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type ProxyOptions } from 'vite';

// The product server owns these paths in production; in development Vite proxies them so the
// browser talks to a single origin, exactly as it will behind the real server.
const productServer = 'http://localhost:3000';
const serverPaths = ['/api', '/__clerk', '/__clerk-js', '/__dev', '/app-config.json', '/assets'];

// Host is kept as the Vite origin (no changeOrigin) so URLs and cookies minted by the server and the
// identity provider point back at the page the browser is actually on.
const proxy: Record<string, ProxyOptions> = Object.fromEntries(
  serverPaths.map((path) => [path, { target: productServer, xfwd: true }]),
);

/**
 * The server serves the clerk-js it depends on at /__clerk-js/<version>/clerk.browser.js in every mode
 * (server/src/static/clerk-js.ts), so its address is known when the page is built. Preloading it from
 * index.html downloads it alongside our own scripts instead of after them (main.tsx adds the script once
 * the app config is known, see startClerkJs). crossorigin="anonymous" is how that script, and
 * clerk-react's own loader, ask for it: a preload is only used by a request of the same mode.
 */
function preloadClerkJs(): Plugin {
  const require = createRequire(new URL('../server/package.json', import.meta.url));
  const { version } = require('@clerk/clerk-js/package.json') as { version: string };
  return {
    name: 'preload-clerk-js',
    transformIndexHtml: () => [
      {
        tag: 'link',
        attrs: {
          rel: 'preload',
          as: 'script',
          crossorigin: 'anonymous',
          href: `/__clerk-js/${version}/clerk.browser.js`,
        },
        injectTo: 'head',
      },
    ],
  };
}

export default defineConfig({
  // Resolve paths from this file so the build behaves the same from the repo root or from web/.
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react(), preloadClerkJs()],
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
  },
  server: { proxy },
  preview: { proxy },
});
