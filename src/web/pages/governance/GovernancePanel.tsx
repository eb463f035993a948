import { Alert, Button, Group, Stack, Switch, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { apiRoutes } from '../../../contracts/api-routes';
import { sourceInWords } from '../../../contracts/rule-sources';
import { describeError } from '../../api/client';
import { downloadAttachment } from '../../api/download';
import type { Compliance, Scheme } from '../../api/types';
import { can } from '../../auth/can';
import { useSignedIn } from '../../auth/session';
import { Loading } from '../../components/Loading';
import { notifyProblem } from '../../components/notify';
import { KeyFunctionHoldersRegister, TrusteesRegister } from './AppointmentRegisters';
import { ObligationsTable, StatusBadge } from './ComplianceParts';
import { ConflictsRegister } from './ConflictsRegister';
import { FilingsRegister } from './FilingsRegister';
import { useCompliance, useSubjectNames } from './governanceQueries';
import { LateRemittanceReport } from './LateRemittanceReport';
import { PoliciesRegister } from './PoliciesRegister';
import { OraRegister, SignificantChangesRegister } from './RiskRegisters';
import { SchemeYearTimeline } from './SchemeYearTimeline';

/**
 * A scheme's governance under IORP II: its standing and each obligation's reason and citation,
 * the scheme year's dated duties soonest first, then its registers. A PRSA, and an RAC that is an
 * individual contract, has none of them, and the page says why instead.
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
          <Text size="sm">{sourceInWords(scope)}</Text>
        </Alert>
        <DoraScope dora={compliance.data.dora} />
      </Stack>
    );
  }
  return (
    <Stack gap="xl">
      <ComplianceSummary scheme={scheme} compliance={compliance.data} />
      <SchemeYearTimeline scheme={scheme} compliance={compliance.data} />
      <LateRemittanceReport scheme={scheme} />
      <EvidencePackButton scheme={scheme} />
      <Switch
        label="Show history: ended appointments and superseded versions"
        checked={history}
        onChange={(event) => setHistory(event.currentTarget.checked)}
      />
      <TrusteesRegister scheme={scheme} history={history} />
      <KeyFunctionHoldersRegister scheme={scheme} history={history} />
      <PoliciesRegister scheme={scheme} history={history} />
      <ConflictsRegister scheme={scheme} />
      <FilingsRegister scheme={scheme} />
      <OraRegister scheme={scheme} />
      <SignificantChangesRegister scheme={scheme} />
    </Stack>
  );
}

function ComplianceSummary({ scheme, compliance }: { scheme: Scheme; compliance: Compliance }) {
  const subjectOf = useSubjectNames(scheme.id);
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
        subjectOf={subjectOf}
      />
      <DoraScope dora={compliance.dora} />
    </Stack>
  );
}

/** Whether DORA applies to the scheme, and the rule it follows from (docs/decisions/0139-dora-ict-incidents.md). */
function DoraScope({ dora }: { dora: Compliance['dora'] }) {
  return (
    <Alert color={dora.applies ? 'blue' : 'gray'} title="DORA: digital operational resilience">
      <Text size="sm">{dora.reason}</Text>
      <Text size="sm">{sourceInWords(dora)}</Text>
    </Alert>
  );
}

/**
 * The scheme's evidence pack for the Pensions Authority (docs/decisions/0065-evidence-pack.md): a
 * ZIP of the governance summary, the current documents and a manifest of their hashes. Shown to
 * those the policy table lets have it.
 */
function EvidencePackButton({ scheme }: { scheme: Scheme }) {
  const session = useSignedIn();
  const [busy, setBusy] = useState(false);
  if (!can(session, 'scheme.evidence_pack', scheme)) return null;
  const download = async () => {
    setBusy(true);
    try {
      await downloadAttachment(
        apiRoutes.documents.evidencePack,
        { params: { id: scheme.id } },
        {
          accept: 'application/zip',
          fallbackName: 'evidence-pack.zip',
          failure: 'The evidence pack could not be made',
        },
      );
    } catch (error) {
      notifyProblem(describeError(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Group>
      <Button variant="light" loading={busy} onClick={() => void download()}>
        Download evidence pack
      </Button>
      <Text size="sm" c="dimmed">
        A ZIP for the Pensions Authority: this summary as a PDF, the current documents and a
        manifest of their SHA-256 hashes.
      </Text>
    </Group>
  );
}
