/** The request limits of one intake request: global config narrowed by the form. */
export interface BodyLimits {
  maxBodySize: number;
  maxFileSize: number;
  maxFiles: number;
  /** Where uploads are streamed before inspection (never kept there). */
  tempDir: string;
}

/** Bytes of a single string value; also multer's per-field cap, so an oversized field stops early. */
export const MAX_STRING_BYTES = 64 * 1024;
/** Fields (not files) per request, to bound the work of parsing bracket names. */
export const MAX_FIELDS = 1000;
