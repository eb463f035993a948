/**
 * A page composed on the server (docs/decisions/0118-pages-composed-on-the-server.md) hands each of
 * its panels its part through the query cache, under the key the panel reads it by. A part handed
 * over is taken as fresh this long, so that the panels do not ask again as they mount; a change
 * that makes one stale still has it read again.
 */
export const SEEDED_FRESH_MS = 30_000;
