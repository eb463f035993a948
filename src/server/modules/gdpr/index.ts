/** The gdpr module's public face: all that other modules and the composition root may import from it. */
export { createGdprModule } from './gdpr.module.js';
export { processingOfMember } from './gdpr-export.data.js';
