/** The lifecycle module's public face: all that other modules and the composition root may import from it. */
export { createLifecycleModule } from './lifecycle.module.js';
export type { LifecycleService } from './lifecycle.service.js';
