// A page's code is fetched when its route is first opened (see app/router.tsx). After an upgrade, a
// console left open still asks for the old build's files, which are gone: the import fails. The
// browsers word that failure differently, and Vite's preloading of a chunk's styles in its own way.
const CHUNK_LOAD_FAILURES = [
  /Failed to fetch dynamically imported module/i, // Chromium
  /error loading dynamically imported module/i, // Firefox
  /Importing a module script failed/i, // Safari
  /Unable to preload CSS/i, // Vite's preload of a chunk's stylesheet
];

/** Whether `error` is a page's code that could not be fetched (a reload gets the current build). */
export function isChunkLoadError(error: unknown): boolean {
  return error instanceof Error && CHUNK_LOAD_FAILURES.some((failure) => failure.test(error.message));
}
