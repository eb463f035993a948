/** The users module's public face: all that other modules and the composition root may import from it. */

export { createUsersModule } from './users.module.js';
export type { UsersService } from './users.service.js';
