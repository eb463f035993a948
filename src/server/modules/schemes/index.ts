/** The schemes module's public face: all that other modules and the composition root may import from it. */
export { findScheme, liveSchemeOf, type SchemeRow } from './schemes.data.js';
export { createSchemesModule } from './schemes.module.js';
export { refuseChangesBeneath, refuseWoundUp, type SchemesService } from './schemes.service.js';
