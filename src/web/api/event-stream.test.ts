import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { eventStreamParser, readEventStream, type StreamEvent } from './event-stream';

const STREAM =
  ': keep-alive\n\nevent: delta\ndata: {"text":"Trustees "}\n\nevent: delta\r\ndata: {"text":"must"}\r\n\r\n' +
  'data: line one\ndata: line two\n\nevent: done\rdata:{"answered":true}\r\r';

const EXPECTED: StreamEvent[] = [
  { event: 'delta', data: '{"text":"Trustees "}' },
  { event: 'delta', data: '{"text":"must"}' },
  { event: 'message', data: 'line one\nline two' },
  { event: 'done', data: '{"answered":true}' },
];

function bodyOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

async function all(body: ReadableStream<Uint8Array>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of readEventStream(body)) events.push(event);
  return events;
}

describe('reading a server-sent event stream from a fetch body', () => {
  it('reads named and unnamed events, multi-line data, comments and every line end', () => {
    expect(eventStreamParser().push(STREAM)).toEqual(EXPECTED);
  });

  it('reads the same events however the text is cut into pieces', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: STREAM.length - 1 })), (cuts) => {
        const parser = eventStreamParser();
        const at = [0, ...cuts.sort((x, y) => x - y), STREAM.length];
        const events = at
          .slice(1)
          .flatMap((end, index) => parser.push(STREAM.slice(at[index], end)));
        expect(events).toEqual(EXPECTED);
      }),
    );
  });

  it('decodes a character split across two chunks of bytes', async () => {
    const bytes = new TextEncoder().encode('data: Údarás na bPinsean\n\n');
    // "Ú" is two bytes in UTF-8: cut between them.
    const events = await all(bodyOf([bytes.slice(0, 7), bytes.slice(7)]));
    expect(events).toEqual([{ event: 'message', data: 'Údarás na bPinsean' }]);
  });

  it('drops an event the stream ended before closing', async () => {
    const bytes = new TextEncoder().encode('data: whole\n\ndata: cut off');
    expect(await all(bodyOf([bytes]))).toEqual([{ event: 'message', data: 'whole' }]);
  });
});
