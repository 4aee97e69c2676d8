// A site's API view: what its backend needs to send submissions — the site token (hidden until asked
// for, rotatable), each form's code and endpoint URL, and ready-to-paste requests for one form.
import { Anchor, Button, Code, Group, Paper, Select, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconEye, IconEyeOff, IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useMutation, useQuery } from 'urql';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { CopyButton } from '../../components/copy-button';
import { notifyError, notifySuccess } from '../../components/notify';
import { PageHeader } from '../../components/page-header';
import { QueryStatus } from '../../components/query-status';
import { ScrollTable } from '../../components/scroll-table';
import { RotateSiteTokenDocument, SiteApiViewDocument } from '../../gql/graphql';
import { decodeStoredText } from '../../lib/decode-stored-text';
import { paths } from '../../lib/paths';
import { buildExamples, type ExampleField } from './examples';

const HIDDEN_TOKEN = '•'.repeat(32);

interface SiteTokenProps {
  siteId: string;
  token: string;
  shown: boolean;
  setShown: (shown: boolean) => void;
  onRotated: () => void;
}

function SiteToken({ siteId, token, shown, setShown, onRotated }: SiteTokenProps) {
  const [confirming, setConfirming] = useState(false);
  const [rotation, rotate] = useMutation(RotateSiteTokenDocument);

  const confirmRotate = async () => {
    const result = await rotate({ siteId }, { additionalTypenames: ['SiteApiView'] });
    setConfirming(false);
    if (result.error) {
      notifyError(result.error, 'The token was not rotated');
      return;
    }
    notifySuccess('New site token issued; the old one no longer works');
    setShown(true);
    onRotated();
  };

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="site-token-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="site-token-title">
          Site token
        </Title>
        <Text size="sm" c="dimmed">
          The site&apos;s backend sends it as <Code>Authorization: Bearer &lt;token&gt;</Code>, with the service&apos;s
          API key in <Code>X-KEY-SERVICE</Code> (the API key is a server secret: ask the operator; it is never shown
          here). Keep the token on the server, never in a web page.
        </Text>
        <Code block data-testid="site-token" style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
          {shown ? (
            token
          ) : (
            <>
              <span aria-hidden>{HIDDEN_TOKEN}</span>
              <VisuallyHidden>The token is hidden</VisuallyHidden>
            </>
          )}
        </Code>
        <Group gap="sm">
          <CopyButton value={token} />
          <Button
            variant="default"
            size="xs"
            onClick={() => setShown(!shown)}
            aria-pressed={shown}
            leftSection={shown ? <IconEyeOff size={16} aria-hidden /> : <IconEye size={16} aria-hidden />}
          >
            {shown ? 'Hide token' : 'Show token'}
          </Button>
          <Button
            variant="light"
            color="red"
            size="xs"
            onClick={() => setConfirming(true)}
            leftSection={<IconRefresh size={16} aria-hidden />}
          >
            Rotate token
          </Button>
        </Group>
      </Stack>
      <ConfirmDialog
        opened={confirming}
        title="Rotate the site token?"
        confirmLabel="Rotate token"
        pending={rotation.fetching}
        onConfirm={confirmRotate}
        onClose={() => setConfirming(false)}
      >
        The current token stops working at once: every backend that sends with it is refused (403) until it uses the new
        token, which is shown here next.
      </ConfirmDialog>
    </Paper>
  );
}

interface ApiForm {
  id: string;
  name: string;
  code: string;
  enabled: boolean;
  endpointUrl: string;
  browserPosting: boolean;
  browserFormHtml?: string | null;
  fields: readonly ExampleField[];
}

/** The HTML form of each form that takes browser posts: pasted into a static page as it is. */
function BrowserForms({ forms }: { forms: readonly ApiForm[] }) {
  const taking = forms.filter((form) => form.browserFormHtml);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="browser-forms-title">
      <Stack gap="md">
        <Title order={2} size="h4" id="browser-forms-title">
          HTML forms for static pages
        </Title>
        {taking.length === 0 ? (
          <Text size="sm">
            No form of this site takes posts from visitors&apos; browsers. Turn on <em>Browser posting</em> in a
            form&apos;s settings to get an HTML form to paste into a page of a site without a backend.
          </Text>
        ) : (
          <Text size="sm" c="dimmed">
            Paste one into a page on an origin the form lists: it works without JavaScript, and with it sends the form
            with the challenge solved in the visitor&apos;s browser. It holds no key and no token.
          </Text>
        )}
        {taking.map((form) => (
          <Stack key={form.id} gap={6}>
            <Group justify="space-between" wrap="nowrap">
              <Title order={3} size="h5">
                {decodeStoredText(form.name)} ({form.code})
              </Title>
              <CopyButton
                value={form.browserFormHtml!}
                label={`Copy the HTML form of ${decodeStoredText(form.name)}`}
              />
            </Group>
            <Code block style={{ whiteSpace: 'pre', overflowX: 'auto' }} tabIndex={0} data-testid="browser-form-html">
              {form.browserFormHtml}
            </Code>
          </Stack>
        ))}
      </Stack>
    </Paper>
  );
}

