import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildWeb, type WebBuild } from "../../web/build.js";

/** Issue 23's size budget, gzipped: a build over it fails npm test. */
const FIRST_LOAD_JS = 60 * 1024;
const ALL_JS = 150 * 1024;
const CSS = 15 * 1024;

describe("web app build", () => {
  const outdir = mkdtempSync(join(tmpdir(), "rookery-web-"));
  let built: WebBuild;
  afterAll(() => rmSync(outdir, { recursive: true, force: true }));

  it("writes hashed files, .gz and .br siblings and the manifest", async () => {
    built = await buildWeb(outdir);
    const manifest = JSON.parse(readFileSync(join(outdir, "manifest.json"), "utf8")) as Record<string, string>;
    expect(manifest).toEqual(built.manifest);
    expect(manifest["app.js"]).toMatch(/^app-[A-Z0-9]{8}\.js$/);
    expect(manifest["app.css"]).toMatch(/^app-[A-Z0-9]{8}\.css$/);
    expect(manifest["katex.css"]).toMatch(/^katex-[A-Z0-9]{8}\.css$/);
    expect(manifest["favicon.svg"]).toMatch(/^favicon-[0-9a-f]{8}\.svg$/);
    for (const name of Object.values(manifest)) {
      expect(readFileSync(join(outdir, `${name}.gz`)).length).toBeGreaterThan(0);
      expect(readFileSync(join(outdir, `${name}.br`)).length).toBeGreaterThan(0);
    }
  }, 60000);

  it("stays within the size budget", () => {
    const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
    console.log(`web app gzipped: first-load JS ${kb(built.firstLoadJsGzip)}, all JS ${kb(built.allJsGzip)}, CSS ${kb(built.cssGzip)}`);
    expect(built.firstLoadJsGzip).toBeLessThanOrEqual(FIRST_LOAD_JS);
    expect(built.allJsGzip).toBeLessThanOrEqual(ALL_JS);
    expect(built.cssGzip).toBeLessThanOrEqual(CSS);
  });
});
