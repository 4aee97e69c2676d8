// A new webhook for the form: its URL, its format (the signed event or a chat platform's message) and an
// optional description; its secret is shown next, once (a chat platform has no use for it).
import { Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from 'urql';
import { ErrorAlert } from '../../components/error-alert';
import { notifySuccess } from '../../components/notify';
import { CreateWebhookDocument, type WebhookFormat } from '../../gql/graphql';
import { fieldErrors } from '../../lib/api-errors';
import { FORMAT_OPTIONS, isWebhookFormat } from './webhook-format';

export function NewWebhookDialog({
  formId,
  opened,
  onClose,
  onCreated,
}: {
  formId: string;
  opened: boolean;
  onClose: () => void;
  /** `secret` is null for a chat format: the platform does not check signatures. */
  onCreated: (url: string, secret: string | null) => void;
}) {
  const [{ fetching, error }, createWebhook] = useMutation(CreateWebhookDocument);
  const form = useForm({
    mode: 'uncontrolled',
    initialValues: { url: '', format: 'STANDARD' as WebhookFormat, description: '' },
  });
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
      { input: { formId, url, format: values.format, description: description === '' ? null : description } },
      { additionalTypenames: ['Webhook'] },
    );
    if (result.error || !result.data) {
      form.setErrors(fieldErrors(result.error));
      return;
    }
    notifySuccess('Webhook created');
    form.reset();
    onCreated(
      result.data.createWebhook.webhook.url,
      values.format === 'STANDARD' ? result.data.createWebhook.secret : null,
    );
  });
  return (
    <Modal opened={opened} onClose={close} title="New webhook" centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput
            label="URL"
            description="http:// or https://: your receiver, or the incoming-webhook URL the chat platform gave you"
            placeholder="https://crm.example.com/hooks/intake"
            required
            type="url"
            data-autofocus
            key={form.key('url')}
            {...form.getInputProps('url')}
          />
          <Select
            label="Format"
            description="A chat platform gets its own message: the form, the first fields and a link here"
            data={FORMAT_OPTIONS}
            allowDeselect={false}
            key={form.key('format')}
            {...form.getInputProps('format')}
            onChange={(value) => {
              if (isWebhookFormat(value)) {
                form.setFieldValue('format', value);
              }
            }}
          />
          <TextInput
            label="Description"
            description="Optional: what receives it"
            key={form.key('description')}
            {...form.getInputProps('description')}
          />
          <ErrorAlert error={error} fieldsShownElsewhere={['url', 'format', 'description']} />
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
