import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiRoutes } from '../../../contracts/api-routes.js';
import { pageOf } from '../../../contracts/pages.js';
import { errorBody } from '../../platform/http/http-error.js';
import { routeOf } from '../../platform/http/route-of.js';
import { actorOf } from '../../platform/tenancy/request-context.js';
import {
  aiSettingsInput,
  aiSettingsView,
  CHAT_EVENTS,
  chatRequest,
  chatResponse,
  draftChange,
  draftInput,
  draftView,
  idParams,
  pageQuery,
} from './ai.schemas.js';
import type { ChatEvent, ChatService } from './chat.service.js';
import type { DraftsService } from './drafts.service.js';
import type { AiSettingsService } from './settings.service.js';

const readErrors = { 400: errorBody, 403: errorBody, 404: errorBody };
const writeErrors = { ...readErrors, 409: errorBody, 429: errorBody, 503: errorBody };

/** One server-sent event: its name and its data as one line of JSON. */
const sse = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

/** Streamed when the client asks for server-sent events (and the JSON body otherwise). */
const wantsEventStream = (accept: string | undefined) =>
  (accept ?? '').toLowerCase().includes('text/event-stream');

async function* eventStream(events: AsyncIterable<ChatEvent>): AsyncIterable<string> {
  for await (const event of events) {
    yield event.type === 'delta'
      ? sse(CHAT_EVENTS.delta, { text: event.text })
      : sse(CHAT_EVENTS.done, event.response);
  }
}

/**
 * The AI endpoints (docs/api.md, "The AI assistant"). Thin: each route names its action of the
 * policy table and hands the request to its service. All are behind the session gate (/api/, not
 * public).
 */
export const aiRoutes: FastifyPluginAsyncZod<{
  chat: ChatService;
  settings: AiSettingsService;
  drafts: DraftsService;
}> = async (app, { chat, settings, drafts }) => {
  const tags = ['ai'];

  app.route({
    ...routeOf(apiRoutes.ai.chat),
    config: { action: 'ai.chat' },
    schema: {
      summary:
        'Ask about the regulations: an answer from the retrieved sources with their citations. With Accept: text/event-stream, `delta` events carry the text as it is written and a final `done` event the same body as JSON, which is the answer that counts.',
      tags,
      body: chatRequest,
      response: { 200: chatResponse, ...writeErrors },
    },
    handler: async (request, reply) => {
      if (wantsEventStream(request.headers.accept)) {
        const events = await chat.askStreaming(actorOf(request), request.body.question);
        // A stream is piped as it is, past the JSON serializer the 200 schema describes.
        return reply
          .header('content-type', 'text/event-stream; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(Readable.from(eventStream(events)) as never);
      }
      return chat.ask(actorOf(request), request.body.question);
    },
  });

  app.route({
    ...routeOf(apiRoutes.ai.settings),
    config: { action: 'ai.settings.read' },
    schema: {
      summary:
        "Whether the firm's own AI provider key is set (never the key), its limits and this month's usage.",
      tags,
      response: { 200: aiSettingsView, ...readErrors },
    },
    handler: async (request) => settings.read(actorOf(request)),
  });
  app.route({
    ...routeOf(apiRoutes.ai.updateSettings),
    config: { action: 'ai.settings.update' },
    schema: {
      summary:
        "Set the firm's own AI provider key (null: use the platform's) and its monthly limits (null: the platform's defaults).",
      tags,
      body: aiSettingsInput,
      response: { 200: aiSettingsView, ...readErrors },
    },
    handler: async (request) => settings.update(actorOf(request), request.body),
  });

  app.route({
    ...routeOf(apiRoutes.drafts.create),
    config: { action: 'ai.draft.create' },
    schema: {
      summary:
        'Draft a written policy, an ORA outline or a key function holder appointment letter from the scheme’s facts (no personal data).',
      tags,
      body: draftInput,
      response: { 201: draftView, ...writeErrors },
    },
    handler: async (request, reply) =>
      reply.code(201).send(await drafts.create(actorOf(request), request.body)),
  });
  app.route({
    ...routeOf(apiRoutes.drafts.listOfScheme),
    config: { action: 'ai.draft.list' },
    schema: {
      summary: "A scheme's drafts, latest first.",
      tags,
      params: idParams,
      querystring: pageQuery,
      response: { 200: pageOf(draftView), ...readErrors },
    },
    handler: async (request) => drafts.list(actorOf(request), request.params.id, request.query),
  });
  app.route({
    ...routeOf(apiRoutes.drafts.get),
    config: { action: 'ai.draft.read' },
    schema: {
      summary: 'A draft.',
      tags,
      params: idParams,
      response: { 200: draftView, ...readErrors },
    },
    handler: async (request) => drafts.read(actorOf(request), request.params.id),
  });
  app.route({
    ...routeOf(apiRoutes.drafts.update),
    config: { action: 'ai.draft.update' },
    schema: {
      summary: "Edit a draft's text while it is a draft or reviewed (it then needs a new review).",
      tags,
      params: idParams,
      body: draftChange,
      response: { 200: draftView, ...writeErrors },
    },
    handler: async (request) => drafts.update(actorOf(request), request.params.id, request.body),
  });
  for (const [step, action, summary] of [
    ['review', 'ai.draft.review', 'Mark a draft as reviewed.'],
    [
      'approve',
      'ai.draft.approve',
      'Approve a reviewed draft, recording who, when, and what changed from the generated text.',
    ],
    [
      'issue',
      'ai.draft.issue',
      'Issue an approved draft (a written policy: as a new draft version of that policy, for the trustees to approve).',
    ],
  ] as const) {
    app.route({
      ...routeOf(apiRoutes.drafts[step]),
      config: { action },
      schema: {
        summary,
        tags,
        params: idParams,
        response: { 200: draftView, ...writeErrors },
      },
      handler: async (request) => drafts[step](actorOf(request), request.params.id),
    });
  }
};
