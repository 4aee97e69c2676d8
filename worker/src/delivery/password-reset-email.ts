// The password reset e-mail: plain text, the link on a line of its own so mail clients make it clickable.
import type { NotificationEmail } from './notification-email.js';

export function passwordResetEmail({ link, expiresAt }: { link: string; expiresAt: Date }): NotificationEmail {
  const lines = [
    'Someone asked to reset the password of your Intake account.',
    '',
    'Open this link to choose a new password:',
    '',
    link,
    '',
    `The link works once and until ${expiresAt.toISOString()}.`,
    'Your two-factor sign-in stays as it is: the next sign-in still asks for your code.',
    'If you did not ask for this, ignore this e-mail: your password stays as it is.',
    '',
  ];
  return { subject: 'Reset your Intake password', text: lines.join('\n') };
}
