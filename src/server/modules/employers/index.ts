/** The employers module's public face: all that other modules and the composition root may import from it. */
export { type EmployerRow, findEmployer, liveEmployerOf } from './employers.data.js';
export { createEmployersModule } from './employers.module.js';
export { employerParams } from './employers.schemas.js';
export type { EmployersService } from './employers.service.js';
