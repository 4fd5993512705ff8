import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

// The dashboard is served by the service itself under /dashboard/ with a strict CSP
// (script-src 'self'; style-src 'self'): no inline script, no inline style, no CDN.
export default defineConfig({
  root,
  base: '/dashboard/',
  // esbuild's own JSX transform: a Preact plugin would pull a newer Vite than vitest 3 accepts.
  esbuild: { jsx: 'automatic', jsxImportSource: 'preact' },
  build: {
    outDir: fileURLToPath(new URL('../dist/dashboard/', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    // The polyfill would be bundled anyway, but every supported browser has modulepreload.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
  },
  server: {
    // `npx vite dashboard` during development: the API comes from a running service.
    proxy: {
      '/v1': process.env.CV_API ?? 'http://127.0.0.1:8080',
      '/health': process.env.CV_API ?? 'http://127.0.0.1:8080',
      '/dashboard/api': process.env.CV_API ?? 'http://127.0.0.1:8080',
    },
  },
});
