import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { currentAccessPolicy } from "../../lib/access/access-policy";
import { safeNextPath } from "../../lib/access/log-in";
import { isLoggedIn, SESSION_COOKIE } from "../../lib/access/session";

export const dynamic = "force-dynamic";
export const metadata = { title: "Log in" };

const MESSAGES: Record<string, string> = {
  wrong_password: "That password is not right.",
  too_many_attempts: "Too many failed attempts.",
  no_login: "This dashboard has no password to log in with.",
};

/** The login form: a plain POST to /api/auth/login, so it works before any script has loaded. */
export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  const one = (key: string) => (typeof params[key] === "string" ? params[key] : undefined);
  const next = safeNextPath(one("next"));
  const policy = currentAccessPolicy();
  // Nothing to log in to, or already logged in: straight on.
  if (!policy.loginRequired) redirect(next);
  if (
    policy.sessionSecret &&
    (await isLoggedIn((await cookies()).get(SESSION_COOKIE)?.value, policy.sessionSecret))
  )
    redirect(next);
  const error = one("error");
  const wait = Number(one("wait"));
  const message =
    error === undefined
      ? undefined
      : `${MESSAGES[error] ?? "Logging in failed."}${error === "too_many_attempts" && wait > 0 ? ` Try again in ${wait} s.` : ""}`;
  return (
    <main className="page" style={{ maxWidth: 420, paddingTop: 72 }}>
      <div className="card">
        <form
          className="card-body stack"
          method="post"
          action="/api/auth/login"
          style={{ padding: 24 }}
        >
          <div>
            <h1>Log in</h1>
            <p className="muted" style={{ margin: "4px 0 0" }}>
              This Rubric Studio asks for the password its server was started with.
            </p>
          </div>
          {message ? (
            <p
              className="notice notice-error"
              role="alert"
              data-testid="login-error"
              style={{ margin: 0 }}
            >
              {message}
            </p>
          ) : null}
          <input type="hidden" name="next" value={next} />
          <label className="field">
            Password
            <input
              className="input"
              type="password"
              name="password"
              autoComplete="current-password"
              required
              autoFocus
            />
          </label>
          <label className="field">
            Your name (review labels carry it)
            <input
              className="input"
              type="text"
              name="name"
              autoComplete="name"
              maxLength={80}
              data-testid="login-name"
            />
          </label>
          <button type="submit" className="btn btn-primary">
            Log in
          </button>
        </form>
      </div>
    </main>
  );
}
