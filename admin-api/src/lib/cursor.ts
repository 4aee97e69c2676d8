// Opaque cursors of the submissions and audit log connections: base64url of "<time ms>:<id>", the sort key of
// the keyset pagination (newest first, id breaking ties). Clients must not build them; anything that
// does not decode to that exact shape is refused.
import { isUuid } from '@intake/shared/site-token';

export interface SubmissionCursor {
  createdAt: Date;
  id: string;
}

const CURSOR_SHAPE = /^[A-Za-z0-9_-]{1,100}$/;
const CURSOR_CONTENT = /^(\d{1,15}):([0-9a-f-]{36})$/;

export function encodeCursor(cursor: SubmissionCursor): string {
  return Buffer.from(`${cursor.createdAt.getTime()}:${cursor.id}`, 'utf8').toString('base64url');
}

export function decodeCursor(value: string): SubmissionCursor | null {
  if (!CURSOR_SHAPE.test(value)) {
    return null;
  }
  const match = CURSOR_CONTENT.exec(Buffer.from(value, 'base64url').toString('utf8'));
  if (match === null || !isUuid(match[2])) {
    return null;
  }
  const createdAt = new Date(Number(match[1]));
  return Number.isNaN(createdAt.getTime()) ? null : { createdAt, id: match[2] };
}
