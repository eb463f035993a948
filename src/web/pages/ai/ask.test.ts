import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, UnexpectedAnswerError } from '../../api/client';
import { AnswerCutOffError, askQuestion } from './ask';

const ANSWER = {
  answer: 'Every three years [[chunk:c1]].',
  citations: [
    {
      chunkId: 'c1',
      citation: 'Directive (EU) 2016/2341 Art. 28',
      title: 'IORP II',
      sourceKind: 'summary',
    },
  ],
  answered: true,
  mode: 'ai',
};

function streamed(text: string): Response {
  const bytes = new TextEncoder().encode(text);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      // Cut mid-event, as a network would.
      controller.enqueue(bytes.slice(0, 20));
      controller.enqueue(bytes.slice(20));
      controller.close();
    },
  });
  return new Response(body, { headers: { 'content-type': 'text/event-stream; charset=utf-8' } });
}

const event = (name: string, data: unknown) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

function answering(response: Response) {
  const fetch = vi.fn(async () => response);
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('asking a question with the answer streamed', () => {
  it('asks for an event stream, shows the text as it grows, and resolves with the done event', async () => {
    const fetch = answering(
      streamed(
        event('delta', { text: 'Every three ' }) +
          event('delta', { text: 'years [[chunk:c1]].' }) +
          event('done', ANSWER),
      ),
    );
    const progress: string[] = [];
    const answer = await askQuestion('How often?', new AbortController().signal, (text) =>
      progress.push(text),
    );
    expect(progress).toEqual(['Every three ', 'Every three years [[chunk:c1]].']);
    expect(answer).toEqual(ANSWER);
    const [path, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(path).toBe('/api/ai/chat');
    expect(init.headers).toMatchObject({ accept: 'text/event-stream' });
    expect(JSON.parse(String(init.body))).toEqual({ question: 'How often?' });
  });

  it('reads an answer the server sent in one piece as JSON', async () => {
    answering(
      Response.json({ answer: 'Not covered.', citations: [], answered: false, mode: 'extracts' }),
    );
    const answer = await askQuestion('Dog licence?', new AbortController().signal, () => {});
    expect(answer).toMatchObject({ answered: false, mode: 'extracts' });
  });

  it('refuses an answer that does not say how it was made, rather than guessing', async () => {
    const { mode: _, ...withoutMode } = ANSWER;
    answering(Response.json(withoutMode));
    await expect(
      askQuestion('How often?', new AbortController().signal, () => {}),
    ).rejects.toBeInstanceOf(UnexpectedAnswerError);
  });

  it('rejects a refusal with its status and issues, such as the personal-data guard’s', async () => {
    answering(
      Response.json(
        {
          error: 'Validation failed',
          issues: [{ path: 'question', code: 'personal_data', message: 'not sent' }],
        },
        { status: 400 },
      ),
    );
    const refusal = await askQuestion('x', new AbortController().signal, () => {}).catch(
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(ApiError);
    expect(refusal).toMatchObject({ status: 400, issues: [{ code: 'personal_data' }] });
  });

  it('never takes the text of a stream that stopped before its done event as the answer', async () => {
    answering(streamed(event('delta', { text: 'Every three ' })));
    await expect(
      askQuestion('How often?', new AbortController().signal, () => {}),
    ).rejects.toBeInstanceOf(AnswerCutOffError);
  });
});
