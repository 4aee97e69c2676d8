import { isDeepStrictEqual } from 'node:util';
import type { SigningKeys } from '../signing/index.js';
import { RECEIPT_TYPE, receiptClaims, type ReceiptClaims, type ReceiptSubject } from './claims.js';

/** Signs the receipt of a submission (a compact JWS, EdDSA). */
export function signReceipt(keys: SigningKeys, subject: ReceiptSubject): Promise<string> {
  return keys.sign(receiptClaims(subject), RECEIPT_TYPE);
}

/** Why a receipt does not hold; null when it does. */
export type ReceiptProblem =
  /** Not a well-formed receipt, a bad signature, or a key that is not (or no longer) published. */
  | 'signature'
  /** Signed, but about another submission (id, form, site or time). */
  | 'submission'
  /** The stored data is not what was signed. */
  | 'data'
  /** The stored files are not what was signed. */
  | 'files';

export interface ReceiptCheck {
  valid: boolean;
  /** The `kid` that signed it, when the signature verified. */
  keyId: string | null;
  problem: ReceiptProblem | null;
}

/**
 * Checks a stored receipt against the published keys and against the submission as it is stored
 * now: valid only when the signature verifies and every signed claim equals the stored one.
 */
export async function checkReceipt(keys: SigningKeys, receipt: string, stored: ReceiptSubject): Promise<ReceiptCheck> {
  let signed: ReceiptClaims;
  let keyId: string;
  try {
    const verified = await keys.verify(receipt);
    if (verified.type !== RECEIPT_TYPE) {
      return { valid: false, keyId: null, problem: 'signature' };
    }
    signed = verified.payload as ReceiptClaims;
    keyId = verified.kid;
  } catch {
    return { valid: false, keyId: null, problem: 'signature' };
  }
  const expected = receiptClaims(stored);
  const problem: ReceiptProblem | null =
    signed.submissionId !== expected.submissionId ||
    signed.formCode !== expected.formCode ||
    signed.siteId !== expected.siteId ||
    signed.createdAt !== expected.createdAt
      ? 'submission'
      : signed.dataSha256 !== expected.dataSha256
        ? 'data'
        : !isDeepStrictEqual(signed.files, expected.files)
          ? 'files'
          : null;
  return { valid: problem === null, keyId, problem };
}
