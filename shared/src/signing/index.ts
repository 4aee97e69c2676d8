// Intake's signing keys (Ed25519, EdDSA compact JWS: signed with node:crypto, compact-jws.ts says
// why; verified with `jose`): what signs submission receipts and the audit log's checkpoints, and
// the public keys anyone verifies them with.
//
//   const keys = await loadSigningKeys(config);      // once per process, at start
//   const jws = await keys.sign(payload, 'intake-receipt+jws');
//   const { payload, kid } = await keys.verify(jws); // against the published keys; throws if not
//   keys.jwks();                                     // GET /.well-known/jwks.json
//
// Where the keys come from (docs/receipts.md, "Keys"):
// - RECEIPT_SIGNING_KEY: a private Ed25519 JWK, or a JSON array whose first element signs and whose
//   others are retired keys (public suffices), each with an optional "retiredAt" (ISO 8601). Set it
//   so that every process and machine of a deployment signs with the same key.
// - Unset: DATA_DIR/receipt-keys.json, mode 0600, made on first start (rotateKeyFile makes a new
//   key and retires the old one).
// A key's id is its "kid", else its RFC 7638 thumbprint. A retired key is published for
// RECEIPT_KEY_RETENTION_DAYS after its "retiredAt" (always, when it has none), so what it signed
// still verifies; after that it is no longer published, and verify refuses what it signed.
export { keyFilePath, rotateKeyFile } from './key-file.js';
export type { KeyEntry } from './key-entry.js';
export { loadSigningKeys, signingKeysOf } from './signing-keys.js';
export type { SigningConfig, SigningKeys, VerifiedStatement } from './signing-keys.js';
