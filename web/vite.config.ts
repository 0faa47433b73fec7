import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type ProxyOptions } from 'vite';

// The product server owns these paths in production; in development Vite proxies them so the
// browser talks to a single origin, exactly as it will behind the real server.
const productServer = 'http://localhost:3000';
const serverPaths = ['/api', '/__clerk', '/__clerk-js', '/__dev', '/app-config.json', '/assets'];

// Host is kept as the Vite origin (no changeOrigin) so URLs and cookies minted by the server and the
// identity provider point back at the page the browser is actually on.
const proxy: Record<string, ProxyOptions> = Object.fromEntries(
  serverPaths.map((path) => [path, { target: productServer, xfwd: true }]),
);

export default defineConfig({
  // Resolve paths from this file so the build behaves the same from the repo root or from web/.
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
  },
  server: { proxy },
  preview: { proxy },
});
