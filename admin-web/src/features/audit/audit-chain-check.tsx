// The audit log's chain: `Verify` walks it on the server and says whether any entry was changed,
// removed or moved (and which first); `Export` downloads the log with its chain and signed
// checkpoints as NDJSON, to keep elsewhere and check offline (docs/audit-log.md).
import { Alert, Button, Group } from '@mantine/core';
import { IconAlertTriangle, IconShieldCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useClient, useMutation, type CombinedError } from 'urql';
import { ErrorAlert } from '../../components/error-alert';
import { ExportAuditLogDocument, VerifyAuditLogDocument, type VerifyAuditLogQuery } from '../../gql/graphql';

type Verification = VerifyAuditLogQuery['verifyAuditLog'];

/** Saves text as a file through a temporary object URL (no server round trip, nothing inline). */
function download(fileName: string, content: string): void {
  const url = URL.createObjectURL(new Blob([content], { type: 'application/x-ndjson' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  URL.revokeObjectURL(url);
}

function VerificationResult({ result }: { result: Verification }) {
  if (result.valid) {
    return (
      <Alert color="green" title="Audit log intact" icon={<IconShieldCheck aria-hidden />} role="status">
        All {result.checkedEntries} entries match their chain and its signed checkpoints.
      </Alert>
    );
  }
  const problem = result.problem ?? 'the chain does not hold';
  const before =
    result.checkedEntries === 0
      ? ''
      : result.checkedEntries === 1
        ? ' The entry before it is intact.'
        : ` The ${result.checkedEntries} entries before it are intact.`;
  return (
    <Alert color="red" title="Audit log altered" icon={<IconAlertTriangle aria-hidden />} role="alert">
      {`${problem.charAt(0).toUpperCase()}${problem.slice(1)}.${before}`}
    </Alert>
  );
}

/** The `Verify` and `Export` buttons, for the page header. */
export function useAuditChainCheck() {
  const client = useClient();
  const [verifying, setVerifying] = useState(false);
  const [result, setResult] = useState<Verification | null>(null);
  const [error, setError] = useState<CombinedError | undefined>(undefined);
  const [exporting, exportLog] = useMutation(ExportAuditLogDocument);

  const verify = async () => {
    setVerifying(true);
    setResult(null);
    const answer = await client.query(VerifyAuditLogDocument, {}, { requestPolicy: 'network-only' }).toPromise();
    setVerifying(false);
    setError(answer.error);
    setResult(answer.data?.verifyAuditLog ?? null);
  };
  const exportAll = async () => {
    const answer = await exportLog({});
    setError(answer.error);
    if (answer.data) {
      download(answer.data.exportAuditLog.fileName, answer.data.exportAuditLog.content);
    }
  };

  const buttons = (
    <Group gap="sm">
      <Button variant="default" onClick={() => void verify()} loading={verifying}>
        Verify
      </Button>
      <Button variant="default" onClick={() => void exportAll()} loading={exporting.fetching}>
        Export
      </Button>
    </Group>
  );
  const status =
    result === null && error === undefined ? null : (
      <div style={{ marginBottom: 'var(--mantine-spacing-md)' }}>
        {result === null ? null : <VerificationResult result={result} />}
        <ErrorAlert error={error} title="Could not check the audit log" />
      </div>
    );
  return { buttons, status };
}
