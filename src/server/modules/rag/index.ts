/** The rag module's public face: all that other modules and the composition root may import from it. */
export { createCorpusIngest } from './ingest.service.js';
export { ragRoutes } from './rag.routes.js';
export { type RetrievedChunk, retrieve } from './retrieval.data.js';
export { ingestShippedCorpus } from './shipped-corpus.service.js';
