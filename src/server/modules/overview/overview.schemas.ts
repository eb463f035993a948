export * from '../../../contracts/overview.js';
