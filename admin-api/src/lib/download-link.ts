// Signed download links are made in shared (the delivery worker puts them into webhook payloads
// too); the admin API serves and verifies them.
export { createDownloadLinks, type DownloadLinkOptions, type DownloadLinks } from '@intake/shared/download-links';
