import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";

/** A free TCP port on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === "object" && address ? address.port : 0;
}

/** Runs `rookery serve` from the built file `main` and waits for its ready line; `out()` is what it printed. */
export async function spawnServer(main: string, env: NodeJS.ProcessEnv): Promise<{ child: ChildProcess; out: () => string }> {
  const child = spawn("node", [main, "serve"], { env });
  let out = "";
  child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (out += d.toString()));
  await new Promise<void>((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`exited ${code}: ${out}`));
    child.on("exit", onExit);
    const timer = setInterval(() => {
      if (out.includes("Rookery is serving")) {
        clearInterval(timer);
        child.off("exit", onExit);
        resolve();
      }
    }, 20);
  });
  return { child, out: () => out };
}
