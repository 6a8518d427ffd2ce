import type { Readable } from "node:stream";

/** A file sent in a multipart body, read into memory. */
export interface UploadedFile {
  kind: "file";
  field: string;
  filename: string;
  mimetype: string;
  data: Buffer;
}

/** A file arriving in a multipart body, not yet read: its bytes flow through `stream` once. */
export interface IncomingFile {
  filename: string;
  mimetype: string;
  /** `truncated` turns true when the file passed the size limit and the rest was dropped. */
  stream: Readable & AsyncIterable<Buffer> & { truncated: boolean };
}
