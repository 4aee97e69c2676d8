// The header of a form's submission lists (the inbox and Spam): the heading, Refresh, and Export of
// what the list holds.
import { PageHeader } from '../../components/page-header';
import { RefreshButton } from '../../components/refresh-button';
import { ExportButton, type ExportButtonProps } from './export-button';

interface SubmissionListHeaderProps extends ExportButtonProps {
  title: string;
  onRefresh: () => void;
}

export function SubmissionListHeader({ title, onRefresh, ...exported }: SubmissionListHeaderProps) {
  return (
    <PageHeader
      title={title}
      help="submissions"
      actions={
        <>
          <RefreshButton onClick={onRefresh} />
          <ExportButton {...exported} />
        </>
      }
    />
  );
}
