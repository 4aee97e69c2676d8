// The delivery settings of the configuration: documented defaults, and a lease that must outlive
// the slowest webhook attempt (else two workers could send one delivery).
import { type ConfigError, parseConfig } from '../config/load-config.js';
import { generateSecret } from '../secrets/index.js';

const secrets = () => ({
  API_KEY: generateSecret(32),
  JWT_SECRET: generateSecret(32),
  TOKEN_ENCRYPTION_KEY: generateSecret(32, 'hex'),
});

describe('delivery configuration', () => {
  it('has safe defaults: private addresses refused, 10 s timeout, no SMTP', () => {
    expect(parseConfig(secrets()).delivery).toEqual({
      allowPrivateAddresses: false,
      webhookTimeoutMs: 10_000,
      downloadUrlTtlSeconds: 86_400,
      pollIntervalMs: 1000,
      leaseMs: 60_000,
      smtpUrl: undefined,
      smtpFrom: 'Intake <intake@localhost>',
      confirmationsPerAddressPerHour: 3,
      confirmationsPerFormPerHour: 100,
    });
  });

  it('reads every variable', () => {
    const delivery = parseConfig({
      ...secrets(),
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_DOWNLOAD_URL_TTL_SECONDS: '600',
      DELIVERY_POLL_INTERVAL_MS: '250',
      DELIVERY_LEASE_MS: '4000',
      SMTP_URL: 'smtps://user:pass@mail.example.com:465',
      SMTP_FROM: 'Forms <forms@example.com>',
      CONFIRMATION_MAX_PER_ADDRESS_PER_HOUR: '1',
      CONFIRMATION_MAX_PER_FORM_PER_HOUR: '20',
    }).delivery;
    expect(delivery).toEqual({
      allowPrivateAddresses: true,
      webhookTimeoutMs: 2000,
      downloadUrlTtlSeconds: 600,
      pollIntervalMs: 250,
      leaseMs: 4000,
      smtpUrl: 'smtps://user:pass@mail.example.com:465',
      smtpFrom: 'Forms <forms@example.com>',
      confirmationsPerAddressPerHour: 1,
      confirmationsPerFormPerHour: 20,
    });
  });

  it('refuses a lease shorter than the timeout plus 2 s, and a non-SMTP URL without echoing it', () => {
    let problems: string[] = [];
    try {
      parseConfig({ ...secrets(), WEBHOOK_TIMEOUT_MS: '10000', DELIVERY_LEASE_MS: '11000' });
    } catch (error) {
      problems = (error as ConfigError).problems;
    }
    expect(problems.join('\n')).toContain('DELIVERY_LEASE_MS');
    try {
      parseConfig({ ...secrets(), SMTP_URL: 'http://secret-host' });
      problems = [];
    } catch (error) {
      problems = (error as ConfigError).problems;
    }
    expect(problems.join('\n')).toContain('SMTP_URL');
    expect(problems.join('\n')).not.toContain('secret-host');
  });
});
