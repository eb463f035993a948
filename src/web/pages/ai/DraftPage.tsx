import {
  Alert,
  Anchor,
  Badge,
  Button,
  Code,
  Group,
  List,
  Paper,
  SegmentedControl,
  Stack,
  Text,
  Textarea,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { type ReactNode, useMemo, useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import { diffLines, diffSummary } from '../../../contracts/line-diff';
import { api } from '../../api/client';
import type { Draft } from '../../api/types';
import { can, canChange } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { ConfirmModal } from '../../components/ConfirmModal';
import { DateTime } from '../../components/DateTime';
import { LoadError } from '../../components/LoadError';
import { Loading } from '../../components/Loading';
import { notifySuccess } from '../../components/notify';
import { PageHeading } from '../../components/PageHeading';
import { useApiAction } from '../../components/useApiSubmit';
import { downloadDocument } from '../documents/documentQueries';
import { useScheme } from '../schemes/SchemeQueries';
import {
  changesFromGenerated,
  DRAFT_STATUS,
  draftName,
  draftStanding,
  editable,
  GENERATED_BY_NAMES,
  lineCount,
  placeholdersNote,
  stepBlocked,
} from './ai-text';
import { DraftComparison, recordedLines, shownLines } from './DraftComparison';
import { draftKey, schemeDraftsKey } from './DraftsPanel';

/**
 * `/drafts/$draftId`: one draft of a scheme's governance writing, edited while it is a draft or
 * reviewed, compared with the text it was generated with, then reviewed, approved and issued in
 * that order (only approved text is ever issued: docs/decisions/0067-ai-drafts.md).
 */
export function DraftPage() {
  const { draftId = '' } = useParams({ strict: false });
  const draft = useQuery({
    queryKey: draftKey(draftId),
    queryFn: () => api(apiRoutes.drafts.get, { params: { id: draftId } }),
  });
  if (draft.isPending) return <Loading label="Loading the draft" />;
  if (draft.isError) return <LoadError error={draft.error} />;
  // Keyed by the saved text: a save or a step of the workflow starts the editor afresh from it.
  return <DraftWorkspace key={`${draft.data.id}:${draft.data.updatedAt}`} draft={draft.data} />;
}

type Step = 'review' | 'approve' | 'issue';

const STEPS: Record<Step, { title: string; confirm: string; done: string; about: string }> = {
  review: {
    title: 'Mark as reviewed',
    confirm: 'Mark as reviewed',
    done: 'Marked as reviewed.',
    about: 'You have read the whole text and checked it against the scheme’s records.',
  },
  approve: {
    title: 'Approve the text',
    confirm: 'Approve',
    done: 'Approved.',
    about:
      'Once approved, the text can no longer be edited. What changed from the generated text is recorded with the approval.',
  },
  issue: {
    title: 'Issue the approved text',
    confirm: 'Issue',
    done: 'Issued.',
    about:
      'The approved text is issued as it stands. A written policy goes to the scheme’s register of written policies as a draft version, for the trustees to approve there.',
  },
};

function DraftWorkspace({ draft }: { draft: Draft }) {
  const session = useSignedIn();
  const client = useQueryClient();
  const scheme = useScheme(draft.schemeId);
  const [text, setText] = useState(draft.content);
  const [view, setView] = useState<'text' | 'changes'>('text');
  const [step, setStep] = useState<Step | null>(null);
  const row = scheme.data;
  const allowed = {
    update: row !== undefined && canChange(session, 'ai.draft.update', row),
    review: row !== undefined && canChange(session, 'ai.draft.review', row),
    approve: row !== undefined && canChange(session, 'ai.draft.approve', row),
    issue: row !== undefined && canChange(session, 'ai.draft.issue', row),
  };
  const changed = text !== draft.content;
  const mayEdit = allowed.update && editable(draft.status);
  // The next step, when this person may take it, and what stands in the way of it if anything:
  // told before they click, from what the draft says of who wrote and reviewed it.
  const next: { step: 'review' | 'approve'; blocked: string | null } | null =
    draft.status === 'draft' && allowed.review
      ? { step: 'review', blocked: stepBlocked('review', draft, session.user.id) }
      : draft.status === 'reviewed' && allowed.approve
        ? { step: 'approve', blocked: stepBlocked('approve', draft, session.user.id) }
        : null;

  const refreshWith = async (saved: Draft) => {
    client.setQueryData(draftKey(saved.id), saved);
    await client.invalidateQueries({ queryKey: schemeDraftsKey(saved.schemeId) });
  };
  const save = useApiAction(async () => {
    const saved = await api(apiRoutes.drafts.update, {
      params: { id: draft.id },
      body: { content: text },
    });
    notifySuccess('Changes saved.');
    await refreshWith(saved);
  });

  const status = DRAFT_STATUS[draft.status];
  const name = draftName(draft);
  return (
    <Stack gap="md" maw={960}>
      {row && (
        <SchemeTabLink schemeId={row.id} tab="drafts" size="sm">
          ← Drafts of {row.name}
        </SchemeTabLink>
      )}
      <PageHeading title={`Draft: ${name}`} />
      <Group gap="xs">
        <Badge variant="dot" color={status.color}>
          {status.label}
        </Badge>
        <Badge variant="light" color={draft.generatedBy === 'ai' ? 'violet' : 'gray'}>
          {GENERATED_BY_NAMES[draft.generatedBy]}
        </Badge>
        <Text size="sm">
          Created <DateTime value={draft.createdAt} />
        </Text>
      </Group>
      <Text size="sm" role="status" aria-label="Where the draft stands">
        {draftStanding(draft)}
      </Text>
      {draft.generatedBy === 'ai' && (
        <Alert color="violet" variant="light" title="Written by an AI model">
          Check every statement against the scheme’s records and the regulations before approving
          it. The model may be wrong or incomplete.
        </Alert>
      )}
      {draft.status === 'issued' && draft.issuedPolicyId && row && (
        <Alert color="green" variant="light">
          Issued <DateTime value={draft.issuedAt ?? draft.updatedAt} /> as a draft version of the
          policy. The trustees approve it in the{' '}
          <SchemeTabLink schemeId={row.id} tab="governance">
            scheme’s governance registers
          </SchemeTabLink>
          .
        </Alert>
      )}
      {draft.status === 'issued' &&
        draft.issuedDocumentId &&
        row &&
        can(session, 'document.download', row) && (
          <IssuedDocumentDownload documentId={draft.issuedDocumentId} />
        )}

      <SegmentedControl
        value={view}
        onChange={(value) => setView(value === 'changes' ? 'changes' : 'text')}
        data={[
          { value: 'text', label: mayEdit ? 'Edit the text' : 'The text' },
          { value: 'changes', label: 'Changes from the generated text' },
        ]}
        aria-label="Show"
        w="fit-content"
      />
      {view === 'text' ? (
        mayEdit ? (
          <Textarea
            label="Text of the draft"
            autosize
            minRows={12}
            maxRows={40}
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
        ) : (
          <Paper withBorder p="md" component="section" aria-label="Text of the draft">
            <Text style={{ whiteSpace: 'pre-wrap' }}>{draft.content}</Text>
          </Paper>
        )
      ) : (
        <Comparison draft={draft} edited={text} />
      )}
      {editable(draft.status) && <Placeholders text={mayEdit ? text : draft.content} />}

      <Group gap="sm">
        {mayEdit && (
          <Button onClick={save.run} loading={save.busy} disabled={!changed}>
            Save changes
          </Button>
        )}
        {mayEdit && changed && (
          <Button variant="default" onClick={() => setText(draft.content)}>
            Discard changes
          </Button>
        )}
        {next && (
          <Button
            variant="light"
            disabled={changed || next.blocked !== null}
            aria-describedby={next.blocked ? 'draft-step-blocked' : undefined}
            onClick={() => setStep(next.step)}
          >
            {next.step === 'review' ? 'Mark as reviewed' : 'Approve'}
          </Button>
        )}
        {draft.status === 'approved' && allowed.issue && (
          <Button onClick={() => setStep('issue')}>Issue</Button>
        )}
      </Group>
      {next?.blocked && (
        <Text size="sm" id="draft-step-blocked">
          {next.blocked}
        </Text>
      )}
      {mayEdit && changed && next && !next.blocked && (
        <Text size="sm">Save or discard your changes before the next step.</Text>
      )}

      {step && (
        <ConfirmModal
          opened
          onClose={() => setStep(null)}
          title={STEPS[step].title}
          confirmLabel={STEPS[step].confirm}
          color="blue"
          onConfirm={async () => {
            const saved = await api(apiRoutes.drafts[step], { params: { id: draft.id } });
            notifySuccess(`${name}: ${STEPS[step].done}`);
            await refreshWith(saved);
          }}
        >
          <Text>{STEPS[step].about}</Text>
        </ConfirmModal>
      )}
    </Stack>
  );
}

/**
 * The placeholders (`[date]`) left in the text as it stands, unsaved edits included: approval is
 * refused while any is left (contracts/ai.ts, placeholdersToFill).
 */
function Placeholders({ text }: { text: string }) {
  const { left, note } = useMemo(() => placeholdersNote(text), [text]);
  return (
    <Stack gap={4} component="section" aria-label="Placeholders to fill in">
      <Text size="sm">{note}</Text>
      {left.length > 0 && (
        <List size="sm" aria-label="Placeholders left">
          {left.map((placeholder) => (
            <List.Item key={placeholder}>
              <Code>{placeholder}</Code>
            </List.Item>
          ))}
        </List>
      )}
    </Stack>
  );
}

/** A link to one tab of a scheme's page. */
function SchemeTabLink({
  schemeId,
  tab,
  size,
  children,
}: {
  schemeId: string;
  tab: 'drafts' | 'governance';
  size?: 'sm';
  children: ReactNode;
}) {
  return (
    <Anchor
      size={size}
      renderRoot={(props) => (
        <Link {...props} to="/schemes/$schemeId" params={{ schemeId }} search={{ tab }} />
      )}
    >
      {children}
    </Anchor>
  );
}

/**
 * What changed from the generated text. Once approved, the server's record of it
 * (docs/decisions/0104-one-line-diff.md; `approvedDiff`); before that, the text in the editor,
 * saved or not, against the draft's `generatedContent`: what the approval would record if the text
 * were saved as it is.
 */
function Comparison({ draft, edited }: { draft: Draft; edited: string }) {
  const sinceGenerated = useMemo(
    () => (draft.approvedDiff ? [] : diffLines(draft.generatedContent, edited)),
    [draft.approvedDiff, draft.generatedContent, edited],
  );
  if (draft.approvedDiff) {
    const { added, removed, unchanged } = draft.approvedDiff;
    return (
      <DraftComparison
        lines={recordedLines(draft.approvedDiff.lines)}
        label="Changes from the generated text"
        summary={
          added === 0 && removed === 0
            ? 'Approved as generated: no line was changed.'
            : `Recorded at approval: ${lineCount(removed)} removed, ${lineCount(added)} added and ${lineCount(unchanged)} unchanged from the generated text. Lines unchanged at the start and the end are not shown.`
        }
      />
    );
  }
  const { added, removed } = diffSummary(sinceGenerated);
  return (
    <DraftComparison
      lines={added === 0 && removed === 0 ? [] : shownLines(sinceGenerated)}
      label="Changes from the generated text"
      summary={changesFromGenerated({ added, removed, unsaved: edited !== draft.content })}
    />
  );
}

/**
 * The issued text as the PDF stored among the scheme's documents, downloaded through a fresh
 * signed URL (docs/decisions/0067-ai-drafts.md).
 */
function IssuedDocumentDownload({ documentId }: { documentId: string }) {
  const { run, busy } = useApiAction(() => downloadDocument(documentId));
  return (
    <Group gap="xs">
      <Text size="sm">The approved text is stored as a PDF among the scheme’s documents.</Text>
      <Button size="compact-sm" variant="default" loading={busy} onClick={run}>
        Download the issued PDF
      </Button>
    </Group>
  );
}
