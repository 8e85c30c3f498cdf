import type { ServerConfig } from "../../lib/config/types";
import { suiteFrom } from "../support/run-yaml";

/** The resolved servers: of a suite written as YAML (with a placeholder eval), for tests that use lib/live's pieces directly. */
export function resolveSuiteServers(serversYaml: string): Record<string, ServerConfig> {
  return suiteFrom(`${serversYaml}evals:\n  - { name: placeholder, response: x, rubric: r }\n`)
    .servers;
}
