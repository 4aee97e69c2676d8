import { badUserInput } from '../errors.js';
import { DEFAULT_INBOX_VIEW, type InboxStateFilter } from './inbox-state-filter.js';
import type { SubmissionStateFilterInput } from './inbox-state-filter.input.js';

/** The filter a checked `state` input makes for the caller `memberId` (`mine`, `unread` are theirs). */
export function inboxStateFilterOf(input: SubmissionStateFilterInput | null, memberId: string): InboxStateFilter {
  if (input === null) {
    return DEFAULT_INBOX_VIEW;
  }
  if (input.mine === true && input.assigneeId !== null && input.assigneeId !== undefined) {
    throw badUserInput('state.mine', 'cannot be combined with state.assigneeId');
  }
  const statuses =
    input.status === null || input.status === undefined || input.status.length === 0 ? null : input.status;
  return {
    statuses: statuses === null ? null : [...new Set(statuses)],
    assigneeId: input.mine === true ? memberId : (input.assigneeId ?? null),
    unreadBy: input.unread === true ? memberId : null,
  };
}
