/** The request limits of one intake request: global config narrowed by the form. */
export interface BodyLimits {
  maxBodySize: number;
  /** Bytes of a JSON or urlencoded body: parsed whole in memory, so far below maxBodySize. */
  maxFormBodySize: number;
  maxFileSize: number;
  maxFiles: number;
  /** Where uploads are streamed before inspection (never kept there). */
  tempDir: string;
}

/** Bytes of a single string value; also multer's per-field cap, so an oversized field stops early. */
export const MAX_STRING_BYTES = 64 * 1024;
/** Fields (not files) per request, and keys plus array items of a JSON body, to bound the work of parsing. */
export const MAX_FIELDS = 1000;