function FormEndpoints({ forms }: { forms: readonly ApiForm[] }) {
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="endpoints-title">
      <Title order={2} size="h4" id="endpoints-title" mb="sm">
        Endpoints
      </Title>
      <ScrollTable minWidth={760}>
        <Table.Caption>Each form&apos;s code and the URL its backend posts submissions to</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Form</Table.Th>
            <Table.Th scope="col">Code</Table.Th>
            <Table.Th scope="col">Endpoint URL</Table.Th>
            <Table.Th scope="col">Copy</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {forms.map((form) => (
            <Table.Tr key={form.id}>
              <Table.Th scope="row" fw="normal">
                {decodeStoredText(form.name)}
                {form.enabled ? null : (
                  <Text span size="xs" c="dimmed">
                    {' '}
                    (disabled)
                  </Text>
                )}
              </Table.Th>
              <Table.Td>
                <Code>{form.code}</Code>
              </Table.Td>
              <Table.Td>
                <Code style={{ wordBreak: 'break-all' }}>{form.endpointUrl}</Code>
              </Table.Td>
              <Table.Td>
                <CopyButton value={form.endpointUrl} label="Copy endpoint URL" />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </ScrollTable>
    </Paper>
  );
}

function Examples({ forms, token, tokenShown }: { forms: readonly ApiForm[]; token: string; tokenShown: boolean }) {
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const selected = forms.find((form) => form.id === selectedId) ?? forms[0];
  if (!selected) {
    return null;
  }
  // What is copied holds the token; what is shown holds it only once Show token was pressed.
  const examples = buildExamples(selected.endpointUrl, token, selected.fields);
  const shownExamples = tokenShown ? examples : buildExamples(selected.endpointUrl, HIDDEN_TOKEN, selected.fields);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="examples-title">
      <Stack gap="md">
        <Title order={2} size="h4" id="examples-title">
          Examples
        </Title>
        <Text size="sm" c="dimmed">
          Requests ready to paste, with this site&apos;s token and the form&apos;s endpoint filled in. Set the API key
          in the <Code>INTAKE_API_KEY</Code> environment variable first. Files go in multipart fields such as{' '}
          <Code>fichier</Code>. The token shows here once you press Show token; Copy always copies it.
        </Text>
        <Select
          label="Form"
          data={forms.map((form) => ({ value: form.id, label: `${decodeStoredText(form.name)} (${form.code})` }))}
          value={selected.id}
          onChange={setSelectedId}
          allowDeselect={false}
          maw={420}
        />
        {examples.map((example, index) => (
          <Stack key={example.title} gap={6}>
            <Group justify="space-between" wrap="nowrap">
              <Title order={3} size="h5">
                {example.title}
              </Title>
              <CopyButton value={example.code} label={`Copy ${example.title} example`} />
            </Group>
            {/* Focusable so a keyboard can scroll a long line sideways. */}
            <Code block style={{ whiteSpace: 'pre', overflowX: 'auto' }} tabIndex={0}>
              {shownExamples[index]?.code}
            </Code>
          </Stack>
        ))}
      </Stack>
    </Paper>
  );
}

export function ApiViewPage() {
  const { siteId = '' } = useParams();
  const [{ data, error, fetching }, refetch] = useQuery({ query: SiteApiViewDocument, variables: { siteId } });
  const view = data?.siteApiView;
  const [tokenShown, setTokenShown] = useState(false);

  return (
    <>
      <PageHeader title="API" help="apiView" />
      <QueryStatus data={data} error={error} fetching={fetching} subject="the API view" />
      {view ? (
        <Stack gap="lg">
          <SiteToken
            siteId={siteId}
            token={view.token}
            shown={tokenShown}
            setShown={setTokenShown}
            onRotated={() => refetch({ requestPolicy: 'network-only' })}
          />
          {view.forms.length === 0 ? (
            <Paper withBorder p="md" component="section" aria-labelledby="no-forms-title">
              <Title order={2} size="h4" id="no-forms-title" mb="xs">
                Endpoints
              </Title>
              <Text>
                This site has no forms yet, so there is nowhere to send submissions. Create one on the{' '}
                <Anchor underline="always" component={Link} to={paths.siteForms(siteId)}>
                  Forms
                </Anchor>{' '}
                page (<em>New form</em>); its code and endpoint then appear here.
              </Text>
            </Paper>
          ) : (
            <>
              <FormEndpoints forms={view.forms} />
              <Examples forms={view.forms} token={view.token} tokenShown={tokenShown} />
              <BrowserForms forms={view.forms} />
            </>
          )}
        </Stack>
      ) : null}
    </>
  );
}
