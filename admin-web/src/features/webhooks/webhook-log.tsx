// One webhook's delivery log, on its card.
import { WebhookDeliveriesDocument } from '../../gql/graphql';
import { DeliveryLog } from './delivery-log';
import { LOG_SIZE, usePolledDeliveries } from './use-polled-deliveries';

export function WebhookLog({ webhookId }: { webhookId: string }) {
  const variables = { webhookId, first: LOG_SIZE };
  const log = usePolledDeliveries(WebhookDeliveriesDocument, variables, (data) => data.deliveries);
  return (
    <DeliveryLog
      log={log}
      subject="delivery log"
      caption="Deliveries to this webhook, newest first"
      empty="Nothing sent yet: events appear here when a submission arrives or you send a test."
    />
  );
}
