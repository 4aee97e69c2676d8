// Which file types the form accepts, from the types the service knows.
import { Checkbox, Paper, SimpleGrid } from '@mantine/core';
import type { SettingsForm } from './settings-section';
import type { SettingsLimits } from './settings-values';

export function FileTypesCard({ form, limits }: { form: SettingsForm; limits: SettingsLimits }) {
  return (
    <Paper withBorder p="lg">
      <Checkbox.Group
        label="Allowed file types"
        description={`Files of other types are refused; all of them is the default. A submission carries at most ${limits.maxFiles} files.`}
        key={form.key('allowedMimeTypes')}
        {...form.getInputProps('allowedMimeTypes')}
      >
        <SimpleGrid cols={{ base: 1, sm: 2 }} mt="sm" spacing="xs">
          {limits.fileTypes.map((type) => (
            <Checkbox
              key={type.mimeType}
              value={type.mimeType}
              label={type.label}
              description={type.extensions.map((extension) => `.${extension}`).join(', ')}
            />
          ))}
        </SimpleGrid>
      </Checkbox.Group>
    </Paper>
  );
}
