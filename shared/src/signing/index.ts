// Intake's signing keys (Ed25519, EdDSA compact JWS: signed with node:crypto, compact-jws.ts says
// why; verified with `jose`): what signs submission receipts and the audit log's checkpoints, and
// the public keys anyone verifies them with. Where the keys come from (RECEIPT_SIGNING_KEY, else
// DATA_DIR/receipt-keys.json), their ids, rotation and retirement: docs/receipts.md ("Keys").
//   const keys = await loadSigningKeys(config);      // once per process, at start
//   const jws = await keys.sign(payload, 'intake-receipt+jws');
//   const { payload, kid } = await keys.verify(jws); // against the published keys; throws if not
//   keys.jwks();                                     // GET /.well-known/jwks.json
export { keyFilePath, rotateKeyFile } from './key-file.js';
export type { KeyEntry } from './key-entry.js';
export { loadSigningKeys, signingKeysOf } from './signing-keys.js';
export type { SigningConfig, SigningKeys, VerifiedStatement } from './signing-keys.js';
