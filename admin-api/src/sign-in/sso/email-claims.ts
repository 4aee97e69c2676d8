// Which e-mail the provider vouches for, read from one answer (the ID token or the userinfo answer),
// never the address of one and the verification of the other. Only the boolean `true` verifies:
// `"true"` (a string) is what a provider account might set as a custom attribute, not what the
// provider vouches for. Entra ID sends no `email_verified`; its optional claim `xms_edov` stands in.

/** The claim that says the address is verified: `email_verified`, else Entra ID's `xms_edov`. */
function verifiedClaim(claims: Record<string, unknown>): unknown {
  return claims.email_verified ?? claims.xms_edov;
}

/** Whether this answer lacks the e-mail or its verification, so that the other answer must say both. */
export function needsUserInfo(claims: Record<string, unknown>): boolean {
  return typeof claims.email !== 'string' || verifiedClaim(claims) === undefined;
}

/** The address in lower case (empty when there is none) and whether this same answer verifies it. */
export function emailClaimsOf(claims: Record<string, unknown>): { email: string; verified: boolean } {
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  return { email, verified: email !== '' && verifiedClaim(claims) === true };
}
