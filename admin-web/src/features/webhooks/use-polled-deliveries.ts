// A delivery log's newest entries, kept fresh while someone looks at them: the webhook's and the
// form's notification e-mails'.
import { useMemo } from 'react';
import { useQuery, type AnyVariables, type TypedDocumentNode } from 'urql';
import { usePolling } from '../../lib/use-polling';
import type { DeliveryRow, PolledDeliveries } from './delivery-log';

/** How often the Webhooks page reads its lists again (the webhooks' health and the logs). */
export const POLL_INTERVAL_MS = 5000;
/** How many entries a log shows, newest first. */
export const LOG_SIZE = 20;

/** A delivery log's newest LOG_SIZE entries, refetched every POLL_INTERVAL_MS while the tab is visible. */
export function usePolledDeliveries<Data, Variables extends AnyVariables>(
  query: TypedDocumentNode<Data, Variables>,
  variables: Variables,
  deliveriesOf: (data: Data) => readonly DeliveryRow[],
): PolledDeliveries & { data?: Data } {
  const context = useMemo(() => ({ additionalTypenames: ['Delivery'] }), []);
  const [{ data, error, fetching }, refetch] = useQuery<Data, Variables>({ query, variables, context });
  const refresh = () => refetch({ requestPolicy: 'network-only' });
  usePolling(refresh, POLL_INTERVAL_MS);
  return { data, deliveries: data ? deliveriesOf(data) : undefined, error, fetching, refresh };
}
