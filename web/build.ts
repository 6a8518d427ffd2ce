/**
 * Builds the browser app into dist/web: content-hashed files, a `.gz` and a `.br` beside each,
 * and manifest.json mapping logical names (app.js, app.css, auth.css, favicon.svg, katex.css, and
 * app.js.import.N for the chunks app.js imports) to hashed ones. Run by `npm run build` after the server; `buildWeb` is also what the size-budget test measures.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import { build, type Metafile } from "esbuild";

/** What one build produced, with gzipped sizes for the budget. */
export type WebBuild = {
  outdir: string;
  manifest: Record<string, string>;
  /** Gzipped bytes of app.js plus every chunk it imports statically (what the first page load fetches). */
  firstLoadJsGzip: number;
  /** Gzipped bytes of every JavaScript file, lazy chunks included. */
  allJsGzip: number;
  /** Gzipped bytes of every stylesheet (app, auth, KaTeX). */
  cssGzip: number;
  files: { name: string; bytes: number; gzip: number }[];
};

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, "..");
/** What gets `.gz`/`.br` siblings: text. Fonts are woff2 (compressed already) for every browser the app supports. */
const compressible = /\.(js|css|svg|json)$/;
/** Files of an earlier build are removed once this old: a running server or a concurrent build may still use them. */
const STALE_MS = 10 * 60 * 1000;

/**
 * Builds the web app into `outdir` and returns what it wrote. Names are content hashes, so builds
 * running at once write the same bytes; manifest.json is replaced atomically, last.
 */
