import { sealData } from "iron-session";
import { describe, expect, it } from "vitest";
import { reviewerOf } from "../../lib/access/reviewer-name";
import { SESSION_TTL_SECONDS } from "../../lib/access/session";

// Who a review label is from: with a login, the name given at login, which a
// request cannot override; on loopback, the name the browser sends.

const SECRET = "s".repeat(40);
const seal = (data: object, secret = SECRET) =>
  sealData(data, { password: secret, ttl: SESSION_TTL_SECONDS });

describe("reviewerOf", () => {
  it("takes the session's name over the one a request gives", async () => {
    const cookieValue = await seal({ loggedIn: true, since: 1, reviewer: "  Ana   Lopez " });
    expect(
      await reviewerOf({
        policy: { loginRequired: true, sessionSecret: SECRET },
        cookieValue,
        given: "Mallory",
      }),
    ).toEqual({ ok: true, name: "Ana Lopez" });
  });

  it("takes the given name on loopback, and with a login only when the session has none (a bearer token)", async () => {
    expect(
      await reviewerOf({ policy: { loginRequired: false }, cookieValue: undefined, given: "Ben" }),
    ).toEqual({ ok: true, name: "Ben" });
    const nameless = await seal({ loggedIn: true, since: 1 });
    expect(
      await reviewerOf({
        policy: { loginRequired: true, sessionSecret: SECRET },
        cookieValue: nameless,
        given: "Cy",
      }),
    ).toEqual({ ok: true, name: "Cy" });
  });

  it("ignores a forged session and refuses a request with no name", async () => {
    const forged = await seal({ loggedIn: true, reviewer: "Eve" }, "x".repeat(40));
    expect(
      await reviewerOf({
        policy: { loginRequired: true, sessionSecret: SECRET },
        cookieValue: forged,
        given: undefined,
      }),
    ).toMatchObject({ ok: false });
    expect(
      await reviewerOf({ policy: { loginRequired: false }, cookieValue: undefined, given: "   " }),
    ).toEqual({ ok: false, message: "Give your name first: labels say who gave them." });
  });
});

describe("a reviewer's name in the one normal form of names", () => {
  const given = (name: string) =>
    reviewerOf({ policy: { loginRequired: false }, cookieValue: undefined, given: name });

  it("is cut at 80 code points: an emoji at the cut is kept whole or left out, never halved", async () => {
    const result = await given(`${"a".repeat(79)}😀😀`);
    expect(result).toEqual({ ok: true, name: `${"a".repeat(79)}😀` });
    expect(result.ok && /\p{Cs}/u.test(result.name)).toBe(false);
  });

  it("keeps no right-to-left override, bidirectional isolate or control character", async () => {
    expect(await given("Ma\u202Eyrrallo\u0000\u001B[31m \u2067Eve\u2069")).toEqual({
      ok: true,
      name: "Mayrrallo[31m Eve",
    });
    expect(await given("\u202E\u200F\u0007")).toMatchObject({ ok: false });
  });

  it("keeps joiners, so an emoji sequence stays one", async () => {
    expect(await given("Ana 👩\u200D💻")).toEqual({ ok: true, name: "Ana 👩\u200D💻" });
  });
});
