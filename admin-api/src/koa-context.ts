// What the admin API's Koa middlewares and routes see of a request. Apart from context.ts (what
// GraphQL resolvers receive), which is built from it: the modules context.ts uses (the session
// cookie) and the routes it names (exports) need this type without importing context.ts back.
import type { ParameterizedContext } from 'koa';

export interface AdminState {
  requestId: string;
  /** The access log's route label of an answer the router did not give (the console's files). */
  route?: string;
}

export type AdminKoaContext = ParameterizedContext<AdminState>;
