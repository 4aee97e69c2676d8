// `Form.deliveryAlerts`: a field of a form, so whoever may read the form sees that its notifications
// are being lost, even without the Webhooks page (`site:manage`) where they are fixed.
import { Authorized, Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { AdminContext } from '../context.js';
import { FormType } from '../forms/form.type.js';
import { DeliveryAlertType } from './delivery-alert.type.js';
import { formDeliveryAlerts } from './delivery-alerts.js';

@Authorized()
@Resolver(() => FormType)
export class DeliveryAlertsResolver {
  @FieldResolver(() => [DeliveryAlertType], {
    description: 'Its webhooks and notification e-mails that keep failing; empty while they deliver.',
  })
  deliveryAlerts(@Root() form: FormType, @Ctx() { em }: AdminContext): Promise<DeliveryAlertType[]> {
    return formDeliveryAlerts(em, form.id);
  }
}
