import { Alert, List, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useQuery } from '@tanstack/react-query';
import { apiRoutes } from '../../../contracts/api-routes';
import type { DataRequestView } from '../../../contracts/data-requests';
import { sourceInWords } from '../../../contracts/rule-sources';
import { api, describeError } from '../../api/client';
import { notifySuccess } from '../../components/notify';
import { useApiSubmit } from '../../components/useApiSubmit';
import { FormShell } from '../governance/GovernanceForm';

const OUTCOME_WORDS = {
  member: 'The whole record was erased, and the request completed.',
  contact_details:
    'The contact details were erased, and the request completed; the rest is kept until its day.',
  none: 'Nothing may be erased yet: the request is refused, with each part’s rule and day as the reason.',
} as const;

/**
 * An erasure request carried out (docs/decisions/0149-retention-and-erasure.md): the member's
 * retention read first, so the person erasing sees what will go and what the law keeps, then one
 * step that erases what may be erased and completes the request, or refuses it.
 */
export function EraseForm({
  request,
  name,
  onDone,
  onClose,
}: {
  request: DataRequestView;
  name: string;
  onDone: () => Promise<void>;
  onClose: () => void;
}) {
  const retention = useQuery({
    queryKey: ['members', request.memberId, 'retention'],
    queryFn: () => api(apiRoutes.retention.get, { params: { id: request.memberId } }),
  });
  const form = useForm({ initialValues: {} });
  const { submit, busy, problem } = useApiSubmit(form, async () => {
    const answer = await api(apiRoutes.dataRequests.erase, { params: { id: request.id } });
    notifySuccess(`${name}: ${OUTCOME_WORDS[answer.erased]}`);
    await onDone();
    onClose();
  });
  const classes = retention.data?.classes ?? [];
  const erasable = classes.filter((entry) => entry.erasableNow);
  const kept = classes.filter((entry) => !entry.erasableNow);
  return (
    <FormShell
      label="Carry out an erasure request"
      submit={submit}
      busy={busy || retention.isPending}
      problem={problem}
      submitLabel={erasable.length === 0 ? 'Refuse, with the reasons' : 'Erase'}
      onCancel={onClose}
    >
      <Text size="sm">{name}.</Text>
      {retention.isError && <Alert color="red">{describeError(retention.error)}</Alert>}
      {retention.isSuccess && (
        <>
          <Text size="sm" fw={500}>
            {erasable.length === 0 ? 'Nothing may be erased today.' : 'Erased for good:'}
          </Text>
          {erasable.length > 0 && (
            <List size="sm">
              {erasable.map((entry) => (
                <List.Item key={entry.recordClass}>
                  {entry.name}: {entry.holds}
                </List.Item>
              ))}
            </List>
          )}
          {kept.length > 0 && (
            <>
              <Text size="sm" fw={500}>
                Kept, and said so in the answer:
              </Text>
              <List size="sm">
                {kept.map((entry) => (
                  <List.Item key={entry.recordClass}>
                    {entry.name}: {entry.reason} ({sourceInWords(entry.source)})
                  </List.Item>
                ))}
              </List>
            </>
          )}
          {erasable.length > 0 && (
            <Alert color="red" title="This cannot be undone">
              What is erased is gone from the service and, through the erasure ledger, from any
              backup restored later.
            </Alert>
          )}
        </>
      )}
    </FormShell>
  );
}
