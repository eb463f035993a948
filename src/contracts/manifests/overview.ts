import { dashboardView, overviewView } from '../overview.js';
import { portfolioEmployers, portfolioSchemes, portfolioSchemesQuery } from '../portfolio.js';
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
    /** The employers and schemes lists, each row with its members, standing and last period. */
    portfolio: {
      employers: get('/api/portfolio/employers', { answer: portfolioEmployers }),
      schemes: get('/api/portfolio/schemes', {
        query: portfolioSchemesQuery,
        answer: portfolioSchemes,
      }),
    },
  },
});
