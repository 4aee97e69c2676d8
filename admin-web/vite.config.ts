// The console is served by the admin service from dist/ (same origin as /graphql). `npm run dev`
// serves it with hot reload and forwards /graphql to an admin started with `npm start`.
import react from '@vitejs/plugin-react';
import { docsPages } from './docs-pages.ts';
import { defineConfig } from 'vite';

export default defineConfig(({ command }) => ({
  plugins: [react(), docsPages()],
  // The build's table of files (about 100 lines on every first `npm start`) only at LOG_LEVEL=debug;
  // warnings and errors always. The dev server keeps its address line.
  logLevel: command === 'build' && process.env.LOG_LEVEL !== 'debug' ? 'warn' : 'info',
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    emptyOutDir: true,
    // The served Content-Security-Policy has `script-src 'self'`: nothing may be inlined as a script.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 1500,
  },
  server: {
    proxy: Object.fromEntries(
      ['/graphql', '/events'].map((path) => [path, process.env.INTAKE_ADMIN_URL ?? 'http://127.0.0.1:4000']),
    ),
  },
}));
