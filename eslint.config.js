import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "data/", "node_modules/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }],
      eqeqeq: ["error", "smart"],
      "no-console": "off",
    },
  },
  {
    // The web app and the server are two programs: neither imports the other.
    files: ["web/**/*.{ts,tsx}"],
    rules: { "no-restricted-imports": ["error", { patterns: [{ group: ["**/src/**", "../src/*"], message: "web/ may not import src/ (two programs; share through a module importing neither)." }] }] },
  },
  {
    files: ["src/**/*.ts"],
    rules: { "no-restricted-imports": ["error", { patterns: [{ group: ["**/web/**"], message: "src/ may not import web/." }] }] },
  },
);
