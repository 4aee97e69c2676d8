// What a page shows of its query before the first answer: the spinner while it loads, or the error
// if it failed. Once there is data, nothing: the page shows it, and a failed refresh keeps it shown.
import { Loader } from '@mantine/core';
import type { CombinedError } from 'urql';
import { ErrorAlert } from './error-alert';

interface QueryStatusProps {
  data: unknown;
  error?: CombinedError;
  fetching: boolean;
  /**
   * What loads, as it reads after `Loading`: `sites`, `the API view`. The spinner is named
   * `Loading sites`, the error titled `The sites could not be loaded`.
   */
  subject: string;
}

export function QueryStatus({ data, error, fetching, subject }: QueryStatusProps) {
  const title = `The ${subject.replace(/^the /, '')} could not be loaded`;
  return (
    <>
      <ErrorAlert error={data ? undefined : error} title={title} />
      {!data && fetching ? <Loader aria-label={`Loading ${subject}`} /> : null}
    </>
  );
}
