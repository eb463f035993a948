/** The users module's public face: all that other modules and the composition root may import from it. */
export { usersRoutes } from './users.routes.js';
export type { UsersService } from './users.service.js';
export { createUsersService } from './users.service.js';
