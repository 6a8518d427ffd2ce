import fs from "node:fs";
import path from "node:path";

/**
 * Zulip's reference material (its OpenAPI description, its public Markdown cases) lives outside
 * this repository. Tests that compare with it read it from the directory named by this variable,
 * and are skipped when it is unset; nothing else in the suite reads outside the checkout.
 */
export const REFERENCE_VARIABLE = "ROOKERY_ZULIP_REFERENCE";

/** The reference directory as an absolute path, or undefined when the comparisons are off. */
export const referenceDir: string | undefined = locate(process.env[REFERENCE_VARIABLE]);

/** The line said once per run when the comparisons are off. */
export const REFERENCE_SKIPPED_NOTICE =
  `${REFERENCE_VARIABLE} is not set: responses are not validated against Zulip's OpenAPI document ` +
  "and Zulip's Markdown corpus is skipped (see the README's Tests section).";

/** A reference file's text, or undefined when the comparisons are off. */
export function readReference(name: string): string | undefined {
  if (referenceDir === undefined) return undefined;
  return fs.readFileSync(path.join(referenceDir, name), "utf8");
}

/** The absolute path of a reference file (for messages), or undefined when the comparisons are off. */
export function referencePath(name: string): string | undefined {
  return referenceDir === undefined ? undefined : path.join(referenceDir, name);
}

function locate(value: string | undefined): string | undefined {
  if (value === undefined || value === "") return undefined;
  const dir = path.resolve(value);
  // Set but wrong is a mistake to report, not a reason to skip quietly.
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new Error(`${REFERENCE_VARIABLE}=${value}: no such directory`);
  return dir;
}
