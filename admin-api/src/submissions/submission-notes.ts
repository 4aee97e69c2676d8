import type { Em } from '@intake/shared/db';
import { SubmissionNoteSchema } from '@intake/shared/entities';
import type { SubmissionNoteType } from './inbox-state.type.js';

/** A submission's internal notes, oldest first, with their authors. */
export async function submissionNotes(em: Em, submissionId: string): Promise<SubmissionNoteType[]> {
  const notes = await em.find(
    SubmissionNoteSchema,
    { submission: submissionId },
    { populate: ['author'], orderBy: { createdAt: 'asc', id: 'asc' } },
  );
  return notes.map((note) => ({
    id: note.id,
    text: note.text,
    createdAt: note.createdAt.toISOString(),
    author: note.author ? { id: note.author.id, name: note.author.name || note.author.email } : null,
  }));
}
