// The invitation e-mail: plain text, the link on a line of its own so mail clients make it clickable.
import type { NotificationEmail } from './notification-email.js';

export interface InvitationEmailInput {
  link: string;
  role: string;
  expiresAt: Date;
}

export function invitationEmail({ link, role, expiresAt }: InvitationEmailInput): NotificationEmail {
  const lines = [
    `You are invited to join the team on Intake as ${role === 'admin' ? 'an' : 'a'} ${role}.`,
    '',
    'Open this link to choose your name and password:',
    '',
    link,
    '',
    `The link works once and until ${expiresAt.toISOString()}.`,
    'If you did not expect this invitation, ignore this e-mail.',
    '',
  ];
  return { subject: 'Your invitation to Intake', text: lines.join('\n') };
}
