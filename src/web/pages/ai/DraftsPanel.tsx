import { Anchor, Badge, Button, Group, NativeSelect, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { DRAFT_KINDS, type DraftKind, draftInput } from '../../../contracts/ai';
import { apiRoutes } from '../../../contracts/api-routes';
import {
  POLICY_KIND_NAMES,
  POLICY_KINDS,
  type PolicyKind,
} from '../../../contracts/governance-rules';
import { api } from '../../api/client';
import type { Draft, Scheme } from '../../api/types';
import { canChange } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { type Column, CursorTable } from '../../components/CursorTable';
import { DateTime } from '../../components/DateTime';
import { PageHeading } from '../../components/PageHeading';
import { useApiSubmit } from '../../components/useApiSubmit';
import { validateWith } from '../../components/validation';
import { FormModal, FormShell } from '../governance/GovernanceForm';
import { DRAFT_KIND_NAMES, DRAFT_STATUS, draftName, GENERATED_BY_NAMES } from './ai-text';

/** Every list and read of a scheme's drafts sits under this key: one write refreshes them all. */
export const schemeDraftsKey = (schemeId: string) => ['schemes', schemeId, 'ai-drafts'] as const;
export const draftKey = (draftId: string) => ['ai-drafts', draftId] as const;

/**
 * A scheme's drafts workspace: drafts of its governance writing, generated from the
 * scheme's own facts, each opened to be edited, compared with its generated text, reviewed,
 * approved and issued.
 */
export function DraftsPanel({ scheme }: { scheme: Scheme }) {
  const session = useSignedIn();
  const [generating, setGenerating] = useState(false);
  const mayCreate = canChange(session, 'ai.draft.create', scheme);

  const columns: Column<Draft>[] = [
    {
      key: 'document',
      header: 'Document',
      render: (draft) => (
        <Anchor component={Link} to={`/drafts/${draft.id}`}>
          {draftName(draft)}
        </Anchor>
      ),
      sortValue: draftName,
    },
    {
      key: 'status',
      header: 'Status',
      render: (draft) => (
        <Badge variant="dot" color={DRAFT_STATUS[draft.status].color} miw="max-content">
          {DRAFT_STATUS[draft.status].label}
        </Badge>
      ),
      sortValue: (draft) => draft.status,
    },
    {
      key: 'generatedBy',
      header: 'Written by',
      render: (draft) => GENERATED_BY_NAMES[draft.generatedBy],
    },
    {
      key: 'createdAt',
      header: 'Created',
      render: (draft) => <DateTime value={draft.createdAt} />,
      sortValue: (draft) => draft.createdAt,
    },
  ];

  return (
    <Stack gap="sm" component="section" aria-labelledby="scheme-drafts">
      <PageHeading title="Drafts" order={3} id="scheme-drafts">
        {mayCreate && (
          <Button variant="light" onClick={() => setGenerating(true)}>
            Generate a draft
          </Button>
        )}
      </PageHeading>
      <Text size="sm">
        Drafts are written from this scheme’s own records: by AI where your firm’s AI provider is
        available, otherwise from the service’s template. A draft is only a proposal: it is used
        once a person has reviewed, approved and issued it.
      </Text>
      <CursorTable
        queryKey={[...schemeDraftsKey(scheme.id), 'list']}
        route={apiRoutes.drafts.listOfScheme}
        params={{ id: scheme.id }}
        query={{ limit: 100 }}
        columns={columns}
        caption="Drafts of this scheme"
        empty="No draft yet."
      />
      <FormModal opened={generating} title="Generate a draft" onClose={() => setGenerating(false)}>
        <GenerateForm scheme={scheme} onClose={() => setGenerating(false)} />
      </FormModal>
    </Stack>
  );
}

interface GenerateValues {
  kind: DraftKind;
  policyKind: PolicyKind;
}

const generateBody = (schemeId: string) => (values: GenerateValues) => ({
  schemeId,
  kind: values.kind,
  policyKind: values.kind === 'written_policy' ? values.policyKind : undefined,
});

function GenerateForm({ scheme, onClose }: { scheme: Scheme; onClose: () => void }) {
  const client = useQueryClient();
  const navigate = useNavigate();
  const toBody = generateBody(scheme.id);
  const form = useForm<GenerateValues>({
    initialValues: { kind: 'written_policy', policyKind: POLICY_KINDS[0] },
    validate: validateWith(draftInput, toBody),
  });
  const { submit, busy, problem } = useApiSubmit(form, async (values) => {
    const draft = await api(apiRoutes.drafts.create, { body: toBody(values) });
    client.setQueryData(draftKey(draft.id), draft);
    await client.invalidateQueries({ queryKey: schemeDraftsKey(scheme.id) });
    onClose();
    await navigate({ to: '/drafts/$draftId', params: { draftId: draft.id } });
  });
  return (
    <FormShell
      label="Generate a draft"
      submit={submit}
      busy={busy}
      problem={problem}
      submitLabel="Generate"
      onCancel={onClose}
    >
      <NativeSelect
        label="Kind of document"
        data={DRAFT_KINDS.map((kind) => ({ value: kind, label: DRAFT_KIND_NAMES[kind] }))}
        {...form.getInputProps('kind')}
      />
      {form.values.kind === 'written_policy' && (
        <NativeSelect
          label="Which policy"
          data={POLICY_KINDS.map((kind) => ({ value: kind, label: POLICY_KIND_NAMES[kind] }))}
          {...form.getInputProps('policyKind')}
        />
      )}
      {busy && (
        <Group>
          <Text size="sm" role="status">
            Writing the draft; this can take up to a minute.
          </Text>
        </Group>
      )}
    </FormShell>
  );
}
