// Set up in every test worker (jest.preset.js): passwords hashed with scrypt N=2^10 instead of
// the production N=2^17. Tests sign in thousands of times, each hash cost a few hundred ms on the
// 2-core machine, and that was minutes of `npm test`. The code path is the same; the production
// parameters are checked by admin-api/src/sign-in/password/auth.test.ts, which restores them there.
import { useCheapPasswordHashes } from '@intake/shared/password';

export const CHEAP_PASSWORD_HASH_PARAMS = { N: 2 ** 10, r: 8, p: 1 };

useCheapPasswordHashes(CHEAP_PASSWORD_HASH_PARAMS);
