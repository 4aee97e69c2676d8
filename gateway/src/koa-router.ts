// @koa/router through its CommonJS build. Its ES module build imports `http` as an ES module, and
// Node then builds that module's namespace, whose WebSocket getters load Node's bundled undici:
// about 13 MB of an idle gateway's RSS for a client the gateway never uses (docs/performance.md).
import { createRequire } from 'node:module';
import type { DefaultContext, DefaultState } from 'koa';
import type { Router as RouterValue, RouterInstance } from '@koa/router';

const Router = createRequire(import.meta.url)('@koa/router') as typeof RouterValue;
type Router<StateT = DefaultState, ContextT = DefaultContext> = RouterInstance<StateT, ContextT>;

export default Router;
