// type-graphql's check behind `@Authorized()`: the auth plugin has already refused anonymous
// operations, so this only fails if a resolver is reached some other way; `@Authorized(Role.SESSION)`
// additionally keeps account operations (password, minting API tokens) away from API tokens.
import type { AuthCheckerFn } from 'type-graphql';
import type { AdminContext } from '../context.js';
import { forbidden, unauthenticated } from '../schema/errors.js';
import { rolesOf, type RoleName } from './principal.js';

export const authChecker: AuthCheckerFn<AdminContext, RoleName> = ({ context }, roles) => {
  const { principal } = context;
  if (principal === null) {
    throw unauthenticated();
  }
  const held = rolesOf(principal);
  if (!roles.every((role) => held.includes(role))) {
    throw forbidden('This operation needs an administrator login, not an API token');
  }
  return true;
};
