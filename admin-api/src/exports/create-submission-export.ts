import type { Em } from '@intake/shared/db';
import type { ExportLinks, ExportRequest, SignedExportLink } from './export-link.js';
import { requireLiveForm } from '../lib/live-finders.js';

/**
 * A signed, short-lived link to an export of a live form's submissions. The checked filter travels
 * inside the signed link, so the download cannot widen it; GET /exports/<token> streams it.
 */
export async function createSubmissionExport(
  em: Em,
  links: ExportLinks,
  request: ExportRequest,
): Promise<SignedExportLink> {
  const form = await requireLiveForm(em, request.formId);
  return links.sign({ ...request, formId: form.id });
}
