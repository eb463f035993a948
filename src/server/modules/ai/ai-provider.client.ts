import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { generateText, type LanguageModel, streamText } from 'ai';
import type { AiProviderSettings } from '../../platform/config/config.js';
import { UnavailableError } from '../../platform/errors.js';
import {
  type Denylist,
  type GuardReason,
  inspectOutgoing,
  OutgoingRefusedError,
} from './provider-guard.rules.js';

/**
 * The provider layer on the Vercel AI SDK (docs/decisions/0066-ai-provider-guard-and-chat.md).
 * Every model is built per call with our own `fetch`, so every byte the SDK sends
 * passes the guard (provider-guard.rules.ts) first and nothing can reach the provider around it; the same fetch
 * applies the timeout and the retries. The SDK's own retries are off, so a request is retried in
 * one place only and passes the guard once.
 */

/** What one call sends: the rules, the user's turn, and what the guard must also refuse. */
export interface ProviderCall {
  /** The provider key: the tenant's own, or the platform's. */
  apiKey: string;
  system: string;
  prompt: string;
  denylist: Denylist;
  maxOutputTokens: number;
}

export interface ProviderUsage {
  inputTokens: number;
  outputTokens: number;
}

export interface ProviderStream {
  textStream: AsyncIterable<string>;
  /** Settles when the stream has ended, with what it used. */
  usage: PromiseLike<ProviderUsage>;
}

export interface AiProvider {
  name: AiProviderSettings['name'];
  generate(call: ProviderCall): Promise<{ text: string; usage: ProviderUsage }>;
  stream(call: ProviderCall): Promise<ProviderStream>;
}

export interface ProviderDeps {
  /** Values that must never leave the service: its secrets (config.secrets). */
  secrets: readonly string[];
  /** Told when the guard refuses a request, with the rules that matched and nothing else. */
  onRefused?: (reasons: GuardReason[]) => void;
  /** Told when the provider could not be reached or kept failing: its status, or none. */
  onFailure: (failure: { status: number | null; attempts: number }) => void;
  /** Waits between retries. */
  pause?: (ms: number) => Promise<void>;
}

const RETRYABLE = (status: number) => status === 429 || status >= 500;
const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The body as the guard reads it: the SDK sends its JSON as a string. Null for a body that cannot
 * be read without consuming it (a stream, a form), which is therefore never sent.
 */
function bodyText(body: RequestInit['body']): string | null {
  if (body === undefined || body === null) return '';
  if (typeof body === 'string') return body;
  if (body instanceof Uint8Array) return Buffer.from(body).toString('utf8');
  if (body instanceof ArrayBuffer) return Buffer.from(body).toString('utf8');
  return null;
}

/**
 * The fetch every provider model is built with: the guard, then the request with a deadline and
 * retries with back-off on 429, 5xx and network failures.
 */
export function guardedFetch(
  settings: Pick<AiProviderSettings, 'timeoutMs' | 'maxRetries' | 'retryBaseMs'>,
  call: { apiKey: string; denylist: Denylist },
  deps: ProviderDeps,
): typeof fetch {
  const pause = deps.pause ?? wait;
  return async (input, init) => {
    const body = bodyText(init?.body);
    const reasons: GuardReason[] =
      body === null
        ? ['secret']
        : inspectOutgoing(body, call.denylist, [...deps.secrets, call.apiKey]);
    if (reasons.length > 0) {
      deps.onRefused?.(reasons);
      throw new OutgoingRefusedError(reasons);
    }
    let lastStatus: number | null = null;
    for (let attempt = 0; ; attempt += 1) {
      const deadline = AbortSignal.timeout(settings.timeoutMs);
      const signal = init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
      try {
        const response = await fetch(input, { ...init, signal });
        if (!RETRYABLE(response.status) || attempt >= settings.maxRetries) {
          if (RETRYABLE(response.status))
            deps.onFailure({ status: response.status, attempts: attempt + 1 });
          return response;
        }
        lastStatus = response.status;
        await response.body?.cancel();
      } catch (error) {
        if (init?.signal?.aborted || attempt >= settings.maxRetries) {
          deps.onFailure({ status: lastStatus, attempts: attempt + 1 });
          throw error;
        }
      }
      await pause(settings.retryBaseMs * 2 ** attempt);
    }
  };
}

/** The model for one call: Chat Completions for `openai` (not the Responses API). */
function modelFor(
  settings: AiProviderSettings,
  fetchWith: typeof fetch,
  apiKey: string,
): LanguageModel {
  const baseURL = settings.baseUrl ?? undefined;
  if (settings.name === 'openai') {
    return createOpenAI({ apiKey, baseURL, fetch: fetchWith }).chat(settings.model);
  }
  return createAnthropic({ apiKey, baseURL, fetch: fetchWith })(settings.model);
}

/**
 * Whatever went wrong on the way (a refusal aside) is the provider being unavailable: a 503 with
 * a generic body, the detail in the log through onFailure.
 */
function unavailable(error: unknown): never {
  if (error instanceof OutgoingRefusedError) throw error;
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof OutgoingRefusedError) throw cause;
  throw new UnavailableError('The AI service is not available at the moment. Try again later.');
}

const usageOf = (usage: { inputTokens: number | undefined; outputTokens: number | undefined }) => ({
  inputTokens: usage.inputTokens ?? 0,
  outputTokens: usage.outputTokens ?? 0,
});

export function createAiProvider(settings: AiProviderSettings, deps: ProviderDeps): AiProvider {
  const prepare = (call: ProviderCall) => {
    let refused: OutgoingRefusedError | null = null;
    const fetchWith = guardedFetch(settings, call, {
      ...deps,
      onRefused: (reasons) => {
        refused = new OutgoingRefusedError(reasons);
        deps.onRefused?.(reasons);
      },
    });
    return {
      model: modelFor(settings, fetchWith, call.apiKey),
      refusal: () => refused,
    };
  };
  const options = (call: ProviderCall) => ({
    instructions: call.system,
    prompt: call.prompt,
    maxOutputTokens: call.maxOutputTokens,
    maxRetries: 0,
    temperature: 0,
  });

  return {
    name: settings.name,
    async generate(call) {
      const { model, refusal } = prepare(call);
      try {
        const result = await generateText({ model, ...options(call) });
        return { text: result.text, usage: usageOf(result.totalUsage) };
      } catch (error) {
        throw refusal() ?? unavailable(error);
      }
    },
    async stream(call) {
      const { model, refusal } = prepare(call);
      let failure: unknown = null;
      const result = streamText({
        model,
        ...options(call),
        onError: ({ error }) => {
          failure = error;
        },
      });
      const iterator = result.textStream[Symbol.asyncIterator]();
      // The first part decides between an answer and an error the caller can still turn into a
      // status code; after it, the response has begun.
      const first = await iterator.next();
      if (failure !== null || (first.done && refusal())) throw refusal() ?? unavailable(failure);
      async function* rest(): AsyncIterable<string> {
        if (!first.done) yield first.value;
        for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
          yield next.value;
        }
        if (failure !== null) throw refusal() ?? unavailable(failure);
      }
      return {
        textStream: rest(),
        usage: Promise.resolve(result.totalUsage).then(usageOf),
      };
    },
  };
}
