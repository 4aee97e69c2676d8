// What a resolver adds to the audit entry of its own mutation field: the sign-in method and, for
// sign-ins the generic rules cannot attribute (`verifySecondFactor` carries no e-mail), who it was.
// Keyed by the field's response name, so two aliased fields of one operation keep their own notes.
// Notes hold facts chosen by the code, never a value someone typed (no code, no secret).
import type { AuditActor } from '@intake/shared/audit';
import type { AuditDetails } from '@intake/shared/entities';
import type { GraphQLResolveInfo } from 'graphql';

export interface AuditNote {
  actor?: AuditActor;
  details?: AuditDetails;
}

export type AuditNotes = Map<string, AuditNote>;

export function noteAudit(notes: AuditNotes, info: Pick<GraphQLResolveInfo, 'path'>, note: AuditNote): void {
  const key = String(info.path.key);
  const before = notes.get(key);
  notes.set(key, {
    ...before,
    ...note,
    details: { ...before?.details, ...note.details },
  });
}

/**
 * The note of a sign-in step that names no e-mail (a code, a passkey): the member it was for, once
 * known, as the actor (`anonymous` while nobody proved to be them), and the method.
 */
export function noteSignInAttempt(
  notes: AuditNotes,
  info: Pick<GraphQLResolveInfo, 'path'>,
  member: { id: string; email: string } | null,
  { succeeded, method }: { succeeded: boolean; method: string },
): void {
  noteAudit(notes, info, {
    ...(member === null
      ? {}
      : { actor: { kind: succeeded ? 'admin' : 'anonymous', id: member.id, name: member.email } }),
    details: { method },
  });
}
