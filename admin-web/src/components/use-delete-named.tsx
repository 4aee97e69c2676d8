// Deleting a named thing from its list page (a site, a form, an API token): a confirmation that
// names it, the mutation, a notification, then the list reloads.
import { useState, type ReactNode } from 'react';
import { useMutation, type TypedDocumentNode } from 'urql';
import { ConfirmDialog } from './confirm-dialog';
import { notifyError, notifySuccess } from './notify';
import { decodeStoredText } from '../lib/decode-stored-text';

export interface NamedToDelete {
  id: string;
  name: string;
}

interface DeleteNamedOptions {
  mutation: TypedDocumentNode<unknown, { id: string }>;
  /** Cached queries over these types are refetched after the deletion. */
  additionalTypenames: string[];
  /** `Site`, `Form`, `Token`: starts the notifications; in lower case it names the dialog and its button. */
  noun: string;
  /** Said after `Token Shop deleted`, e.g. `: it no longer works`. */
  deletedNote?: string;
  /** What follows from deleting, in words. */
  consequences: ReactNode;
  onDone: () => void;
}

/** `ask(thing)` opens the confirmation; `dialog` goes in the page; `onDone` runs after either outcome. */
export function useDeleteNamed({
  mutation,
  additionalTypenames,
  noun,
  deletedNote = '',
  consequences,
  onDone,
}: DeleteNamedOptions) {
  const [target, setTarget] = useState<NamedToDelete | null>(null);
  const [deletion, deleteNamed] = useMutation(mutation);

  const confirm = async () => {
    if (!target) {
      return;
    }
    const name = decodeStoredText(target.name);
    const result = await deleteNamed({ id: target.id }, { additionalTypenames });
    if (result.error) {
      notifyError(result.error, `${noun} ${name} was not deleted`);
    } else {
      notifySuccess(`${noun} ${name} deleted${deletedNote}`);
    }
    setTarget(null);
    onDone();
  };

  const lowerNoun = noun.toLowerCase();
  const dialog = (
    <ConfirmDialog
      opened={target !== null}
      title={`Delete ${lowerNoun} ${decodeStoredText(target?.name)}?`}
      confirmLabel={`Delete ${lowerNoun}`}
      pending={deletion.fetching}
      onConfirm={confirm}
      onClose={() => setTarget(null)}
    >
      {consequences}
    </ConfirmDialog>
  );
  return { ask: setTarget, dialog };
}
