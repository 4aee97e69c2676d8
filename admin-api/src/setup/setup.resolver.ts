// The setup dry run: `intake plan` asks whether apply's changes would go through (validate-setup.ts).
// A query, so it writes nothing, not even an audit entry: apply's mutations are recorded when made.
import { Authorized, createParameterDecorator, Ctx, Query, Resolver } from 'type-graphql';
import type { AdminContext } from '../context.js';
import { SetupChangeInput } from './setup.input.js';
import { SetupRefusalType } from './setup.type.js';
import { MAX_SETUP_CHANGES, validateSetup } from './validate-setup.js';

/** The changes as sent (absent fields are not keys): each is checked by its mutation's own schemas. */
function ChangesArg() {
  return createParameterDecorator<AdminContext>(({ args }) => args.changes as SetupChangeInput[], {
    arg: { name: 'changes', typeFunc: () => [SetupChangeInput], options: {} },
  });
}

@Authorized()
@Resolver()
export class SetupResolver {
  @Query(() => [SetupRefusalType], {
    description:
      'Checks each change as its mutation would (the same permission, checks and errors) and writes nothing: ' +
      `the changes that would be refused, [] when none would. At most ${MAX_SETUP_CHANGES} changes.`,
  })
  validateSetup(@ChangesArg() changes: SetupChangeInput[], @Ctx() context: AdminContext): Promise<SetupRefusalType[]> {
    return validateSetup(context, changes);
  }
}
