import { REFERENCE_SKIPPED_NOTICE, referenceDir } from "./reference.js";

/** Runs once per `vitest run`, before any test file: says once when the reference comparisons are off. */
export default function setup(): void {
  if (referenceDir === undefined) console.log(REFERENCE_SKIPPED_NOTICE);
}