export async function buildWeb(outdir = join(root, "dist/web"), options: { minify?: boolean } = {}): Promise<WebBuild> {
  mkdirSync(outdir, { recursive: true });
  const startedAt = Date.now();
  const manifest: Record<string, string> = {};

  const katex = await build({
    entryPoints: { katex: join(root, "node_modules/katex/dist/katex.min.css") },
    outdir,
    bundle: true,
    minify: true,
    entryNames: "[name]-[hash]",
    assetNames: "[name]-[hash]",
    loader: { ".woff2": "file", ".woff": "file", ".ttf": "file" },
    metafile: true,
    logLevel: "warning",
  });
  manifest["katex.css"] = entryOutput(katex.metafile, outdir, ".css");

  const app = await build({
    entryPoints: { app: join(here, "main.tsx") },
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    // light-dark() in web/styles/variables.css sets the floor: Chrome 123, Firefox 120, Safari 17.5.
    target: ["chrome123", "firefox120", "safari17.5"],
    minify: options.minify ?? true,
    jsx: "automatic",
    jsxImportSource: "preact",
    entryNames: "[name]-[hash]",
    chunkNames: "chunk-[hash]",
    assetNames: "[name]-[hash]",
    define: { KATEX_CSS: JSON.stringify(manifest["katex.css"]) },
    metafile: true,
    legalComments: "none",
    logLevel: "warning",
  });
  manifest["app.js"] = entryOutput(app.metafile, outdir, ".js");

  // The page's first script (a classic one, run as soon as it arrives): it starts the open narrow's first request and draws its list.
  const boot = await build({
    entryPoints: { boot: join(here, "boot.ts") },
    outdir,
    bundle: true,
    format: "iife",
    target: ["chrome123", "firefox120", "safari17.5"],
    minify: options.minify ?? true,
    entryNames: "[name]-[hash]",
    define: { KATEX_CSS: JSON.stringify(manifest["katex.css"]) },
    metafile: true,
    legalComments: "none",
    logLevel: "warning",
  });
  manifest["boot.js"] = entryOutput(boot.metafile, outdir, ".js");
  manifest["app.css"] = entryOutput(app.metafile, outdir, ".css");

  const authSource = join(here, "styles/auth.css");
  if (existsSync(authSource)) {
    const auth = await build({ entryPoints: { auth: authSource }, outdir, bundle: true, minify: true, entryNames: "[name]-[hash]", metafile: true, logLevel: "warning" });
    manifest["auth.css"] = entryOutput(auth.metafile, outdir, ".css");
  }

  const favicon = readFileSync(join(here, "favicon.svg"));
  manifest["favicon.svg"] = `favicon-${createHash("sha256").update(favicon).digest("hex").slice(0, 8)}.svg`;
  writeFileSync(join(outdir, manifest["favicon.svg"]), favicon);

  const outputs = new Set([...Object.keys(katex.metafile.outputs), ...Object.keys(app.metafile.outputs), ...Object.keys(boot.metafile.outputs)].map((p) => relative(outdir, resolve(root, p))));
  for (const name of Object.values(manifest)) outputs.add(name);
  const files: WebBuild["files"] = [];
  for (const name of outputs) {
    const data = readFileSync(join(outdir, name));
    const gz = gzipSync(data, { level: 9 });
    files.push({ name, bytes: data.length, gzip: gz.length });
    if (!compressible.test(name)) continue;
    writeFileSync(join(outdir, `${name}.gz`), gz);
    writeFileSync(join(outdir, `${name}.br`), brotliCompressSync(data, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }));
  }
  // The chunks app.js imports, as "app.js.import.N": the page names them for preloading, so the
  // browser fetches them with app.js instead of one wave after another. That is app.js's static
  // imports and the app itself (app-start.tsx), which app.js imports as soon as boot.ts's first
  // list is drawn, with its static imports.
  const firstLoad = staticClosure(app.metafile, outdir, manifest["app.js"], true);
  [...firstLoad].filter((name) => name !== manifest["app.js"]).forEach((name, i) => (manifest[`app.js.import.${i + 1}`] = name));
  const temp = join(outdir, `manifest.json.${process.pid}.tmp`);
  writeFileSync(temp, `${JSON.stringify(manifest, null, 2)}\n`);
  renameSync(temp, join(outdir, "manifest.json"));
  for (const name of readdirSync(outdir)) {
    if (name === "manifest.json" || outputs.has(name.replace(/\.(gz|br)$/, ""))) continue;
    const path = join(outdir, name);
    if (startedAt - statSync(path).mtimeMs > STALE_MS) rmSync(path, { force: true });
  }

  const gzipOf = (name: string) => files.find((f) => f.name === name)?.gzip ?? 0;
  return {
    outdir,
    manifest,
    firstLoadJsGzip: [...firstLoad, manifest["boot.js"]].reduce((sum, name) => sum + gzipOf(name), 0),
    allJsGzip: files.filter((f) => f.name.endsWith(".js")).reduce((sum, f) => sum + f.gzip, 0),
    cssGzip: files.filter((f) => f.name.endsWith(".css")).reduce((sum, f) => sum + f.gzip, 0),
    files,
  };
}

/** The output file (name within outdir) built from the build's one entry point, by extension. */
function entryOutput(meta: Metafile, outdir: string, ext: string): string {
  for (const [path, out] of Object.entries(meta.outputs)) {
    if (!path.endsWith(ext)) continue;
    if (ext === ".css" || out.entryPoint !== undefined) return relative(outdir, resolve(root, path));
  }
  throw new Error(`web build: no ${ext} output`);
}

/** `start` and every JavaScript file it reaches through static imports (and, with `withDynamic`, through `start`'s own import() calls too). */
function staticClosure(meta: Metafile, outdir: string, start: string, withDynamic = false): Set<string> {
  const byName = new Map(Object.entries(meta.outputs).map(([path, out]) => [relative(outdir, resolve(root, path)), out]));
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const imp of byName.get(name)?.imports ?? []) {
      const followed = imp.kind === "import-statement" || (withDynamic && name === start && imp.kind === "dynamic-import");
      if (followed && !imp.external) visit(relative(outdir, resolve(root, imp.path)));
    }
  };
  visit(start);
  return seen;
}
