// "Export" on a form's inbox (and Spam view): a dialog with the format, then the browser downloads
// the file from the short-lived signed link the API answers. The link is same-origin and answers an
// attachment, so navigating to it starts a download and leaves the console where it is.
import { Button, Checkbox, Group, Modal, Radio, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { useMutation } from 'urql';
import { notifyError } from '../../components/notify';
import {
  CreateSubmissionExportDocument,
  type SubmissionExportFormat,
  type SubmissionFilterInput,
} from '../../gql/graphql';

const FORMATS: { value: SubmissionExportFormat; label: string; description: string }[] = [
  {
    value: 'CSV',
    label: 'CSV',
    description: 'For spreadsheets: one column per field, text as it was sent, file names and download links.',
  },
  {
    value: 'JSON',
    label: 'JSON',
    description: 'One array of submissions, with the stored values, as the API answers them.',
  },
  {
    value: 'NDJSON',
    label: 'NDJSON',
    description: 'One submission per line, for scripts and data tools that read large files line by line.',
  },
];

export interface ExportButtonProps {
  formId: string;
  /** The list's current filter: the export holds what the list shows. */
  filter?: SubmissionFilterInput | null;
  /** The Spam view's submissions instead of the inbox's. */
  spam?: boolean;
}

export function ExportButton({ formId, filter = null, spam = false }: ExportButtonProps) {
  const [opened, setOpened] = useState(false);
  const [format, setFormat] = useState<SubmissionExportFormat>('CSV');
  const [notes, setNotes] = useState(false);
  const [creation, createExport] = useMutation(CreateSubmissionExportDocument);

  const download = async () => {
    const result = await createExport({ formId, format, filter, spam, notes });
    const url = result.data?.createSubmissionExport.url;
    if (result.error || !url) {
      notifyError(result.error, 'The export could not be started');
      return;
    }
    setOpened(false);
    window.location.assign(url);
  };

  return (
    <>
      <Button variant="default" leftSection={<IconDownload size={16} aria-hidden />} onClick={() => setOpened(true)}>
        Export
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title="Export submissions" centered>
        <Stack>
          <Text size="sm">
            {filter ? 'The submissions the list shows with its filter' : 'Every submission the list holds'}, newest
            first, in one file. The download starts at once; large forms take a while.
          </Text>
          <Radio.Group label="Format" value={format} onChange={(value) => setFormat(value as SubmissionExportFormat)}>
            <Stack gap="sm" mt="xs">
              {FORMATS.map((option) => (
                <Radio key={option.value} value={option.value} label={option.label} description={option.description} />
              ))}
            </Stack>
          </Radio.Group>
          <Checkbox
            label="Include internal notes"
            description="The team's notes on each submission, with author and time. Status and assignee are always in it."
            checked={notes}
            onChange={(event) => setNotes(event.currentTarget.checked)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpened(false)}>
              Cancel
            </Button>
            <Button leftSection={<IconDownload size={16} aria-hidden />} onClick={download} loading={creation.fetching}>
              Download
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
