export * from '../../../contracts/remittances.js';
export { idParams } from './contributions.schemas.js';
