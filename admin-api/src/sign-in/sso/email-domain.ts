import type { OidcConfig } from '@intake/shared/config';

/** Whether OIDC_ALLOWED_DOMAINS lets this e-mail sign in through the provider (empty: any domain). */
export function emailDomainAllowed(settings: Pick<OidcConfig, 'allowedDomains'>, email: string): boolean {
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  return settings.allowedDomains.length === 0 || settings.allowedDomains.includes(domain);
}
