/** The ai module's public face: all that other modules and the composition root may import from it. */
export { aiRoutes } from './ai.routes.js';
export { createChatService, type Retrieve } from './chat.service.js';
export { createDraftsService } from './drafts.service.js';
export { createAiAccess, createAiSettingsService } from './settings.service.js';
