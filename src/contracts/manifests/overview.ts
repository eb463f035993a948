import { dashboardView, overviewView } from '../overview.js';
import { get } from '../route-kit.js';
import { defineManifest } from './manifest.js';

/** The overview module's routes (src/contracts/manifests/manifest.ts). */
export const overviewManifest = defineManifest({
  name: 'overview',
  routes: {
    overview: {
      get: get('/api/overview', { answer: overviewView }),
      /** What the firm's dashboard shows, in one request. */
      dashboard: get('/api/overview/dashboard', { answer: dashboardView }),
    },
  },
});
