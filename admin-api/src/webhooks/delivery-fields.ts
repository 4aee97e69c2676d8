// The zod schema of a webhook URL (a notification's addresses and a webhook's description are
// declared in @intake/shared/input-fields, with the command line's setup file).
import { assertAllowedHost } from '@intake/shared/delivery';
import { z } from 'zod';
import { fail } from '@intake/shared/input-fields';

export const WEBHOOK_URL_MAX_LENGTH = 2048;

const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/;
// Names the setting that lifts the rule (a newcomer's receiver on localhost is the usual case), and
// nothing of the URL or the server.
const PRIVATE_ADDRESS =
  'must not point to a loopback, private, link-local or reserved address ' +
  '(the setting WEBHOOK_ALLOW_PRIVATE=true allows them: for tests and trusted networks only)';
const NOT_HTTP = 'must be an absolute http:// or https:// URL';

/**
 * A webhook URL: absolute http(s), no user name or password, no fragment. Unless private
 * addresses are allowed, an IP literal or `localhost` that the delivery guard would refuse is
 * refused now already (names are checked again, after resolution, at every delivery).
 */
export function webhookUrl(allowPrivate: boolean, whenNull = 'is required') {
  const tooLong = `must be a URL of at most ${WEBHOOK_URL_MAX_LENGTH} characters`;
  return z
    .string({ error: whenNull })
    .trim()
    .min(1, 'is required')
    .transform((text, context): string => {
      if (text.length > WEBHOOK_URL_MAX_LENGTH || CONTROL_CHARACTERS.test(text)) {
        return fail(context, tooLong);
      }
      let url: URL;
      try {
        url = new URL(text);
      } catch {
        return fail(context, NOT_HTTP);
      }
      if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') {
        return fail(context, NOT_HTTP);
      }
      if (url.username !== '' || url.password !== '') {
        return fail(context, 'must not contain a user name or password');
      }
      if (url.hash !== '') {
        return fail(context, 'must not contain a fragment');
      }
      const host = url.hostname.toLowerCase();
      try {
        assertAllowedHost(host, allowPrivate);
      } catch {
        return fail(context, PRIVATE_ADDRESS);
      }
      if (!allowPrivate && (host === 'localhost' || host.endsWith('.localhost'))) {
        return fail(context, PRIVATE_ADDRESS);
      }
      return url.href.length > WEBHOOK_URL_MAX_LENGTH ? fail(context, tooLong) : url.href;
    });
}
