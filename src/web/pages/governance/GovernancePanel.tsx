import { Alert, Group, Stack, Switch, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { describeError } from '../../api/client';
import type { Compliance, Scheme } from '../../api/types';
import { Loading } from '../../components/Loading';
import { KeyFunctionHoldersRegister, TrusteesRegister } from './AppointmentRegisters';
import { ObligationsTable, StatusBadge } from './ComplianceParts';
import { useCompliance } from './governanceQueries';
import { PoliciesRegister } from './PoliciesRegister';
import { OraRegister, SignificantChangesRegister } from './RiskRegisters';

/**
 * A scheme's governance under IORP II: its standing and each obligation's reason and citation,
 * then its registers. A PRSA has none of them, and the page says why instead.
 */
export function GovernancePanel({ scheme }: { scheme: Scheme }) {
  const compliance = useCompliance(scheme.id);
  const [history, setHistory] = useState(false);
  if (compliance.isPending) return <Loading label="Loading the scheme’s governance" />;
  if (compliance.isError) {
    return (
      <Alert color="red" role="alert">
        {describeError(compliance.error)}
      </Alert>
    );
  }
  const scope = compliance.data.obligations.find((obligation) => obligation.kind === 'scope');
  if (scope) {
    return (
      <Stack gap="sm">
        <Title order={3}>Governance</Title>
        <Alert color="blue" title="The IORP II governance registers do not apply">
          <Text size="sm">{scope.reason}</Text>
          <Text size="sm">{scope.citation}</Text>
        </Alert>
      </Stack>
    );
  }
  return (
    <Stack gap="xl">
      <ComplianceSummary compliance={compliance.data} />
      <Switch
        label="Show history: ended appointments and superseded versions"
        checked={history}
        onChange={(event) => setHistory(event.currentTarget.checked)}
      />
      <TrusteesRegister scheme={scheme} history={history} />
      <KeyFunctionHoldersRegister scheme={scheme} history={history} />
      <PoliciesRegister scheme={scheme} history={history} />
      <OraRegister scheme={scheme} />
      <SignificantChangesRegister scheme={scheme} />
    </Stack>
  );
}

function ComplianceSummary({ compliance }: { compliance: Compliance }) {
  return (
    <Stack gap="sm" component="section" aria-labelledby="governance-compliance">
      <Group gap="sm" align="center">
        <Title order={3} id="governance-compliance">
          Compliance
        </Title>
        {/* Announced when a write changes it, without moving the person's focus. */}
        <Group gap={6} role="status" aria-label="Compliance status">
          <Text size="sm" fw={500}>
            Status:{' '}
          </Text>
          <StatusBadge status={compliance.status} size="lg" />
        </Group>
      </Group>
      <ObligationsTable
        obligations={compliance.obligations}
        caption="Each obligation, why it stands as it does, and where the rule comes from"
      />
    </Stack>
  );
}
