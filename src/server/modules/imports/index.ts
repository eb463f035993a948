/** The imports module's public face: all that other modules and the composition root may import from it. */
export { importSweepJob } from './import-sweep.job.js';
export { createImportsModule } from './imports.module.js';
