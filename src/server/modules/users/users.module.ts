import type { PlatformParts, ServerModule } from '../../platform/composition/server-module.js';
import { usersRoutes } from './users.routes.js';
import { createUsersService, type UsersService } from './users.service.js';

/** A firm's accounts (docs/decisions/0128-modules-compose-their-services.md). */
export function createUsersModule(parts: PlatformParts): ServerModule<{ users: UsersService }> {
  const users = createUsersService(parts);
  return {
    services: { users },
    routes: async (app) => {
      await app.register(usersRoutes, { users });
    },
  };
}
