/**
 * The first draw writes times and days without Intl (web/views/format.ts, plainFormat): it must
 * write what Intl writes for en-US, in every time zone, around noon, midnight and the turn of the
 * year, or the app would change every row's time when it takes the list over.
 */
import { afterAll, describe, expect, it } from "vitest";
import { plainFormat } from "../../web/views/format.js";

const ZONES = ["UTC", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "Pacific/Kiritimati", "America/St_Johns"];
const savedZone = process.env.TZ;

/** Every 37 minutes over two years (across both daylight-saving changes), from a Saturday's midnight UTC. */
const moments = () => Array.from({ length: (2 * 366 * 24 * 60) / 37 }, (_, i) => Date.UTC(2025, 0, 4) / 1000 + i * 37 * 60);

/** Intl's en-US text, in the zone of the moment; the narrow no-break space some ICU versions put before AM/PM is a space in browsers. */
const intl = (options: Intl.DateTimeFormatOptions) => {
  const f = new Intl.DateTimeFormat("en-US", options);
  return (seconds: number) => f.format(seconds * 1000).replace(/\u202f/g, " ");
};

describe("plainFormat", () => {
  afterAll(() => {
    if (savedZone === undefined) delete process.env.TZ;
    else process.env.TZ = savedZone;
  });

  for (const zone of ZONES) {
    it(`writes en-US times and days as Intl does, in ${zone}`, () => {
      process.env.TZ = zone;
      const time = intl({ hour: "numeric", minute: "2-digit", hour12: true });
      const day = intl({ weekday: "short", month: "short", day: "numeric" });
      let compared = 0;
      for (const at of moments()) {
        expect(plainFormat("time", at, "en-US", false)).toBe(time(at));
        expect(plainFormat("day", at, "en-US", false)).toBe(day(at));
        compared += 2;
      }
      expect(compared).toBeGreaterThan(55_000);
    });
  }

  it("leaves other locales, 24-hour time and the full form to Intl", () => {
    expect(plainFormat("time", 0, "en-GB", false)).toBeNull();
    expect(plainFormat("day", 0, "de-DE", false)).toBeNull();
    expect(plainFormat("time", 0, "", false)).toBeNull();
    expect(plainFormat("full", 0, "en-US", false)).toBeNull();
    expect(plainFormat("time", 0, "en-US", true)).toBeNull();
  });

  it("writes midnight and noon as 12", () => {
    process.env.TZ = "UTC";
    expect(plainFormat("time", Date.UTC(2026, 10, 27, 0, 4) / 1000, "en-US", false)).toBe("12:04 AM");
    expect(plainFormat("time", Date.UTC(2026, 10, 27, 12, 0) / 1000, "en-US", false)).toBe("12:00 PM");
    expect(plainFormat("day", Date.UTC(2026, 10, 27, 0, 4) / 1000, "en-US", false)).toBe("Fri, Nov 27");
  });
});
