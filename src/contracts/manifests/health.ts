import { get } from '../route-kit.js';
import { defineManifest } from './manifest.js';

/** The health module's routes (src/contracts/manifests/manifest.ts). */
export const healthManifest = defineManifest({
  name: 'health',
  routes: {
    health: {
      live: get('/api/health/live'),
      db: get('/api/health/db'),
      ready: get('/api/health/ready'),
      /** Prometheus text, behind METRICS_SECRET. */
      metrics: get('/api/health/metrics'),
    },
  },
});
