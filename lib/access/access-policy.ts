import { readEnv, type Settings } from "../env/read-env";
import { checkBinding } from "./binding";

// What the running dashboard asks of each request, decided once from the
// server's settings. `npm run dev`/`start` refuse to start on a policy with a
// problem; the proxy still checks, so that a Next server started some other
// way fails closed rather than open.

export interface AccessPolicy {
  loginRequired: boolean;
  password?: string;
  apiToken?: string;
  sessionSecret?: string;
  /** The origin people open the dashboard at (RUBRIC_STUDIO_PUBLIC_URL); redirects go there. */
  publicUrl?: string;
  /** Whether X-Forwarded-Host/-Proto/-For come from a reverse proxy the operator trusts. */
  trustProxy: boolean;
  /** Set when the server must not serve anything: why. */
  problem?: string;
}

export function accessPolicy(
  settings: Pick<
    Settings,
    "host" | "password" | "apiToken" | "sessionSecret" | "publicUrl" | "trustProxy"
  >,
): AccessPolicy {
  const trustProxy = settings.trustProxy === true;
  const binding = checkBinding({ host: settings.host, password: settings.password });
  if (!binding.ok) return { loginRequired: true, trustProxy, problem: binding.message };
  const policy: AccessPolicy = {
    loginRequired: binding.loginRequired,
    password: settings.password,
    apiToken: settings.apiToken,
    sessionSecret: settings.sessionSecret,
    ...(settings.publicUrl ? { publicUrl: settings.publicUrl } : {}),
    trustProxy,
  };
  if (binding.loginRequired && !settings.sessionSecret) {
    return {
      ...policy,
      problem:
        "no session secret: start the dashboard with `npm run dev` or `npm start` (they " +
        "make one), or set RUBRIC_STUDIO_SESSION_SECRET (at least 32 characters).",
    };
  }
  return policy;
}

let current: AccessPolicy | undefined;

/** The running server's policy, from its environment (read once). */
export function currentAccessPolicy(): AccessPolicy {
  if (current) return current;
  const settings = readEnv();
  current = settings.ok
    ? accessPolicy(settings.value)
    : { loginRequired: true, trustProxy: false, problem: settings.message };
  return current;
}
