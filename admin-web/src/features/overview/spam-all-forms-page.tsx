// Spam, all forms: where the Overview's spam card leads. Each form with spam in the period, most
// first, linking to its own Spam view (the list where a submission is read or marked not spam).
import { Anchor, Group, SegmentedControl, Table, Text } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { useQuery } from 'urql';
import { ListTable } from '../../components/list-table';
import { PageHeader } from '../../components/page-header';
import { SpamAllFormsDocument } from '../../gql/graphql';
import { decodeStoredText } from '../../lib/decode-stored-text';
import { paths } from '../../lib/paths';

const PERIODS = ['7', '30', '90'] as const;

export function SpamAllFormsPage() {
  // The period comes from the Overview's link (`?days=7`), so the list counts what its card counted.
  const [params, setParams] = useSearchParams();
  const asked = params.get('days') ?? '';
  const period = (PERIODS as readonly string[]).includes(asked) ? asked : '30';
  const setPeriod = (days: string) => setParams({ days }, { replace: true });
  const [{ data, error, fetching }] = useQuery({ query: SpamAllFormsDocument, variables: { days: Number(period) } });
  return (
    <>
      <PageHeader title="Spam, all forms" help="spam" />
      <Group justify="space-between" align="center" mb="md" gap="sm">
        <Text c="dimmed" size="sm">
          Forms with submissions stored as spam, most first. Open a form&apos;s spam to read it or mark it not spam.
        </Text>
        <SegmentedControl
          aria-label="Period"
          value={period}
          onChange={setPeriod}
          data={PERIODS.map((days) => ({ value: days, label: `${days} days` }))}
        />
      </Group>
      <ListTable
        items={data?.submissionStats.spamForms}
        error={error}
        fetching={fetching}
        subject="spam"
        row={(form) => {
          const name = decodeStoredText(form.formName);
          return (
            <Table.Tr key={form.formId}>
              <Table.Th scope="row" fw="normal">
                <Anchor component={Link} to={paths.formSpam(form.siteId, form.formId)}>
                  {name}
                </Anchor>
              </Table.Th>
              <Table.Td>{decodeStoredText(form.siteName)}</Table.Td>
              <Table.Td>{form.total}</Table.Td>
            </Table.Tr>
          );
        }}
        empty="No spam in this period."
        caption={`Spam per form over the last ${period} days (UTC)`}
        columns={['Form', 'Site', 'Spam']}
        minWidth={300}
      />
    </>
  );
}
