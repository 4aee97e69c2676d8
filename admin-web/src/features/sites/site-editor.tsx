// The dialog that creates a site or edits one: Name and Domain, the API's objections next to each.
import { Button, Group, Modal, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useEffect } from 'react';
import { useMutation } from 'urql';
import { ErrorAlert } from '../../components/error-alert';
import { notifySuccess } from '../../components/notify';
import { CreateSiteDocument, UpdateSiteDocument } from '../../gql/graphql';
import { fieldErrors } from '../../lib/api-errors';
import { decodeStoredText } from '../../lib/decode-stored-text';

const FIELDS = ['name', 'domain'] as const;

export interface EditedSite {
  id: string;
  name: string;
  domain?: string | null;
}

interface SiteEditorProps {
  opened: boolean;
  /** The site to edit; none to create one. */
  site: EditedSite | null;
  onClose: () => void;
  onSaved: () => void;
}

export function SiteEditor({ opened, site, onClose, onSaved }: SiteEditorProps) {
  const [created, createSite] = useMutation(CreateSiteDocument);
  const [updated, updateSite] = useMutation(UpdateSiteDocument);
  const form = useForm({ mode: 'uncontrolled', initialValues: { name: '', domain: '' } });
  const state = site ? updated : created;

  useEffect(() => {
    if (opened) {
      // The stored form is HTML-safe; the field shows (and sends back) what a person typed.
      form.setValues({ name: decodeStoredText(site?.name), domain: site?.domain ?? '' });
      form.resetDirty();
      form.clearErrors();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps -- reset only when the dialog opens
  }, [opened, site]);

  const submit = form.onSubmit(async (values) => {
    const name = values.name.trim();
    const domain = values.domain.trim();
    if (name === '') {
      form.setFieldError('name', 'Enter a name');
      return;
    }
    const result = site
      ? await updateSite({ id: site.id, input: { name, domain: domain === '' ? null : domain } })
      : await createSite({ input: { name, ...(domain === '' ? {} : { domain }) } });
    if (result.error) {
      form.setErrors(fieldErrors(result.error));
      return;
    }
    notifySuccess(site ? `Site ${name} saved` : `Site ${name} created`);
    onSaved();
    onClose();
  });

  return (
    <Modal opened={opened} onClose={onClose} title={site ? 'Edit site' : 'New site'} centered>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label="Name" required data-autofocus key={form.key('name')} {...form.getInputProps('name')} />
          <TextInput
            label="Domain"
            description="Optional: the site's host name, e.g. shop.example.com"
            key={form.key('domain')}
            {...form.getInputProps('domain')}
          />
          <ErrorAlert error={state.error} fieldsShownElsewhere={FIELDS} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={state.fetching}>
              {site ? 'Save site' : 'Create site'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
