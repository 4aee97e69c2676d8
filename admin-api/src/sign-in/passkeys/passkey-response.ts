// What the browser answers a ceremony with (@simplewebauthn/browser's JSON), checked for shape before
// the library reads it, so a malformed answer is a clear refusal rather than a thrown TypeError. The
// challenge is read from the client data only to find its stored hash; the library then checks the
// whole answer (challenge, origin, RP ID, signature) against it.
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { z } from 'zod';

const base64url = z
  .string()
  .max(16384)
  .regex(/^[A-Za-z0-9_-]*$/);

const clientExtensionResults = z.record(z.string(), z.unknown()).default({});

/** A credential's answer as @simplewebauthn/browser sends it; `response` is what the ceremony adds. */
function credentialAnswer<Shape extends z.ZodRawShape>(response: Shape) {
  return z.object({
    id: base64url.min(1),
    rawId: base64url.min(1),
    type: z.literal('public-key'),
    authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
    clientExtensionResults,
    response: z.object({ clientDataJSON: base64url.min(1), ...response }),
  });
}

const registrationResponse = credentialAnswer({
  attestationObject: base64url.min(1),
  transports: z.array(z.string().max(32)).max(10).optional(),
});

const authenticationResponse = credentialAnswer({
  authenticatorData: base64url.min(1),
  signature: base64url.min(1),
  userHandle: base64url.optional(),
});

const clientData = z.object({ challenge: z.string().max(512) });

export function parseRegistrationResponse(value: unknown): RegistrationResponseJSON | null {
  const parsed = registrationResponse.safeParse(value);
  return parsed.success ? (parsed.data as RegistrationResponseJSON) : null;
}

export function parseAuthenticationResponse(value: unknown): AuthenticationResponseJSON | null {
  const parsed = authenticationResponse.safeParse(value);
  return parsed.success ? (parsed.data as AuthenticationResponseJSON) : null;
}

/** The challenge the client data answers, or null when it cannot be read. */
export function answeredChallenge(response: { response: { clientDataJSON: string } }): string | null {
  try {
    const decoded: unknown = JSON.parse(Buffer.from(response.response.clientDataJSON, 'base64url').toString('utf8'));
    const parsed = clientData.safeParse(decoded);
    return parsed.success ? parsed.data.challenge : null;
  } catch {
    return null;
  }
}
