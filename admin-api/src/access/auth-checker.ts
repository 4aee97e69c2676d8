// type-graphql's check behind `@Authorized()`: the auth plugin has already refused anonymous
// operations, so this only fails if a resolver is reached some other way. What each caller may do
// is the permission table's (permissions.ts), checked by the permission guard.
import type { AuthCheckerFn } from 'type-graphql';
import type { AdminContext } from '../context.js';
import { unauthenticated } from '../errors.js';

export const authChecker: AuthCheckerFn<AdminContext> = ({ context }) => {
  if (context.principal === null) {
    throw unauthenticated();
  }
  return true;
};
