// A submission's values as a person typed them: every string decoded once from its stored HTML-safe
// form and rendered as React text (never as HTML). Compact for a table cell, in full for the detail.
import { Code, List, Table, Text } from '@mantine/core';
import { decodeStoredText } from '../../lib/decode-stored-text';

const CELL_LENGTH = 80;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function shorten(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

/** One line of text for a table cell: nested values summarised, long text cut. */
export function compactValue(value: unknown, length = CELL_LENGTH): string {
  if (value === null || value === undefined) {
    return '—';
  }
  if (typeof value === 'string') {
    return shorten(decodeStoredText(value).replace(/\s+/g, ' ').trim(), length);
  }
  if (Array.isArray(value)) {
    return shorten(value.map((item) => compactValue(item, length)).join(', '), length);
  }
  if (isObject(value)) {
    const entries = Object.entries(value).map(
      ([key, item]) => `${decodeStoredText(key)}: ${compactValue(item, length)}`,
    );
    return shorten(`{ ${entries.join(', ')} }`, length);
  }
  return String(value);
}

/**
 * Column keys for a page of submissions: the top-level keys in the order they first appear, at most
 * `limit` (the detail view shows every field).
 */
export function columnKeys(rows: readonly Record<string, unknown>[], limit = 4): string[] {
  const keys: string[] = [];
  for (const row of rows) {
    for (const key of Object.keys(row)) {
      if (!keys.includes(key)) {
        keys.push(key);
        if (keys.length === limit) {
          return keys;
        }
      }
    }
  }
  return keys;
}

/** A value in full: text keeps its line breaks, lists and objects nest. */
export function FullValue({ value }: { value: unknown }) {
  if (value === null || value === undefined) {
    return (
      <Text span c="dimmed">
        (empty)
      </Text>
    );
  }
  if (typeof value === 'string') {
    return (
      <Text span style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {/* Multipart forms send line breaks as CR LF; a lone CR would show as a stray glyph. */}
        {decodeStoredText(value).replace(/\r\n?/g, '\n')}
      </Text>
    );
  }
  if (Array.isArray(value)) {
    if (value.length === 0) {
      return (
        <Text span c="dimmed">
          (empty list)
        </Text>
      );
    }
    return (
      <List type="ordered" size="sm" withPadding>
        {value.map((item, index) => (
          <List.Item key={index}>
            <FullValue value={item} />
          </List.Item>
        ))}
      </List>
    );
  }
  if (isObject(value)) {
    return <FieldTable data={value} />;
  }
  return <Code>{String(value)}</Code>;
}

/** Field names in row headers, values beside them; nested objects become nested tables. */
export function FieldTable({ data, caption }: { data: Record<string, unknown>; caption?: string }) {
  const entries = Object.entries(data);
  if (entries.length === 0) {
    return (
      <Text span c="dimmed">
        (no fields)
      </Text>
    );
  }
  return (
    <Table withTableBorder withColumnBorders verticalSpacing="xs" layout="fixed">
      {caption ? <Table.Caption>{caption}</Table.Caption> : null}
      <Table.Tbody>
        {entries.map(([key, value]) => (
          <Table.Tr key={key}>
            <Table.Th scope="row" w="30%" style={{ overflowWrap: 'anywhere', verticalAlign: 'top' }}>
              {decodeStoredText(key)}
            </Table.Th>
            <Table.Td>
              <FullValue value={value} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
