import { describe, expect, it } from "vitest";
import { TimerWheel, type WheelItem } from "../../src/base/timer-wheel.js";

const item = (name: string): WheelItem & { name: string } => ({ name, wheelDue: 0 });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !condition(); i++) await sleep(5);
}

describe("TimerWheel", () => {
  it("fires each item once, after its delay, in order of due time", async () => {
    const fired: string[] = [];
    const wheel = new TimerWheel<ReturnType<typeof item>>((it) => fired.push(it.name));
    const [a, b, c] = [item("a"), item("b"), item("c")];
    wheel.add(b, 40);
    wheel.add(a, 10);
    wheel.add(c, 80);
    expect(wheel.size()).toBe(3);
    const started = performance.now();
    await until(() => fired.length === 3);
    expect(performance.now() - started).toBeGreaterThanOrEqual(79);
    expect(fired).toEqual(["a", "b", "c"]);
    expect([a, b, c].map((one) => one.wheelDue)).toEqual([0, 0, 0]);
    expect(wheel.size()).toBe(0);
  });

  it("never fires a removed item, and adding again replaces the earlier due time", async () => {
    const fired: string[] = [];
    const wheel = new TimerWheel<ReturnType<typeof item>>((it) => fired.push(it.name));
    const [a, b] = [item("a"), item("b")];
    wheel.add(a, 10);
    wheel.add(b, 10);
    wheel.remove(a);
    wheel.remove(a);
    wheel.add(b, 60);
    expect(wheel.size()).toBe(1);
    const started = performance.now();
    await until(() => fired.length > 0);
    expect(performance.now() - started).toBeGreaterThanOrEqual(59);
    await sleep(30);
    expect(fired).toEqual(["b"]);
  });

  it("puts delays of a second or more in whole-second buckets, so items share one", () => {
    const wheel = new TimerWheel<ReturnType<typeof item>>(() => undefined);
    const items = Array.from({ length: 50 }, (_, i) => item(String(i)));
    for (const one of items) wheel.add(one, 45_000);
    expect(new Set(items.map((one) => one.wheelDue)).size).toBeLessThanOrEqual(2);
    expect(items.every((one) => one.wheelDue % 1000 === 0)).toBe(true);
    wheel.stop();
    expect(wheel.size()).toBe(0);
    expect(items.every((one) => one.wheelDue === 0)).toBe(true);
  });
});
