// A checkpoint signing key for tests: a fresh Ed25519 key whose public half is the only published
// one, as the receipt key module would publish it.
import { exportJWK, generateKeyPair } from 'jose';
import { signStatement, type CheckpointSigning } from '../audit/checkpoint-signing.js';

export async function testCheckpointSigning(kid = 'test-key'): Promise<CheckpointSigning> {
  const { privateKey, publicKey } = await generateKeyPair('EdDSA', { crv: 'Ed25519' });
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'EdDSA', use: 'sig' };
  return {
    sign: (statement) => signStatement({ kid, privateKey }, statement),
    publicKeys: async () => ({ keys: [jwk] }),
  };
}
