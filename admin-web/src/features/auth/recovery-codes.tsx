// The ten recovery codes, shown once after enrolment: copy them or download them as a text file.
import { Alert, Button, Code, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { CopyButton } from '../../components/copy-button';

const FILE_NAME = 'intake-recovery-codes.txt';

function download(text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = FILE_NAME;
  link.click();
  URL.revokeObjectURL(url);
}

export function RecoveryCodes({ codes, onDone }: { codes: readonly string[]; onDone(): void }) {
  const text = `Intake recovery codes (each works once)\n\n${codes.join('\n')}\n`;
  return (
    <Stack>
      <Alert color="yellow" role="status">
        <strong>Save your recovery codes now.</strong> They are shown only this once. Each signs you in once if you lose
        your authenticator app.
      </Alert>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" component="ul" aria-label="Recovery codes" p={0} m={0}>
        {codes.map((code) => (
          <Code key={code} component="li" fz="md" style={{ listStyle: 'none' }}>
            {code}
          </Code>
        ))}
      </SimpleGrid>
      <Group gap="sm">
        <CopyButton value={text} />
        <Button
          variant="default"
          size="xs"
          leftSection={<IconDownload size={16} aria-hidden />}
          onClick={() => download(text)}
        >
          Download
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        Keep them somewhere safe, apart from your phone: a password manager or a printed page.
      </Text>
      <Button onClick={onDone} style={{ alignSelf: 'flex-start' }}>
        I have saved them
      </Button>
    </Stack>
  );
}
