import path from "node:path";
import { fileURLToPath } from "node:url";
import js from "@eslint/js";
import tseslint from "typescript-eslint";

const root = path.dirname(fileURLToPath(import.meta.url));

/**
 * The layers of ARCHITECTURE.md: each unit (a folder, or a file at the top of src/) and the units
 * it may import. A unit may always import itself; anything not listed is a lower layer reaching up.
 * The server (src/) and the web app (web/) are two programs: neither names the other, and both may
 * use protocol/, which imports neither.
 */
const GROUND = ["base", "algorithms", "config"];
const INFRASTRUCTURE = [...GROUND, "db", "markdown", "uploads", "mail", "events", "cluster"];
const BELOW_CONTEXT = [...INFRASTRUCTURE, "caches"];
const LAYERS = {
  "src/base/": { name: "base", may: [] },
  "src/algorithms/": { name: "algorithms", may: ["base"] },
  "src/config.ts": { name: "config", may: [] },
  "src/db/": { name: "db", may: ["base"] },
  "src/markdown/": { name: "markdown", may: ["base", "algorithms"] },
  "src/uploads/": { name: "uploads", may: ["base", "config"] },
  "src/mail.ts": { name: "mail", may: ["base", "config"] },
  "src/events/": { name: "events", may: ["base", "config", "db"] },
  "src/cluster/": { name: "cluster", may: ["base", "config", "db", "events"] },
  "src/data-lock.ts": { name: "data-lock", may: [...GROUND, "db"] },
  "src/tls.ts": { name: "tls", may: GROUND },
  "src/backup.ts": { name: "backup", may: [...GROUND, "db", "data-lock"] },
  "src/caches/": { name: "caches", may: INFRASTRUCTURE },
  // The context holds the built web app (http/static-files.ts imports only Node and Fastify types).
  "src/context.ts": { name: "context", may: [...BELOW_CONTEXT, "http/static-files"] },
  // lib/ reads and rules may use Zulip's value codecs (http/params.ts imports only base/).
  "src/lib/": { name: "lib", may: [...BELOW_CONTEXT, "context", "http/params"] },
  "src/actions/": { name: "actions", may: [...BELOW_CONTEXT, "context", "lib"] },
  "src/http/params.ts": { name: "http/params", may: ["base"] },
  "src/http/static-files.ts": { name: "http/static-files", may: GROUND },
  "src/http/": { name: "http", may: [...BELOW_CONTEXT, "context", "lib", "http/params", "http/static-files"] },
  "src/routes/": { name: "routes", may: [...BELOW_CONTEXT, "context", "lib", "actions", "http", "http/params", "http/static-files"] },
  // The top: the command, the CLI, buildApp and listen may import any part of the server.
  "src/": { name: "server top", may: ["server"] },
  "protocol/": { name: "protocol", may: [] },
  "web/state/": { name: "web/state", may: ["protocol"] },
  "web/api/": { name: "web/api", may: ["protocol", "web/state"] },
  "web/views/": { name: "web/views", may: ["protocol", "web/state", "web/api"] },
  "web/": { name: "web top", may: ["protocol", "web/state", "web/api", "web/views"] },
};
const PREFIXES = Object.keys(LAYERS).sort((a, b) => b.length - a.length);

function layerOf(file) {
  const rel = path.relative(root, file).split(path.sep).join("/").replace(/\.js$/, ".ts");
  const prefix = PREFIXES.find((p) => rel === p || (p.endsWith("/") && rel.startsWith(p)));
  return prefix === undefined ? undefined : LAYERS[prefix];
}

/** Whether `from` may import `to`: its own unit, a listed unit, or (the tops) anything of their program. */
function allowed(from, to) {
  if (from.name === to.name || from.may.includes(to.name)) return true;
  if (from.name === "server top") return !to.name.startsWith("web");
  if (from.name === "web top") return to.name.startsWith("web") || to.name === "protocol";
  return false;
}

const layering = {
  meta: { type: "problem", docs: { description: "a lower layer never imports a higher one (ARCHITECTURE.md)" }, schema: [] },
  create(context) {
    const from = layerOf(context.filename);
    if (!from) return {};
    const check = (node) => {
      const source = node.source;
      if (!source || source.type !== "Literal" || typeof source.value !== "string" || !source.value.startsWith(".")) return;
      const to = layerOf(path.resolve(path.dirname(context.filename), source.value));
      if (!to || allowed(from, to)) return;
      context.report({ node: source, message: `${from.name} may not import ${to.name}: a lower layer never imports a higher one (see ARCHITECTURE.md)` });
    };
    return { ImportDeclaration: check, ExportNamedDeclaration: check, ExportAllDeclaration: check, ImportExpression: check };
  },
};

export default tseslint.config(
  { ignores: ["dist/", "data/", "node_modules/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { rookery: { rules: { layers: layering } } },
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }],
      eqeqeq: ["error", "smart"],
      "no-console": "off",
      "rookery/layers": "error",
    },
  },
);
