// The fields the form declares (docs/form-fields.md): added, ordered, edited and removed here, saved
// with the other settings. Without any, the form accepts every key, as before.
import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  NumberInput,
  Paper,
  Radio,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { SettingsSection, type SettingsForm } from './settings-section';
import { FIELD_TYPE_LABELS, LENGTH_FIELD_TYPES, newFieldRow, type FieldRow } from './settings-values';

const TYPE_OPTIONS = Object.entries(FIELD_TYPE_LABELS).map(([value, label]) => ({ value, label }));

interface FieldRowEditorProps {
  form: SettingsForm;
  row: FieldRow;
  index: number;
  count: number;
}

/** One declared field: its name, type, whether it is required, its length or choices, and its place. */
function FieldRowEditor({ form, row, index, count }: FieldRowEditorProps) {
  const path = (property: string) => `fields.${index}.${property}`;
  const label = row.name.trim() === '' ? `field ${index + 1}` : row.name.trim();
  return (
    <Paper withBorder p="md" component="fieldset" aria-label={`Field ${index + 1}`} data-testid="declared-field">
      <Stack gap="xs">
        <Group align="flex-start" grow preventGrowOverflow={false} wrap="wrap">
          <TextInput
            label="Name"
            required
            miw={160}
            key={form.key(path('name'))}
            {...form.getInputProps(path('name'))}
          />
          <Select
            label="Type"
            data={TYPE_OPTIONS}
            allowDeselect={false}
            miw={160}
            key={form.key(path('type'))}
            {...form.getInputProps(path('type'))}
          />
        </Group>
        <Checkbox
          label="Required"
          key={form.key(path('required'))}
          {...form.getInputProps(path('required'), { type: 'checkbox' })}
        />
        {LENGTH_FIELD_TYPES.includes(row.type) ? (
          <NumberInput
            label={row.type === 'LIST' ? 'Maximum length of each item (characters)' : 'Maximum length (characters)'}
            description="Empty: no limit of its own."
            min={1}
            allowDecimal={false}
            w={{ base: '100%', sm: 320 }}
            key={form.key(path('maxLength'))}
            {...form.getInputProps(path('maxLength'))}
          />
        ) : null}
        {row.type === 'CHOICE' ? (
          <Textarea
            label="Choices"
            description="One a line; a submission must send one of them exactly."
            autosize
            minRows={2}
            key={form.key(path('choices'))}
            {...form.getInputProps(path('choices'))}
          />
        ) : null}
        <Group gap="xs" justify="flex-end">
          <ActionIcon
            variant="default"
            aria-label={`Move ${label} up`}
            disabled={index === 0}
            onClick={() => form.reorderListItem('fields', { from: index, to: index - 1 })}
          >
            <IconArrowUp size={16} aria-hidden />
          </ActionIcon>
          <ActionIcon
            variant="default"
            aria-label={`Move ${label} down`}
            disabled={index === count - 1}
            onClick={() => form.reorderListItem('fields', { from: index, to: index + 1 })}
          >
            <IconArrowDown size={16} aria-hidden />
          </ActionIcon>
          <ActionIcon
            variant="default"
            color="red"
            aria-label={`Remove ${label}`}
            onClick={() => form.removeListItem('fields', index)}
          >
            <IconTrash size={16} aria-hidden />
          </ActionIcon>
        </Group>
      </Stack>
    </Paper>
  );
}

export function FieldsCard({ form }: { form: SettingsForm }) {
  // Watched: the rows, and which inputs each shows, follow the list (uncontrolled inputs do not re-render).
  const fields = form.useWatchValue('fields');
  const listError = form.errors.fields;
  return (
    <SettingsSection
      title="Fields"
      intro="The fields this form takes, in the order the inbox shows them. A submission that does not match is refused with fields_invalid and stored nowhere. Without fields, every key is accepted."
    >
      {fields.length === 0 ? (
        <Text size="sm" data-testid="no-declared-fields">
          No fields declared: every key is accepted.
        </Text>
      ) : null}
      {fields.map((row, index) => (
        <FieldRowEditor key={row.key} form={form} row={row} index={index} count={fields.length} />
      ))}
      {typeof listError === 'string' ? (
        <Text size="sm" c="red" role="alert">
          {listError}
        </Text>
      ) : null}
      <Group>
        <Button
          variant="default"
          leftSection={<IconPlus size={16} aria-hidden />}
          onClick={() => form.insertListItem('fields', newFieldRow())}
        >
          Add field
        </Button>
      </Group>
      {fields.length > 0 ? (
        <Radio.Group
          label="Fields the form does not declare"
          key={form.key('unknownFields')}
          {...form.getInputProps('unknownFields')}
        >
          <Stack gap="xs" mt="xs">
            <Radio value="REFUSE" label="Refuse the submission" />
            <Radio value="DROP" label="Leave them out and store the rest" />
          </Stack>
        </Radio.Group>
      ) : null}
    </SettingsSection>
  );
}
