/** `npm run build` runs this: builds dist/web and prints its gzipped sizes. */
import { relative } from "node:path";
import { buildWeb } from "./build.js";

const result = await buildWeb();
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
console.log(`web app: first-load JS ${kb(result.firstLoadJsGzip)}, all JS ${kb(result.allJsGzip)}, CSS ${kb(result.cssGzip)} (gzipped) in ${relative(process.cwd(), result.outdir)}`);
