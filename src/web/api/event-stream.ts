/**
 * Server-sent events read from a fetch answer's body (the AI answer streams as `text/event-stream`,
 * docs/decisions/0066-ai-provider-guard-and-chat.md). EventSource cannot send a POST with a body,
 * so the stream is read here, by the rules of the HTML standard's event-stream format: lines end in
 * LF, CR LF or CR; `event:` names the event, `data:` lines are joined with LF, a line starting with
 * a colon is a comment (a keep-alive), and a blank line ends the event.
 */
export interface StreamEvent {
  /** `message` when the server named none, as EventSource would. */
  event: string;
  data: string;
}

/**
 * A parser fed the text as it arrives, in pieces cut anywhere (in the middle of a line, between
 * the CR and LF of one line end); each call returns the events the piece completed.
 */
export function eventStreamParser(): { push(text: string): StreamEvent[] } {
  let pending = '';
  let event = '';
  let data: string[] = [];
  let hasData = false;
  // A CR at the very end of a piece may be the first half of CR LF: the LF is then no new line.
  let lastWasCr = false;

  const lineOf = (line: string, out: StreamEvent[]) => {
    if (line === '') {
      if (hasData) out.push({ event: event === '' ? 'message' : event, data: data.join('\n') });
      event = '';
      data = [];
      hasData = false;
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') {
      data.push(value);
      hasData = true;
    }
  };

  return {
    push(text) {
      const out: StreamEvent[] = [];
      let input = text;
      if (lastWasCr && input.startsWith('\n')) input = input.slice(1);
      lastWasCr = false;
      pending += input;
      let start = 0;
      for (let at = 0; at < pending.length; at++) {
        const char = pending[at];
        if (char !== '\n' && char !== '\r') continue;
        lineOf(pending.slice(start, at), out);
        if (char === '\r') {
          if (at + 1 === pending.length) lastWasCr = true;
          else if (pending[at + 1] === '\n') at++;
        }
        start = at + 1;
      }
      pending = pending.slice(start);
      return out;
    },
  };
}

/** Every event of a streamed body, in order, decoding UTF-8 that may be split across chunks. */
export async function* readEventStream(
  body: ReadableStream<Uint8Array>,
): AsyncGenerator<StreamEvent> {
  const parser = eventStreamParser();
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      yield* parser.push(decoder.decode(value, { stream: true }));
    }
    // An event the server did not close with a blank line is incomplete, and so dropped, as
    // EventSource drops it.
    yield* parser.push(decoder.decode());
  } finally {
    reader.releaseLock();
  }
}
