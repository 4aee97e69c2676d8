// A new webhook for the form: its URL and an optional description; its secret is shown next, once.
import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from 'urql';
import { ErrorAlert } from '../../components/error-alert';
import { notifySuccess } from '../../components/notify';
import { CreateWebhookDocument } from '../../gql/graphql';
import { fieldErrors } from '../../lib/api-errors';

export function NewWebhookDialog({
  formId,
  opened,
  onClose,
  onCreated,
}: {
  formId: string;
  opened: boolean;
  onClose: () => void;
  onCreated: (url: string, secret: string) => void;
}) {
  const [{ fetching, error }, createWebhook] = useMutation(CreateWebhookDocument);
  const form = useForm({ mode: 'uncontrolled', initialValues: { url: '', description: '' } });
  const close = () => {
    form.reset();
    onClose();
  };
  const submit = form.onSubmit(async (values) => {
    const url = values.url.trim();
    if (url === '') {
      form.setFieldError('url', 'Enter the URL that receives the events');
      return;
    }
    const description = values.description.trim();
    const result = await createWebhook(
      { input: { formId, url, description: description === '' ? null : description } },
      { additionalTypenames: ['Webhook'] },
    );
    if (result.error || !result.data) {
      form.setErrors(fieldErrors(result.error));
      return;
    }
    notifySuccess('Webhook created');
    form.reset();
    onCreated(result.data.createWebhook.webhook.url, result.data.createWebhook.secret);
  });
  return (
    <Modal opened={opened} onClose={close} title="New webhook" centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label="URL"
            description="http:// or https://, where each event is POSTed, signed"
            placeholder="https://crm.example.com/hooks/intake"
            required
            type="url"
            data-autofocus
            key={form.key('url')}
            {...form.getInputProps('url')}
          />
          <TextInput
            label="Description"
            description="Optional: what receives it"
            key={form.key('description')}
            {...form.getInputProps('description')}
          />
          <ErrorAlert error={error} fieldsShownElsewhere={['url', 'description']} />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={fetching}>
              Create webhook
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
