// "Not spam" queues the deliveries the gateway would have written for a good submission: the shared
// table of which deliveries a submission gets (DELIVERY_CASES), which the gateway's write paths run
// too, played here for its good cases, on the real database.
import {
  CASE_DATA,
  DELIVERY_CASES,
  arrangeDeliveryCase,
  createTestServices,
  expectedOutbox,
  makeSite,
  outboxOf,
} from '@intake/shared/test';
import { makeSubmission } from '../test/factories.js';
import { markNotSpam } from './mark-not-spam.js';

let services: Awaited<ReturnType<typeof createTestServices>>;

beforeAll(async () => {
  services = await createTestServices();
});

afterAll(async () => {
  await services.close();
});

describe('markNotSpam writes the deliveries of a good submission', () => {
  it.each(DELIVERY_CASES.filter((deliveryCase) => !deliveryCase.spam))('$name', async (deliveryCase) => {
    const { site } = await makeSite(services);
    const arranged = await arrangeDeliveryCase(services, site, deliveryCase);
    const { submission } = await makeSubmission(services, arranged.form, {
      spam: true,
      data: { ...(deliveryCase.data ?? CASE_DATA) },
    });
    expect(await outboxOf(services, submission.id, arranged)).toEqual([]);

    const marked = await markNotSpam(services.db.em.fork(), submission.id);
    expect(marked.submission.spam).toBe(false);
    expect(await outboxOf(services, submission.id, arranged)).toEqual(expectedOutbox(deliveryCase.deliveries));
  });
});
