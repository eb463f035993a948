import type { PlatformParts, ServerModule } from '../../platform/composition/server-module.js';
import { membersRoutes } from './members.routes.js';
import { createMembersService, type MembersService } from './members.service.js';

/** A scheme's members (docs/decisions/0128-modules-compose-their-services.md). */
export function createMembersModule({
  database,
  audit,
  ppsKeyring,
  now,
}: PlatformParts): ServerModule<{ members: MembersService }> {
  const members = createMembersService({ database, audit, ppsKeyring, now });
  return {
    services: { members },
    routes: async (app) => {
      await app.register(membersRoutes, { members });
    },
  };
}
