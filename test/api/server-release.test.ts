import v8 from "node:v8";
import vm from "node:vm";
import { expect, it } from "vitest";
import { startServer } from "../harness/server.js";

v8.setFlagsFromString("--expose-gc");
const collect = vm.runInNewContext("gc") as () => void;

/** Starts a server, uses it, stops it, and returns weak references to each process's HTTP server. */
async function usedAndStopped(): Promise<WeakRef<object>[]> {
  const server = await startServer();
  expect((await server.as("hamlet").get("/users/me")).status).toBe(200);
  const metrics = await fetch(`${server.processUrl}/metrics`);
  expect(await metrics.text()).toContain("rookery_event_queues ");
  const refs = server.apps.map((app) => new WeakRef(app.http));
  await server.stop();
  return refs;
}

it("a stopped server leaves nothing reachable: its HTTP server, and so its caches and database handle, can be collected", async () => {
  const refs = await usedAndStopped();
  let alive = refs.length;
  for (let round = 0; round < 50 && alive > 0; round++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    collect();
    alive = refs.filter((ref) => ref.deref() !== undefined).length;
  }
  expect(alive).toBe(0);
});

it("each server started in the process shows the process's own metrics once, beside its own", async () => {
  for (let i = 0; i < 2; i++) {
    const server = await startServer();
    try {
      const text = await (await fetch(`${server.processUrl}/metrics`)).text();
      expect(text.match(/^# TYPE rookery_process_resident_memory_bytes /gm)).toHaveLength(1);
      expect(text.match(/^# TYPE rookery_event_queues /gm)).toHaveLength(1);
    } finally {
      await server.stop();
    }
  }
});
