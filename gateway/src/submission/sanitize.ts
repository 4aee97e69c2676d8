// The sanitiser is shared (the admin API stores notes with it); the gateway's modules import it here.
export * from '@intake/shared/sanitize';
