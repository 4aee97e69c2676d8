import type { Passkey } from '@intake/shared/entities';
import type { PasskeyType } from './passkey.type.js';

export function presentPasskey(passkey: Passkey): PasskeyType {
  return {
    id: passkey.id,
    name: passkey.name,
    backedUp: passkey.backedUp,
    createdAt: passkey.createdAt.toISOString(),
    lastUsedAt: passkey.lastUsedAt?.toISOString() ?? null,
  };
}
