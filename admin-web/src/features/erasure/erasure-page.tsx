// Erasure on request: a person asks to have their data erased. The administrator finds every
// submission holding their e-mail address or phone number (all sites and forms, deleted ones and
// spam included), checks the preview, and erases the chosen ones with their files and deliveries.
// The preview shows where the value is (site, form, date, fields), never other submitted values.
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Code,
  Group,
  List,
  Paper,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconCircleCheck, IconInfoCircle } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useMutation, useQuery } from 'urql';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { ErrorAlert } from '../../components/error-alert';
import { PageHeader } from '../../components/page-header';
import { ScrollTable } from '../../components/scroll-table';
import {
  EraseSubmissionsDocument,
  ErasureCandidatesDocument,
  type EraseSubmissionsMutation as EraseResult,
} from '../../gql/graphql';
import { fieldErrors } from '../../lib/api-errors';
import { decodeStoredText } from '../../lib/decode-stored-text';
import { formatDateTimeSeconds } from '../../lib/format';

const MIN_LENGTH = 3;

const plural = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`;

export function ErasurePage() {
  const [value, setValue] = useState('');
  const [valueError, setValueError] = useState<string | null>(null);
  // The value of the last search; null before the first one and after an erasure.
  const [searched, setSearched] = useState<string | null>(null);
  const [{ data, error, fetching }, search] = useQuery({
    query: ErasureCandidatesDocument,
    variables: { value: searched ?? '' },
    pause: searched === null,
    requestPolicy: 'network-only',
  });
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const [erasing, erase] = useMutation(EraseSubmissionsDocument);
  const [result, setResult] = useState<EraseResult['eraseSubmissions'] | null>(null);

  const candidates = searched === null ? undefined : data?.erasureCandidates;
  // Every submission found is chosen until the administrator unticks it.
  useEffect(() => {
    setSelected(new Set(candidates?.map((candidate) => candidate.id) ?? []));
  }, [candidates]);
  const searchError = searched === null ? undefined : error;
  const serverFieldError = fieldErrors(searchError).value;

  const find = (event: React.FormEvent) => {
    event.preventDefault();
    const trimmed = value.trim();
    if (trimmed.length < MIN_LENGTH) {
      setValueError(`Enter at least ${MIN_LENGTH} characters`);
      // Only the hint: the last search's preview ("No submission holds this value") is not an answer to this.
      setSearched(null);
      setResult(null);
      return;
    }
    setValueError(null);
    setResult(null);
    if (trimmed === searched) {
      search({ requestPolicy: 'network-only' });
    } else {
      setSearched(trimmed);
    }
  };

  const toggle = (id: string, checked: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (checked) {
        next.add(id);
      } else {
        next.delete(id);
      }
      return next;
    });

  const confirmErase = async () => {
    const outcome = await erase({ ids: [...selected] }, { additionalTypenames: ['Submission', 'Form'] });
    setConfirming(false);
    if (outcome.data) {
      setResult(outcome.data.eraseSubmissions);
      setSearched(null);
    }
  };

  const allChecked = candidates !== undefined && candidates.length > 0 && selected.size === candidates.length;

  return (
    <>
      <PageHeader title="Erase personal data" help="erasure" />
      <Stack maw={960}>
        <Alert variant="light" color="blue" icon={<IconInfoCircle aria-hidden />}>
          Find every submission, across all sites and forms (deleted ones and spam included), in which a value equals
          what a person asked to have erased: an e-mail address in any case, or a phone number with any spacing. Then
          erase the ones that are theirs, with their files and their webhook and e-mail deliveries. Only whole values
          match: an address inside a longer message is not found.
        </Alert>
        <form onSubmit={find} noValidate>
          <Group align="flex-start" gap="sm">
            <TextInput
              label="Value to find"
              description="An e-mail address or a phone number."
              autoComplete="off"
              value={value}
              onChange={(event) => setValue(event.currentTarget.value)}
              error={valueError ?? serverFieldError}
              w={{ base: '100%', sm: 420 }}
            />
            <Button type="submit" mt={{ base: 0, sm: 'xl' }} loading={fetching && searched !== null}>
              Find
            </Button>
          </Group>
        </form>
        {serverFieldError ? null : <ErrorAlert error={searchError} title="The search did not work" />}

        {candidates !== undefined ? (
          <Stack gap="sm" component="section" aria-labelledby="erasure-preview-heading">
            <Text fw={600} id="erasure-preview-heading" data-testid="erasure-found">
              {candidates.length === 0
                ? 'No submission holds this value.'
                : `${plural(candidates.length, 'submission holds', 'submissions hold')} this value.`}
            </Text>
            {candidates.length > 0 ? (
              <>
                <ScrollTable minWidth={720} striped>
                  <Table.Caption>Submissions holding the value, newest first: choose the ones to erase</Table.Caption>
                  <Table.Thead>
                    <Table.Tr>
                      {/* The choice sits in the key column, beside the date it names, so both stay in view. */}
                      <Table.Th scope="col">
                        <Group gap="sm" wrap="nowrap">
                          <Checkbox
                            aria-label="Choose all"
                            checked={allChecked}
                            indeterminate={!allChecked && selected.size > 0}
                            onChange={(event) =>
                              setSelected(
                                new Set(event.currentTarget.checked ? candidates.map((candidate) => candidate.id) : []),
                              )
                            }
                          />
                          Received
                        </Group>
                      </Table.Th>
                      <Table.Th scope="col">Site</Table.Th>
                      <Table.Th scope="col">Form</Table.Th>
                      <Table.Th scope="col">Fields holding the value</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {candidates.map((candidate) => {
                      // Seconds and the id's start: two submissions of one minute to one form differ.
                      const received = formatDateTimeSeconds(candidate.createdAt);
                      const shortId = candidate.id.slice(0, 8);
                      const formName = decodeStoredText(candidate.formName);
                      return (
                        <Table.Tr key={candidate.id}>
                          <Table.Th scope="row" fw="normal">
                            <Group gap="sm" wrap="nowrap">
                              <Checkbox
                                aria-label={`Erase the submission ${shortId} of ${received} to ${formName}`}
                                checked={selected.has(candidate.id)}
                                onChange={(event) => toggle(candidate.id, event.currentTarget.checked)}
                              />
                              <span style={{ whiteSpace: 'nowrap' }}>{received}</span>
                              <Text span size="xs" c="dimmed" ff="monospace" title={candidate.id}>
                                {shortId}
                              </Text>
                              {candidate.spam ? (
                                <Badge variant="light" color="gray">
                                  Spam
                                </Badge>
                              ) : null}
                            </Group>
                          </Table.Th>
                          <Table.Td>
                            {decodeStoredText(candidate.siteName)}
                            {candidate.siteDeleted ? ' (deleted)' : ''}
                          </Table.Td>
                          <Table.Td>
                            {formName}
                            {candidate.formDeleted ? ' (deleted)' : ''}
                          </Table.Td>
                          <Table.Td style={{ overflowWrap: 'break-word' }}>
                            {candidate.matchingFields.map(decodeStoredText).join(', ')}
                          </Table.Td>
                        </Table.Tr>
                      );
                    })}
                  </Table.Tbody>
                </ScrollTable>
                <Group>
                  <Button color="red" disabled={selected.size === 0} onClick={() => setConfirming(true)}>
                    Erase selected
                  </Button>
                  <Text size="sm" c="dimmed">
                    {plural(selected.size, 'submission', 'submissions')} chosen
                  </Text>
                </Group>
              </>
            ) : null}
          </Stack>
        ) : null}

        <ErrorAlert error={erasing.error} title="Nothing was erased" />
        {result ? (
          <Paper withBorder p="md" role="status" data-testid="erasure-result">
            <Group gap="xs" mb="xs">
              <IconCircleCheck color="var(--mantine-color-green-9)" aria-hidden />
              <Title order={2} size="h4">
                Erased
              </Title>
            </Group>
            <Text>
              {plural(result.erasedIds.length, 'submission', 'submissions')} erased, with{' '}
              {plural(result.fileCount, 'file', 'files')} and {plural(result.deliveryCount, 'delivery', 'deliveries')}.
            </Text>
            {result.erasedIds.length > 0 ? (
              <List size="sm" mt="xs" aria-label="Erased submissions">
                {result.erasedIds.map((id) => (
                  <List.Item key={id}>
                    <Code>{id}</Code>
                  </List.Item>
                ))}
              </List>
            ) : null}
            {result.notFoundIds.length > 0 ? (
              <Text size="sm" mt="xs">
                Already gone: {plural(result.notFoundIds.length, 'submission', 'submissions')}.
              </Text>
            ) : null}
          </Paper>
        ) : null}
      </Stack>
      <ConfirmDialog
        opened={confirming}
        title={`Erase ${plural(selected.size, 'submission', 'submissions')}?`}
        confirmLabel="Erase"
        pending={erasing.fetching}
        onConfirm={() => void confirmErase()}
        onClose={() => setConfirming(false)}
      >
        They are deleted for good, with their files, their webhook and e-mail deliveries and the delivery log of those.
        This cannot be undone.
      </ConfirmDialog>
    </>
  );
}
