// Overview: submissions per day for the busiest forms and the gateway's refusals per code and day,
// over the last 7, 30 or 90 days, in UTC days.
import { Anchor, Card, Group, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useQuery } from 'urql';
import { DailyBarChart } from '../../components/daily-bar-chart';
import { PageHeader } from '../../components/page-header';
import { QueryStatus } from '../../components/query-status';
import { OverviewDocument } from '../../gql/graphql';
import { decodeStoredText } from '../../lib/decode-stored-text';
import { paths } from '../../lib/paths';
import { usePolling } from '../../lib/use-polling';

const PERIODS = ['7', '30', '90'] as const;
/** Forms shown with a chart; the others are counted in a line below them. */
const FORMS_SHOWN = 6;
const REFRESH_MS = 30_000;

export function OverviewPage() {
  const [period, setPeriod] = useState<string>('30');
  const [{ data, error, fetching }, refetch] = useQuery({
    query: OverviewDocument,
    variables: { days: Number(period) },
  });
  usePolling(() => refetch({ requestPolicy: 'network-only' }), REFRESH_MS);

  const forms = data?.submissionStats.forms ?? [];
  const spam = data?.submissionStats.spam ?? [];
  const spamTotal = spam.reduce((sum, entry) => sum + entry.count, 0);
  const refusals = data?.refusalStats.codes ?? [];

  return (
    <>
      <PageHeader title="Overview" help="overview" />
      <Group justify="space-between" align="center" mb="md" gap="sm">
        <Text c="dimmed" size="sm">
          Per day in UTC, today included.
        </Text>
        <SegmentedControl
          aria-label="Period"
          value={period}
          onChange={setPeriod}
          data={PERIODS.map((days) => ({ value: days, label: `${days} days` }))}
        />
      </Group>
      <QueryStatus data={data} error={error} fetching={fetching} subject="statistics" />
      {data ? (
        <Stack gap="xl">
          <section aria-labelledby="submissions-heading">
            <Title order={2} size="h3" id="submissions-heading" mb="sm">
              Submissions per form
            </Title>
            {forms.length === 0 ? (
              <Text c="dimmed">No submissions in this period.</Text>
            ) : (
              <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
                {forms.slice(0, FORMS_SHOWN).map((form) => {
                  const name = decodeStoredText(form.formName);
                  return (
                    <SeriesCard
                      key={form.formId}
                      title={
                        <Anchor component={Link} to={paths.formSubmissions(form.siteId, form.formId)}>
                          {name}
                        </Anchor>
                      }
                      total={form.total}
                      note={decodeStoredText(form.siteName)}
                    >
                      <DailyBarChart label={`Submissions to ${name}`} unit="Submissions" days={form.days} />
                    </SeriesCard>
                  );
                })}
                {spamTotal > 0 ? (
                  <SeriesCard
                    title={
                      <Anchor component={Link} to={`${paths.spamAllForms}?days=${period}`}>
                        Spam, all forms
                      </Anchor>
                    }
                    total={spamTotal}
                    note="Stored as spam, not in the counts above"
                  >
                    <DailyBarChart label="Spam" unit="Submissions" days={spam} color="gray" />
                  </SeriesCard>
                ) : null}
              </SimpleGrid>
            )}
            {forms.length > FORMS_SHOWN ? (
              <Text size="sm" c="dimmed" mt="sm">
                {`${forms.length - FORMS_SHOWN} more ${forms.length - FORMS_SHOWN === 1 ? 'form' : 'forms'} had submissions in this period.`}
              </Text>
            ) : null}
          </section>

          <section aria-labelledby="refusals-heading">
            <Title order={2} size="h3" id="refusals-heading" mb="xs">
              Refusals per code
            </Title>
            <Text c="dimmed" size="sm" mb="sm">
              Requests the gateway refused, by the code of its answer. The gateway writes them every few seconds.
            </Text>
            {refusals.length === 0 ? (
              <Text c="dimmed">No refusals in this period.</Text>
            ) : (
              <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
                {refusals.map((refusal) => (
                  <SeriesCard
                    key={refusal.code}
                    title={<span style={{ fontFamily: 'var(--mantine-font-family-monospace)' }}>{refusal.code}</span>}
                    total={refusal.total}
                    note={refusal.title}
                  >
                    <DailyBarChart
                      label={`Refusals with ${refusal.code}`}
                      unit="Refusals"
                      days={refusal.days}
                      color="red"
                    />
                  </SeriesCard>
                ))}
              </SimpleGrid>
            )}
          </section>
        </Stack>
      ) : null}
    </>
  );
}

interface SeriesCardProps {
  /** The level-3 heading: a form (as a link) or a code. */
  title: ReactNode;
  total: number;
  /** One dimmed line under the heading: the site, the code's meaning. */
  note: string;
  /** The chart. */
  children: ReactNode;
}

/** One series: its heading, its total over the period, a note and the chart. */
function SeriesCard({ title, total, note, children }: SeriesCardProps) {
  return (
    <Card withBorder padding="sm">
      <Group justify="space-between" align="baseline" wrap="nowrap" gap="xs">
        <Title order={3} size="h5" style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
          {title}
        </Title>
        <Text fw={600}>{total}</Text>
      </Group>
      <Text size="xs" c="dimmed" mb="xs">
        {note}
      </Text>
      {children}
    </Card>
  );
}
