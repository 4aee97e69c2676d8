// The form's notification e-mails: who is e-mailed about each submission, and their delivery log.
import { Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { EmailNotConfigured } from '../../components/email-not-configured';
import { EmailDeliveriesDocument } from '../../gql/graphql';
import { paths } from '../../lib/paths';
import { DeliveryLog } from './delivery-log';
import { LOG_SIZE, usePolledDeliveries } from './use-polled-deliveries';

export function EmailLog({ siteId, formId }: { siteId: string; formId: string }) {
  const variables = { formId, first: LOG_SIZE };
  const log = usePolledDeliveries(EmailDeliveriesDocument, variables, (data) => data.emailDeliveries);
  const recipients = log.data?.form?.notifyEmails ?? [];
  const configured = log.data?.limits.emailConfigured;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="email-log-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="email-log-title">
          Notification e-mails
        </Title>
        <EmailNotConfigured configured={configured} />
        <Text size="sm">
          {recipients.length === 0
            ? 'Nobody is e-mailed about new submissions.'
            : configured === false
              ? `New submissions would be e-mailed to ${recipients.join(', ')}.`
              : `Each new submission is e-mailed to ${recipients.join(', ')}.`}{' '}
          <Anchor underline="always" component={Link} to={paths.formSettings(siteId, formId)}>
            Change the addresses in the form&apos;s settings
          </Anchor>
        </Text>
        <DeliveryLog
          log={log}
          subject="e-mail log"
          caption="Notification e-mails of this form, newest first"
          empty="No notification e-mail sent yet."
        />
      </Stack>
    </Paper>
  );
}
