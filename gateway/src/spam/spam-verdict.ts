// Where spam is decided: how a submission that passed every check is stored. Spam or not (and why),
// and what the duplicate filter compares it by. A function of its arguments alone (no database, no
// network); it is asynchronous only because the content rules let the event loop turn over long
// text (content-rules.ts).
import { contentHash, contentSpamReason, type SpamReason } from './content-rules.js';

/** The form's settings the verdict reads (a cached Form row has them all). */
export interface SpamRules {
  honeypotFields?: readonly string[] | null;
  maxLinks?: number | null;
  blockedWords?: readonly string[] | null;
  /** Null: no duplicate filter. */
  duplicateWindowSeconds?: number | null;
}

export interface SubmissionToJudge {
  /** The values as sent, the CAPTCHA answer removed (the rules judge them before sanitising). */
  fields: Record<string, unknown>;
  /** The checked files, in order. */
  files: readonly { field: string; name: string; mimeType: string; sha256: string }[];
  /** The CAPTCHA provider could not be reached and the form takes such submissions as spam. */
  captchaUnavailable: boolean;
  /** Spam already decided before the content was judged (a browser post's challenge or honeypot). */
  decided?: SpamReason;
}

/** What the duplicate filter looks up: this content on this form within the window. */
export interface DuplicateFilter {
  contentHash: string;
  windowSeconds: number;
}

export interface SpamVerdict {
  /** Undefined: not spam. */
  spamReason: SpamReason | undefined;
  /** Null when the form has no duplicate window. */
  duplicateFilter: DuplicateFilter | null;
}

/**
 * The verdict on a submission. A CAPTCHA outage the form takes as spam comes first; then the
 * content rules (honeypot, links, blocked words). The duplicate key hashes the verdict too: content
 * stored as spam is no duplicate of the same content stored as good.
 */
export async function spamVerdict(rules: SpamRules, submission: SubmissionToJudge): Promise<SpamVerdict> {
  const spamReason: SpamReason | undefined = submission.captchaUnavailable
    ? 'captcha_unavailable'
    : submission.decided !== undefined
      ? submission.decided
      : await contentSpamReason(
          {
            honeypotFields: rules.honeypotFields ?? null,
            maxLinks: rules.maxLinks ?? null,
            blockedWords: rules.blockedWords ?? null,
          },
          submission.fields,
          submission.files.map((file) => file.field),
        );
  const windowSeconds = rules.duplicateWindowSeconds ?? null;
  return {
    spamReason,
    duplicateFilter:
      windowSeconds === null
        ? null
        : {
            contentHash: contentHash({ fields: submission.fields, files: submission.files, spamReason }),
            windowSeconds,
          },
  };
}
