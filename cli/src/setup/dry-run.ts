// The server's dry run of a plan (docs/cli.md#setup-as-code): what apply would send, checked by the
// admin API's `validateSetup` with the same permission, checks and errors as the mutations, and
// nothing written. A refusal fails the plan before apply could stop half way.
import { ApiError, describeErrors, type AdminClient, type GraphQLErrorBody } from '../api/client.js';
import { ValidateSetupDocument } from '../gql/graphql.js';
import type { PlannedChange } from './plan.js';

/** The changes the server would refuse, each named by its address, with the server's words. */
export async function refusalsOf(client: AdminClient, changes: PlannedChange[]): Promise<GraphQLErrorBody[]> {
  const checked = changes.filter((change) => change.check !== undefined);
  if (checked.length === 0) {
    return [];
  }
  const indexOf = (change: PlannedChange) => checked.indexOf(change);
  const { validateSetup } = await client.request(ValidateSetupDocument, {
    changes: checked.map((change) => change.check!(indexOf)),
  });
  return validateSetup.map(({ change, code, field, message }) => ({
    message: `${checked[change]!.address}: ${message}`,
    extensions: { code, ...(field ? { field } : {}) },
  }));
}

/** Refuses a plan the server would refuse in part: the error names every change refused. */
export async function assertAccepted(client: AdminClient, changes: PlannedChange[]): Promise<void> {
  const refusals = await refusalsOf(client, changes);
  if (refusals.length > 0) {
    throw new ApiError(
      `The server would refuse ${refusals.length} of these changes (nothing was changed):\n${describeErrors(refusals)}`,
      refusals,
    );
  }
}
