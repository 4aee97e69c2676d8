// Deleting a submission, from the inbox, its detail or the Spam view: a confirmation, the mutation, a notification.
import { useState } from 'react';
import { useMutation } from 'urql';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { notifyError, notifySuccess } from '../../components/notify';
import { DeleteSubmissionDocument } from '../../gql/graphql';

export interface SubmissionToDelete {
  id: string;
  fileCount: number;
}

/** `ask(submission)` opens the confirmation; `dialog` goes in the page; `onDeleted` runs after success. */
export function useDeleteSubmission(onDeleted: (id: string) => void) {
  const [target, setTarget] = useState<SubmissionToDelete | null>(null);
  const [deletion, deleteSubmission] = useMutation(DeleteSubmissionDocument);

  const confirm = async () => {
    if (!target) {
      return;
    }
    const result = await deleteSubmission({ id: target.id }, { additionalTypenames: ['Submission', 'Form'] });
    setTarget(null);
    if (result.error) {
      notifyError(result.error, 'The submission was not deleted');
      return;
    }
    notifySuccess(result.data?.deleteSubmission ? 'Submission deleted' : 'The submission was already gone');
    onDeleted(target.id);
  };

  const files = target?.fileCount ?? 0;
  const dialog = (
    <ConfirmDialog
      opened={target !== null}
      title="Delete this submission?"
      confirmLabel="Delete submission"
      pending={deletion.fetching}
      onConfirm={confirm}
      onClose={() => setTarget(null)}
    >
      Its data{files > 0 ? ` and its ${files === 1 ? 'file' : `${files} files`}` : ''} are removed for good; download
      links already handed out stop working.
    </ConfirmDialog>
  );
  return { ask: setTarget, dialog };
}
