import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The server swaps this placeholder for a fresh CSP nonce on every response (src/server/platform/http/web-ui.ts).
const NONCE_PLACEHOLDER = '__CSP_NONCE__';

export default defineConfig({
  root: 'src/web',
  plugins: [react()],
  html: { cspNonce: NONCE_PLACEHOLDER },
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    // Generated for error tracking, never referenced from the served files.
    sourcemap: 'hidden',
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:3000' },
  },
});
