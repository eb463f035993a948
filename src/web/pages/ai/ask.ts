import { CHAT_EVENTS } from '../../../contracts/ai';
import { apiRoutes } from '../../../contracts/api-routes';
import { chatResponse } from '../../api/answers';
import { refusalOf, UnexpectedAnswerError, urlOf } from '../../api/client';
import { readEventStream } from '../../api/event-stream';
import type { ChatAnswer } from '../../api/types';

const PATH = urlOf(apiRoutes.ai.chat);

/**
 * Asks the question, the answer streamed (`Accept: text/event-stream`,
 * docs/decisions/0066-ai-provider-guard-and-chat.md) so that the first words show while the rest is
 * written: `delta` events carry text, which `onProgress` sees as it grows, and the `done` event the
 * whole answer with its sources, which is the one that counts. Resolves with that answer, checked
 * against the API's own schema; a refusal before the stream began (400, 429, 503) rejects with an
 * ApiError, a stream that ends before its `done` event with an AnswerCutOffError.
 */
export async function askQuestion(
  question: string,
  signal: AbortSignal,
  onProgress: (textSoFar: string) => void,
): Promise<ChatAnswer> {
  const response = await fetch(PATH, {
    method: apiRoutes.ai.chat.method,
    credentials: 'same-origin',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ question }),
    signal,
  });
  if (!response.ok) {
    throw refusalOf(response.status, await response.json().catch(() => null), PATH);
  }
  // A server may answer a stream request in one piece (nothing to stream): the same shape.
  if (!response.headers.get('content-type')?.startsWith('text/event-stream') || !response.body) {
    return parsed(await response.json().catch(() => null));
  }
  let text = '';
  for await (const { event, data } of readEventStream(response.body)) {
    const payload = JSON.parse(data) as unknown;
    if (event === CHAT_EVENTS.done) return parsed(payload);
    const piece = (payload as { text?: unknown } | null)?.text;
    if (event === CHAT_EVENTS.delta && typeof piece === 'string') {
      text += piece;
      onProgress(text);
    }
  }
  // The stream ended without its closing event (the provider failed mid-answer, the connection
  // dropped): the text so far was never checked against its sources, so it is not the answer.
  throw new AnswerCutOffError();
}

export class AnswerCutOffError extends Error {
  constructor() {
    super('The answer stopped before it was complete');
    this.name = 'AnswerCutOffError';
  }
}

function parsed(payload: unknown): ChatAnswer {
  const answer = chatResponse.safeParse(payload);
  if (!answer.success) throw new UnexpectedAnswerError(PATH);
  return answer.data;
}
