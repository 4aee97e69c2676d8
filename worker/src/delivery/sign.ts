// Standard Webhooks signatures (https://www.standardwebhooks.com): HMAC-SHA256 over
// `<webhook-id>.<webhook-timestamp>.<body>` with the secret's bytes, sent as `v1,<base64>`.
import { createHmac } from 'node:crypto';
import { webhookSigningKey } from '@intake/shared/delivery';

export interface SignedHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

export function signWebhook(secret: string, id: string, timestamp: Date, body: string): SignedHeaders {
  const seconds = String(Math.floor(timestamp.getTime() / 1000));
  const signature = createHmac('sha256', webhookSigningKey(secret)).update(`${id}.${seconds}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': seconds, 'webhook-signature': `v1,${signature}` };
}
