/** The statements module's public face: all that other modules and the composition root may import from it. */
export { createStatementsModule } from './statements.module.js';
