// The small pages a visitor's browser sees (docs/static-sites.md): the thank-you page with the
// receipt, and the refusal page of a form sent without JavaScript. Server-rendered, every value
// escaped, in the form's own texts and language, under a Content-Security-Policy that allows only
// their own inline style and the one line of script of the back link (by hash).
import { createHash } from 'node:crypto';
import type { BrowserTextKey } from '@intake/shared/browser-posting';
import type { FieldProblem } from '@intake/shared/errors';
import type { ReceiptClaims } from '@intake/shared/receipts';
import { decodeStoredText } from '@intake/shared/stored-text';
import type { IntakeContext } from '../context.js';

export type PageTexts = Record<BrowserTextKey, string>;

const STYLE = [
  'body{font:1rem/1.5 system-ui,sans-serif;margin:0;color:#1a1a1a;background:#fff}',
  'main{max-width:40rem;margin:2rem auto;padding:0 1rem}',
  'h1{font-size:1.6rem;margin:.5rem 0 1rem}',
  '.site{color:#444;margin:0}',
  'dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}',
  'dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}',
  '.button{display:inline-block;padding:.6rem 1rem;background:#1c4f9c;color:#fff;border-radius:.3rem;text-decoration:none}',
  '.button:focus-visible,a:focus-visible{outline:3px solid #f59f00;outline-offset:2px}',
  '.problem{border-left:4px solid #c92a2a;padding-left:1rem}',
].join('');
const BACK_SCRIPT =
  "document.getElementById('back')?.addEventListener('click',function(e){if(history.length>1){e.preventDefault();history.back();}});";

function hashOf(text: string): string {
  return `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
}

const CSP = [
  "default-src 'none'",
  `style-src ${hashOf(STYLE)}`,
  `script-src ${hashOf(BACK_SCRIPT)}`,
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

function page(language: string, title: string, body: string, script = false): string {
  return [
    '<!doctype html>',
    `<html lang="${escapeHtml(language)}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    `<style>${STYLE}</style>`,
    '</head>',
    `<body><main>${body}</main>${script ? `<script>${BACK_SCRIPT}</script>` : ''}</body>`,
    '</html>',
  ].join('\n');
}

/** Sends a page with the headers every one of them has. */
export function sendPage(ctx: IntakeContext, status: number, html: string): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Content-Security-Policy', CSP);
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Cache-Control', 'no-store');
  ctx.body = html;
}

function bytes(size: number, language: string): string {
  const format = (value: number, unit: string) =>
    `${new Intl.NumberFormat(language, { maximumFractionDigits: 1 }).format(value)} ${unit}`;
  if (size < 1024) {
    return format(size, 'B');
  }
  return size < 1024 * 1024 ? format(size / 1024, 'KiB') : format(size / (1024 * 1024), 'MiB');
}

function dateTime(iso: string, language: string): string {
  try {
    return new Intl.DateTimeFormat(language, { dateStyle: 'long', timeStyle: 'long', timeZone: 'UTC' }).format(
      new Date(iso),
    );
  } catch {
    return iso;
  }
}

export interface ThankYouPage {
  texts: PageTexts;
  siteName: string;
  claims: ReceiptClaims;
  /** Where the receipt is downloaded from (this gateway). */
  receiptUrl: string;
}

/** The thank-you page: what was received and when, and the signed receipt to keep. */
export function thankYouPage({ texts, siteName, claims, receiptUrl }: ThankYouPage): string {
  const language = texts.language;
  const files =
    claims.files.length === 0
      ? ''
      : `<dt>${escapeHtml(texts.files)}</dt><dd><ul>${claims.files
          .map((file) => `<li>${escapeHtml(decodeStoredText(file.name))} (${bytes(file.size, language)})</li>`)
          .join('')}</ul></dd>`;
  const body = [
    `<p class="site">${escapeHtml(decodeStoredText(siteName))}</p>`,
    `<h1>${escapeHtml(texts.title)}</h1>`,
    `<p>${escapeHtml(texts.message)}</p>`,
    '<dl>',
    `<dt>${escapeHtml(texts.received)}</dt><dd><time datetime="${escapeHtml(claims.createdAt)}">${escapeHtml(dateTime(claims.createdAt, language))}</time></dd>`,
    `<dt>${escapeHtml(texts.reference)}</dt><dd>${escapeHtml(claims.submissionId)}</dd>`,
    files,
    '</dl>',
    `<p><a class="button" href="${escapeHtml(receiptUrl)}" download="receipt-${escapeHtml(claims.submissionId)}.jws">${escapeHtml(texts.receipt)}</a></p>`,
    `<p>${escapeHtml(texts.receiptHelp)}</p>`,
  ].join('\n');
  return page(language, `${texts.title} – ${decodeStoredText(siteName)}`, body);
}

export interface RefusalPage {
  texts: PageTexts;
  detail: string;
  errors?: readonly FieldProblem[];
  /** The page the form was on, when it is one of the form's origins. */
  back: string | null;
}

/** The refusal of a form sent without JavaScript: why, each failing field, and a way back. */
export function refusalPage({ texts, detail, errors, back }: RefusalPage): string {
  const fields =
    errors && errors.length > 0
      ? `<ul>${errors.map((error) => `<li><strong>${escapeHtml(error.path)}</strong>: ${escapeHtml(error.reason)}</li>`).join('')}</ul>`
      : '';
  const body = [
    `<div class="problem" role="alert"><h1>${escapeHtml(texts.errorTitle)}</h1>`,
    `<p>${escapeHtml(detail)}</p>`,
    fields,
    '</div>',
    back === null ? '' : `<p><a id="back" href="${escapeHtml(back)}">${escapeHtml(texts.back)}</a></p>`,
  ].join('\n');
  return page(texts.language, texts.errorTitle, body, back !== null);
}
