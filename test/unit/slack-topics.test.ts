import { describe, expect, it } from "vitest";
import { ThreadTopics, UNTHREADED_TOPIC } from "../../src/import/slack-topics.js";
import { ImportProgress } from "../../src/import/slack-progress.js";

describe("Slack threads to topics", () => {
  it("names a thread after its date and first message, cut at 60 characters, numbered on collision", () => {
    const topics = new ThreadTopics();
    const long = "A long first message that goes on well past the sixty characters a topic may hold";
    expect(topics.topicOf({ ts: "1709290800.1" }, "U1", "no thread")).toBe(UNTHREADED_TOPIC);
    const first = topics.topicOf({ ts: "1709290800.1", thread_ts: "1709290800.1" }, "U1", long);
    expect(first).toBe("2024-03-01 A long first message that goes on well past the …");
    expect([...first].length).toBe(60);
    // A reply names its parent; a reply without parent_user_id finds it by the thread's time.
    expect(topics.topicOf({ ts: "1709290900.1", thread_ts: "1709290800.1", parent_user_id: "U1" }, "U2", "reply")).toBe(first);
    expect(topics.topicOf({ ts: "1709290901.1", thread_ts: "1709290800.1" }, "U3", "reply")).toBe(first);
    // Another thread starting the same way, the same day: numbered, still 60 characters.
    const second = topics.topicOf({ ts: "1709291800.1", thread_ts: "1709291800.1" }, "U2", long);
    expect(second).toBe("2024-03-01 A long first message that goes on well past … (2)");
    expect([...second].length).toBe(60);
    expect(topics.topicOf({ ts: "1709292800.1", thread_ts: "1709292800.1" }, "U2", "short")).toBe("2024-03-01 short");
    expect(topics.topicOf({ ts: "1709293800.1", thread_ts: "1709293800.1" }, "U3", "short")).toBe("2024-03-01 short (2)");
    expect(topics.topicOf({ ts: "1709294800.1", thread_ts: "1709294800.1" }, "U3", "short")).toBe("2024-03-01 short (3)");
  });
});

describe("import progress", () => {
  it("prints done/total, percent, rate and time left", () => {
    const progress = new ImportProgress(1000, undefined);
    for (let i = 0; i < 250; i++) progress.advance();
    const started = performance.now() - 5000;
    Object.assign(progress, { started });
    expect(progress.line(started + 5000)).toBe("messages 250/1000 (25%), 50/s, 15s left");
    expect(progress.line(started + 500)).toBe("messages 250/1000 (25%), 500/s, 2s left");
  });
});
