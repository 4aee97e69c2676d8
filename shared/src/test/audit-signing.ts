// Checkpoint signing with a fresh Ed25519 key that is not the deployment's: what someone forging a
// checkpoint would have. `kid` lets the forgery claim the published key's id.
import { generateKeyPairSync } from 'node:crypto';
import type { JWK } from 'jose';
import { signStatement, type CheckpointSigning } from '../audit/checkpoint-signing.js';

export async function testCheckpointSigning(kid = 'test-key'): Promise<CheckpointSigning> {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const jwk = { ...(publicKey.export({ format: 'jwk' }) as JWK), kid, alg: 'EdDSA', use: 'sig' };
  return {
    sign: (statement) => signStatement({ kid, privateKey }, statement),
    publicKeys: async () => ({ keys: [jwk] }),
  };
}
