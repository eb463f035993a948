import {
  Anchor,
  Blockquote,
  Button,
  Group,
  Paper,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { Fragment } from 'react';
import type { ChatCitation } from '../../api/types';
import {
  type AnswerParagraph,
  officialTextUrl,
  SOURCE_KIND_NAMES,
  sourceKindNote,
} from './ai-text';
import classes from './Citations.module.css';

/** Which source is open, shared by the marks in the text and the list of sources. */
export interface OpenSource {
  open: string | null;
  toggle: (chunkId: string) => void;
  /** The id of the element that shows the open source, for aria-controls. */
  detailId: string;
}

/**
 * An answer's text, paragraph by paragraph, each citation mark a numbered button that opens its
 * source (or, while the answer still streams and its sources are not yet in, the number alone).
 */
export function AnswerText({
  paragraphs,
  numbers,
  citations,
  source,
}: {
  paragraphs: readonly AnswerParagraph[];
  numbers: ReadonlyMap<string, number>;
  citations: readonly ChatCitation[] | null;
  source: OpenSource;
}) {
  const render = (paragraph: AnswerParagraph) =>
    paragraph.pieces.map((piece) => {
      const key = piece.at;
      if (piece.kind === 'text') return <Fragment key={key}>{piece.text}</Fragment>;
      const number = numbers.get(piece.chunkId);
      const cited = citations?.find((citation) => citation.chunkId === piece.chunkId);
      if (!cited || number === undefined) {
        return (
          <sup key={key} className={classes.mark}>
            [{number ?? '?'}]
          </sup>
        );
      }
      return (
        <UnstyledButton
          key={key}
          className={classes.markButton}
          aria-label={`Source ${number}: ${cited.citation}`}
          aria-expanded={source.open === piece.chunkId}
          aria-controls={source.detailId}
          onClick={() => source.toggle(piece.chunkId)}
        >
          [{number}]
        </UnstyledButton>
      );
    });
  return (
    <Stack gap="sm">
      {paragraphs.map((paragraph) =>
        paragraph.quote ? (
          <Blockquote key={paragraph.at} p="sm" className={classes.paragraph}>
            {render(paragraph)}
          </Blockquote>
        ) : (
          <Text key={paragraph.at} className={classes.paragraph}>
            {render(paragraph)}
          </Text>
        ),
      )}
    </Stack>
  );
}

/**
 * The sources an answer rests on, each a button naming its citation and what its passage is (a
 * summary, or quoted as written), that opens the citation, the document's title, what the passage
 * is in words and a link to the official text: a reader checks the answer against the law itself,
 * never takes the service's word for it.
 */
export function Citations({
  citations,
  numbers,
  source,
}: {
  citations: readonly ChatCitation[];
  numbers: ReadonlyMap<string, number>;
  source: OpenSource;
}) {
  if (citations.length === 0) return null;
  const shown = citations.find((citation) => citation.chunkId === source.open);
  return (
    <Stack gap="xs" component="section" aria-label="Sources">
      <Text fw={600}>Sources</Text>
      <Group gap="xs">
        {citations.map((citation, index) => (
          <Button
            key={citation.chunkId}
            size="compact-sm"
            variant={source.open === citation.chunkId ? 'filled' : 'light'}
            aria-expanded={source.open === citation.chunkId}
            aria-controls={source.detailId}
            onClick={() => source.toggle(citation.chunkId)}
          >
            {`[${numbers.get(citation.chunkId) ?? index + 1}] ${citation.citation} (${SOURCE_KIND_NAMES[citation.sourceKind]})`}
          </Button>
        ))}
      </Group>
      <div id={source.detailId}>{shown && <CitationDetail citation={shown} />}</div>
    </Stack>
  );
}

function CitationDetail({ citation }: { citation: ChatCitation }) {
  const url = officialTextUrl(citation.url);
  return (
    <Paper withBorder p="sm" role="region" aria-label={`Source: ${citation.citation}`}>
      <Stack gap={4}>
        <Text fw={600}>{citation.citation}</Text>
        <Text size="sm">{citation.title}</Text>
        <Text size="sm">{sourceKindNote(citation)}</Text>
        {url ? (
          <Anchor href={url} target="_blank" rel="noopener noreferrer" size="sm">
            Read the official text (opens in a new tab)
          </Anchor>
        ) : (
          <Text size="sm">No link to the official text is held for this source.</Text>
        )}
      </Stack>
    </Paper>
  );
}
