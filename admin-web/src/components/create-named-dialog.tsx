// The dialog that creates a thing from just its name (a form): the name is required
// and trimmed, the API's field errors show under it, and the dialog closes and clears on success.
import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import type { CombinedError } from 'urql';
import { ErrorAlert } from './error-alert';
import { fieldErrors } from '../lib/api-errors';

interface CreateNamedDialogProps {
  opened: boolean;
  onClose: () => void;
  /** The dialog's heading, e.g. `New form`. */
  title: string;
  /** Under the name field's label, if the name needs explaining. */
  description?: string;
  /** The submit button's name, e.g. `Create form`. */
  submitLabel: string;
  /** The mutation's state, for the pending button and the errors not tied to the name. */
  fetching: boolean;
  error?: CombinedError;
  /** Creates it; `created: false` keeps the dialog open with `error`'s field errors. */
  create: (name: string) => Promise<{ created: boolean; error?: CombinedError }>;
}

export function CreateNamedDialog({
  opened,
  onClose,
  title,
  description,
  submitLabel,
  fetching,
  error,
  create,
}: CreateNamedDialogProps) {
  const form = useForm({ mode: 'uncontrolled', initialValues: { name: '' } });
  const close = () => {
    form.reset();
    onClose();
  };
  const submit = form.onSubmit(async (values) => {
    const name = values.name.trim();
    if (name === '') {
      form.setFieldError('name', 'Enter a name');
      return;
    }
    const outcome = await create(name);
    if (!outcome.created) {
      form.setErrors(fieldErrors(outcome.error));
      return;
    }
    close();
  });
  return (
    <Modal opened={opened} onClose={close} title={title} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label="Name"
            description={description}
            required
            data-autofocus
            key={form.key('name')}
            {...form.getInputProps('name')}
          />
          <ErrorAlert error={error} fieldsShownElsewhere={['name']} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={fetching}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
