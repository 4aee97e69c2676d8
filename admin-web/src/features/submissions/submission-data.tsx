// A submission's values in full: every string decoded once from its stored HTML-safe form and
// rendered as React text (never as HTML); nested objects and lists readable. A value the XSS
// sanitiser changed (markup removed before storage) carries a note, so nobody takes it for what was
// sent.
import { fieldPath, type FieldPathSegment } from '@intake/contract';
import { Badge, Code, List, Table, Text } from '@mantine/core';
import { decodeStoredText } from '../../lib/decode-stored-text';
import { isObject } from '../../lib/submission-values';

const NO_PATHS: ReadonlySet<string> = new Set();

interface Where {
  /** The JSON paths of the values the sanitiser changed (Submission.sanitizedFields). */
  sanitized?: ReadonlySet<string>;
  /** Where this value sits in the submission. */
  path?: readonly FieldPathSegment[];
}

/** A value in full: text keeps its line breaks, lists and objects nest. */
export function FullValue({ value, sanitized = NO_PATHS, path = [] }: { value: unknown } & Where) {
  if (value === null || value === undefined) {
    return (
      <Text span c="dimmed">
        (empty)
      </Text>
    );
  }
  if (typeof value === 'string') {
    return (
      <>
        <Text span style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {/* Multipart forms send line breaks as CR LF; a lone CR would show as a stray glyph. */}
          {decodeStoredText(value).replace(/\r\n?/g, '\n')}
        </Text>
        {sanitized.has(fieldPath(path)) ? (
          <Badge variant="dot" color="orange" ml="xs" tt="none" data-testid="sanitized-note">
            markup removed by the XSS sanitiser
          </Badge>
        ) : null}
      </>
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
            <FullValue value={item} sanitized={sanitized} path={[...path, index]} />
          </List.Item>
        ))}
      </List>
    );
  }
  if (isObject(value)) {
    return <FieldTable data={value} sanitized={sanitized} path={path} />;
  }
  return <Code>{String(value)}</Code>;
}

/** Field names in row headers, values beside them; nested objects become nested tables. */
export function FieldTable({
  data,
  caption,
  sanitized = NO_PATHS,
  path = [],
}: { data: Record<string, unknown>; caption?: string } & Where) {
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
              <FullValue value={value} sanitized={sanitized} path={[...path, key]} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
