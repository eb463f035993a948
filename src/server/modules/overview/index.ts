/** The overview module's public face: all that other modules and the composition root may import from it. */

export { createDashboardService } from './dashboard.service.js';
export { overviewRoutes } from './overview.routes.js';
export { createOverviewService } from './overview.service.js';
