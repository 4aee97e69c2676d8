// Exit codes (docs/cli.md#exit-codes) and the errors that choose them.

export const EXIT = {
  ok: 0,
  /** The API refused, could not be reached, the command failed, or `audit verify` found the chain broken. */
  failed: 1,
  /** `plan --detailed-exitcode`: the plan has changes. */
  changes: 2,
  /** Bad arguments, a bad setup file, no credentials, or a question declined. */
  usage: 64,
} as const;

/** The user's input is wrong (arguments, setup file, profile): nothing was sent. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The object named does not exist (or was deleted): exit 1, like the API's NOT_FOUND. */
export class NotFoundError extends Error {
  override name = 'NotFoundError';
}
