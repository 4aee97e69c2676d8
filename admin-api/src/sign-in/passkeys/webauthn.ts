// @simplewebauthn/server, loaded by the first passkey operation rather than at start: with its
// ASN.1 and COSE dependencies it is 266 files (170 ms of CPU), which every admin start and every
// test file that starts the admin API paid for, passkeys or not (docs/performance.md, "Where the
// test suite's CPU goes").
export const webAuthn = () => import('@simplewebauthn/server');
