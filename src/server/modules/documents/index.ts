/** The documents module's public face: all that other modules and the composition root may import from it. */
export { currentDocumentsOf, type DocumentRow, findDocument } from './documents.data.js';
export { documentsRoutes } from './documents.routes.js';
export { idParams } from './documents.schemas.js';
export {
  createDocumentsService,
  createGeneratedDocuments,
  type GeneratedDocument,
  type GeneratedDocuments,
} from './documents.service.js';
export { storageSweepJob } from './storage-sweep.job.js';
