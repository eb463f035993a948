import {
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  Stack,
  Text,
  Textarea,
  VisuallyHidden,
} from '@mantine/core';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { QUESTION_MAX_LENGTH } from '../../../contracts/ai';
import { ApiError } from '../../api/client';
import type { ChatAnswer, ChatCitation } from '../../api/types';
import { PageHeading } from '../../components/PageHeading';
import {
  aiAnswerNote,
  aiProblem,
  answerKind,
  answerParagraphs,
  citationNumbers,
  extractsNote,
  NOT_ANSWERED,
  PERSONAL_DATA_ADVICE,
  PERSONAL_DATA_CODE,
} from './ai-text';
import { askQuestion } from './ask';
import { AnswerText, Citations, type OpenSource } from './Citations';

type Asked =
  | { phase: 'idle' }
  | { phase: 'streaming'; question: string; text: string }
  | { phase: 'answered'; question: string; answer: ChatAnswer }
  | { phase: 'failed'; question: string; problem: string };

/**
 * `/ask`: a question about the pensions regulations, answered from the regulatory sources the
 * service holds, with the sections it rests on (docs/api.md, "The AI assistant"). Each source says
 * whether it is a summary written for the service or the text as written
 * (docs/decisions/0124-summaries-labelled-as-summaries.md). The answer streams in as it is written;
 * its text is shown as text, never as markup.
 */
export function AskPage() {
  const [question, setQuestion] = useState('');
  const [fieldProblem, setFieldProblem] = useState<string | null>(null);
  const [asked, setAsked] = useState<Asked>({ phase: 'idle' });
  const running = useRef<AbortController | null>(null);
  // Leaving the page stops reading an answer nobody will see.
  useEffect(() => () => running.current?.abort(), []);

  const ask = async () => {
    const trimmed = question.trim();
    if (trimmed === '') {
      setFieldProblem('Type a question first.');
      return;
    }
    setFieldProblem(null);
    running.current?.abort();
    const controller = new AbortController();
    running.current = controller;
    setAsked({ phase: 'streaming', question: trimmed, text: '' });
    try {
      const answer = await askQuestion(trimmed, controller.signal, (text) =>
        setAsked({ phase: 'streaming', question: trimmed, text }),
      );
      setAsked({ phase: 'answered', question: trimmed, answer });
    } catch (error) {
      if (controller.signal.aborted) return;
      if (error instanceof ApiError && error.status === 400 && error.issues.length > 0) {
        // The guard found personal data in the question: it was never sent on
        // (docs/decisions/0066-ai-provider-guard-and-chat.md).
        const personal = error.issues.some((issue) => issue.code === PERSONAL_DATA_CODE);
        setFieldProblem(
          personal ? PERSONAL_DATA_ADVICE : error.issues.map((issue) => issue.message).join('; '),
        );
        setAsked({ phase: 'idle' });
        return;
      }
      setAsked({ phase: 'failed', question: trimmed, problem: aiProblem(error) });
    } finally {
      if (running.current === controller) running.current = null;
    }
  };

  const busy = asked.phase === 'streaming';
  return (
    <Stack gap="lg" maw={820}>
      <PageHeading title="Ask about the regulations" />
      <Text size="sm">
        Answers come only from the regulatory sources the service holds (such as summaries of the
        Pensions Act 1990, the IORP II Directive and the Automatic Enrolment Act 2024), with the
        sections they rest on. Each source says whether it is a summary in this service’s own words
        or the text as written. Do not include personal details: questions are about the rules, not
        about a member.
      </Text>
      <form
        noValidate
        aria-label="Ask a question"
        onSubmit={(event) => {
          event.preventDefault();
          void ask();
        }}
      >
        <Stack gap="sm">
          <Textarea
            label="Your question"
            description="For example: how often must the trustees carry out an own-risk assessment?"
            autosize
            minRows={2}
            maxRows={8}
            maxLength={QUESTION_MAX_LENGTH}
            value={question}
            error={fieldProblem}
            onChange={(event) => setQuestion(event.currentTarget.value)}
            onKeyDown={(event) => {
              // Enter asks, as in a search box; Shift+Enter starts a new line.
              if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
                event.preventDefault();
                void ask();
              }
            }}
          />
          <Group>
            <Button type="submit" loading={busy}>
              Ask
            </Button>
          </Group>
        </Stack>
      </form>
      <AnswerView asked={asked} />
    </Stack>
  );
}

function AnswerView({ asked }: { asked: Asked }) {
  const [open, setOpen] = useState<string | null>(null);
  const detailId = useId();
  const streaming = asked.phase === 'streaming';
  const kind = asked.phase === 'answered' ? answerKind(asked.answer) : null;
  const text =
    asked.phase === 'streaming'
      ? asked.text
      : asked.phase === 'answered'
        ? asked.answer.answer
        : '';
  const paragraphs = useMemo(() => answerParagraphs(text), [text]);
  const numbers = useMemo(() => citationNumbers(paragraphs), [paragraphs]);
  if (asked.phase === 'idle') return null;
  if (asked.phase === 'failed') {
    return (
      <Alert color="red" role="alert" title="No answer">
        {asked.problem}
      </Alert>
    );
  }
  const citations = asked.phase === 'answered' ? asked.answer.citations : null;
  const source: OpenSource = {
    open,
    toggle: (chunkId) => setOpen(open === chunkId ? null : chunkId),
    detailId,
  };
  return (
    <Paper withBorder p="md" component="section" aria-label="Answer" aria-busy={streaming}>
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          You asked: <q>{asked.question}</q>
        </Text>
        {kind === 'unanswered' ? (
          <Alert color="gray" title={NOT_ANSWERED}>
            {text} Try other words, or consult the Pensions Authority or a legal adviser.
          </Alert>
        ) : (
          <>
            {kind && citations && <AnswerLabel kind={kind} citations={citations} />}
            {streaming && text === '' ? (
              <Text size="sm">Looking through the regulatory texts…</Text>
            ) : (
              <AnswerText
                paragraphs={paragraphs}
                numbers={numbers}
                citations={citations}
                source={source}
              />
            )}
            {citations && <Citations citations={citations} numbers={numbers} source={source} />}
          </>
        )}
        {/* Announced once, when the whole answer is in, rather than word by word; a question the
            texts do not answer is not announced as answered. */}
        <VisuallyHidden role="status">
          {streaming
            ? ''
            : kind === 'unanswered'
              ? 'No answer was found in the regulatory texts.'
              : 'The answer is complete.'}
        </VisuallyHidden>
      </Stack>
    </Paper>
  );
}

/**
 * What kind of answer this is: extracts from the sources (no AI provider configured), each a
 * summary in the service's own words or quoted as written, or AI-generated, which a person must
 * check against its sources.
 */
function AnswerLabel({
  kind,
  citations,
}: {
  kind: 'extracts' | 'ai';
  citations: readonly ChatCitation[];
}) {
  if (kind === 'extracts') {
    return (
      <Stack gap={4}>
        <Group gap="xs">
          <Badge color="blue" variant="light">
            Extracts
          </Badge>
        </Group>
        <Text size="sm">{extractsNote(citations)}</Text>
      </Stack>
    );
  }
  return (
    <Stack gap={4}>
      <Group gap="xs">
        <Badge color="violet" variant="light">
          AI-generated
        </Badge>
      </Group>
      <Text size="sm">{aiAnswerNote(citations)}</Text>
    </Stack>
  );
}
