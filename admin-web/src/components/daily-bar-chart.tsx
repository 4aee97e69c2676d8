// A small bar chart of counts per day, with its numbers as a table one click away.
//
// Hand-written SVG rather than @mantine/charts: that needs recharts (about 100 kB gzipped more for
// a few rows of bars), and its charts are built for a pointer (tooltips) where these must give
// their numbers to a screen reader and a keyboard as well. Here the SVG is one image with a
// summary as its name, and "Show as table" reveals every day's count as text.
import { Button, Group, Table, Text } from '@mantine/core';
import { useId, useState } from 'react';

export interface DayCount {
  day: string;
  count: number;
}

interface DailyBarChartProps {
  /** What is counted, for the summary and the table: `Submissions to Orders`. */
  label: string;
  /** The counted thing in the table's column header: `Submissions`. */
  unit: string;
  days: readonly DayCount[];
  /** A Mantine colour name. */
  color?: string;
}

const BAR_SLOT = 10;
const BAR_WIDTH = 8;
const HEIGHT = 48;

/** `12 in 30 days, most on 2026-11-24 (5)`: what the chart shows, in words. */
export function summarise(days: readonly DayCount[]): string {
  const total = days.reduce((sum, entry) => sum + entry.count, 0);
  const busiest = days.reduce<DayCount | undefined>(
    (best, entry) => (entry.count > (best?.count ?? 0) ? entry : best),
    undefined,
  );
  const span = `${total} in ${days.length} ${days.length === 1 ? 'day' : 'days'}`;
  return busiest ? `${span}, most on ${busiest.day} (${busiest.count})` : span;
}

export function DailyBarChart({ label, unit, days, color = 'blue' }: DailyBarChartProps) {
  const [showTable, setShowTable] = useState(false);
  const tableId = useId();
  const max = Math.max(1, ...days.map((entry) => entry.count));
  const first = days[0]?.day ?? '';
  const last = days.at(-1)?.day ?? '';

  return (
    <div>
      <svg
        role="img"
        aria-label={`${label}: ${summarise(days)}`}
        viewBox={`0 0 ${days.length * BAR_SLOT} ${HEIGHT}`}
        preserveAspectRatio="none"
        width="100%"
        height={HEIGHT}
        style={{ display: 'block' }}
      >
        {days.map((entry, index) => {
          // A quiet day keeps a hairline, so the days stay countable.
          const height = entry.count === 0 ? 1 : Math.max(2, (entry.count / max) * HEIGHT);
          return (
            <rect
              key={entry.day}
              x={index * BAR_SLOT + (BAR_SLOT - BAR_WIDTH) / 2}
              y={HEIGHT - height}
              width={BAR_WIDTH}
              height={height}
              fill={entry.count === 0 ? 'var(--mantine-color-gray-4)' : `var(--mantine-color-${color}-filled)`}
            >
              <title>{`${entry.day}: ${entry.count}`}</title>
            </rect>
          );
        })}
      </svg>
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Text size="xs" c="dimmed">
          {first}
        </Text>
        <Text size="xs" c="dimmed">
          {last}
        </Text>
      </Group>
      <Button
        variant="subtle"
        size="compact-xs"
        mt={4}
        // The visible words first, then which chart: several charts share a page.
        aria-label={`${showTable ? 'Hide table' : 'Show as table'}: ${label}`}
        aria-expanded={showTable}
        aria-controls={tableId}
        onClick={() => setShowTable((shown) => !shown)}
      >
        {showTable ? 'Hide table' : 'Show as table'}
      </Button>
      <div id={tableId} hidden={!showTable}>
        {showTable ? (
          <Table striped withTableBorder verticalSpacing={4} fz="sm" mt="xs">
            <Table.Caption>{`${label} per day (UTC)`}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Day</Table.Th>
                <Table.Th scope="col">{unit}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {days.map((entry) => (
                <Table.Tr key={entry.day}>
                  <Table.Th scope="row" fw="normal">
                    {entry.day}
                  </Table.Th>
                  <Table.Td>{entry.count}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : null}
      </div>
    </div>
  );
}
