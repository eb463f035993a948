import type { PlatformParts, ServerModule } from '../../platform/composition/server-module.js';
import { createMemberPageService, type MemberPageDeps } from './member-page.service.js';
import { portalRoutes } from './portal.routes.js';
import { createPortalService } from './portal.service.js';

/**
 * The member's own portal and the member page, composed from the services that own their parts
 * (docs/decisions/0118-pages-composed-on-the-server.md, 0128-modules-compose-their-services.md).
 */
export function createPortalModule(
  { database, audit, now }: PlatformParts,
  owners: Omit<MemberPageDeps, 'portal'>,
): ServerModule {
  const portal = createPortalService({ database, audit, now });
  const memberPage = createMemberPageService({ ...owners, portal });
  return {
    services: {},
    routes: async (app) => {
      await app.register(portalRoutes, { portal, memberPage });
    },
  };
}
