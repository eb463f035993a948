import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for an OpenAI-compatible provider on loopback: `POST /chat/completions`, plain and
 * streamed (server-sent events), as the Chat Completions API answers. It records every request it
 * is sent, headers and body, so a test can say what left the service and what did not.
 */
export interface RecordedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** From the first byte of the request to the end of the answer, in milliseconds. */
  handledMs: number;
  json: {
    stream?: boolean;
    messages: Array<{ role: string; content: string | Array<{ type: string; text?: string }> }>;
  };
}

export interface FakeReply {
  status?: number;
  text?: string;
  /** Milliseconds to wait before answering. */
  delayMs?: number;
  usage?: { prompt: number; completion: number };
}

export interface FakeProvider {
  baseUrl: string;
  requests: RecordedRequest[];
  /** What the next requests are answered with; by default a text citing nothing. */
  reply: (request: RecordedRequest) => FakeReply;
  close(): Promise<void>;
}

/** The text of a recorded request's message of that role. */
export function messageText(request: RecordedRequest, role: string): string {
  const message = request.json.messages.find((entry) => entry.role === role);
  if (!message) return '';
  return typeof message.content === 'string'
    ? message.content
    : message.content.map((part) => part.text ?? '').join('');
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function startFakeProvider(): Promise<FakeProvider> {
  const fake: FakeProvider = {
    baseUrl: '',
    requests: [],
    reply: () => ({ text: 'NOT_IN_SOURCES' }),
    close: async () => undefined,
  };
  const server: Server = createServer((request, response) => {
    const started = performance.now();
    response.on('finish', () => {
      recorded.handledMs = performance.now() - started;
    });
    let recorded = { handledMs: 0 } as RecordedRequest;
    const parts: Buffer[] = [];
    request.on('data', (part: Buffer) => parts.push(part));
    request.on('end', async () => {
      const body = Buffer.concat(parts).toString('utf8');
      recorded = {
        path: request.url ?? '',
        headers: request.headers,
        body,
        handledMs: 0,
        json: JSON.parse(body || '{"messages":[]}'),
      };
      fake.requests.push(recorded);
      const answer = fake.reply(recorded);
      if (answer.delayMs) await wait(answer.delayMs);
      if (request.method !== 'POST' || recorded.path !== '/chat/completions') {
        response.writeHead(404).end();
        return;
      }
      if (answer.status && answer.status !== 200) {
        response
          .writeHead(answer.status, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: 'fake failure', type: 'server_error' } }));
        return;
      }
      const text = answer.text ?? '';
      const usage = {
        prompt_tokens: answer.usage?.prompt ?? 100,
        completion_tokens: answer.usage?.completion ?? 20,
        total_tokens: (answer.usage?.prompt ?? 100) + (answer.usage?.completion ?? 20),
      };
      const head = { id: 'chatcmpl-fake', created: 1_700_000_000, model: 'fake-model' };
      if (!recorded.json.stream) {
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            ...head,
            object: 'chat.completion',
            choices: [
              { index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' },
            ],
            usage,
          }),
        );
        return;
      }
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const chunk = (data: object) =>
        response.write(
          `data: ${JSON.stringify({ ...head, object: 'chat.completion.chunk', ...data })}\n\n`,
        );
      // In pieces of a few characters, as a model writes.
      for (let at = 0; at < text.length; at += 7) {
        chunk({
          choices: [
            {
              index: 0,
              delta:
                at === 0
                  ? { role: 'assistant', content: text.slice(at, at + 7) }
                  : { content: text.slice(at, at + 7) },
              finish_reason: null,
            },
          ],
        });
      }
      chunk({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
      chunk({ choices: [], usage });
      response.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
