// The inbox statuses as the console names them, in their order (the filter, a submission's Status
// choice, the bulk Set status).
import type { SubmissionStatus } from '../../gql/graphql';

export const STATUS_LABELS: Record<SubmissionStatus, string> = {
  new: 'New',
  open: 'Open',
  done: 'Done',
  archived: 'Archived',
};

export const STATUS_OPTIONS = (Object.entries(STATUS_LABELS) as [SubmissionStatus, string][]).map(([value, label]) => ({
  value,
  label,
}));
