// The inbox's search box, date range, "Has files" switch, and its state: status, mine, unread. The text is applied when the search is
// submitted (Enter or the Search button); the dates and the checkbox as they change. The filter
// itself lives in the URL (see submission-filter-params.ts), this only edits it.
import { SEARCH_QUERY_MAX_LENGTH, SEARCH_QUERY_MIN_LENGTH } from '@intake/contract';
import { Button, Checkbox, NativeSelect, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useEffect, useState, type FormEvent } from 'react';
import {
  isFiltered,
  NO_INBOX_FILTER,
  type InboxFilter,
  type SubmissionStatusParam,
} from '../../lib/submission-filter-params';
import classes from './submission-filters.module.css';
import { STATUS_OPTIONS } from './status-labels';

const STATUS_FILTER_OPTIONS: { value: SubmissionStatusParam; label: string }[] = [
  { value: '', label: 'All but archived' },
  ...STATUS_OPTIONS,
];

/** True when `query` is typed but too short to send: the box says so, and the list waits. */
export function isTooShort(query: string): boolean {
  const trimmed = query.trim();
  return trimmed !== '' && [...trimmed].length < SEARCH_QUERY_MIN_LENGTH;
}

export function SubmissionFilters({
  filter,
  onChange,
  tooShort,
  onTooShortChange: setTooShort,
}: {
  filter: InboxFilter;
  onChange: (filter: InboxFilter) => void;
  /** Whether the box holds a query too short to send (its hint shows); the page hides its list meanwhile. */
  tooShort: boolean;
  onTooShortChange: (tooShort: boolean) => void;
}) {
  const [draft, setDraft] = useState(filter.query);
  // The URL changed by other means (back, a link): show its query.
  useEffect(() => {
    setDraft(filter.query);
    setTooShort(isTooShort(filter.query));
  }, [filter.query, setTooShort]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const query = draft.trim();
    const short = isTooShort(query);
    setTooShort(short);
    if (!short) {
      onChange({ ...filter, query });
    }
  };

  return (
    <form role="search" aria-label="Filter submissions" onSubmit={submit}>
      <div className={classes.filters}>
        <TextInput
          label="Search submissions"
          description="Any field value; case and accents ignored"
          placeholder="Name, e-mail, words…"
          type="search"
          value={draft}
          maxLength={SEARCH_QUERY_MAX_LENGTH}
          onChange={(event) => {
            setDraft(event.currentTarget.value);
            setTooShort(false);
          }}
          error={tooShort ? `Type at least ${SEARCH_QUERY_MIN_LENGTH} characters` : undefined}
          className={classes.search}
        />
        <Button type="submit" variant="default" leftSection={<IconSearch size={16} aria-hidden />}>
          Search
        </Button>
        <TextInput
          label="From"
          type="date"
          value={filter.from}
          max={filter.to || undefined}
          onChange={(event) => onChange({ ...filter, from: event.currentTarget.value })}
          className={classes.date}
        />
        <TextInput
          label="To"
          type="date"
          value={filter.to}
          min={filter.from || undefined}
          onChange={(event) => onChange({ ...filter, to: event.currentTarget.value })}
          className={classes.date}
        />
        <Checkbox
          label="Has files"
          checked={filter.hasFiles}
          onChange={(event) => onChange({ ...filter, hasFiles: event.currentTarget.checked })}
          mb={8}
        />
        <NativeSelect
          label="Status"
          data={STATUS_FILTER_OPTIONS}
          value={filter.status}
          onChange={(event) => onChange({ ...filter, status: event.currentTarget.value as SubmissionStatusParam })}
          className={classes.date}
        />
        <Checkbox
          label="Assigned to me"
          checked={filter.mine}
          onChange={(event) => onChange({ ...filter, mine: event.currentTarget.checked })}
          mb={8}
        />
        <Checkbox
          label="Unread"
          checked={filter.unread}
          onChange={(event) => onChange({ ...filter, unread: event.currentTarget.checked })}
          mb={8}
        />
        {isFiltered(filter) ? (
          <Button
            variant="subtle"
            onClick={() => {
              setDraft('');
              setTooShort(false);
              onChange(NO_INBOX_FILTER);
            }}
          >
            Clear filters
          </Button>
        ) : null}
      </div>
    </form>
  );
}
