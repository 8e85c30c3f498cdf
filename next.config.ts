import type { NextConfig } from "next";

// monaco-yaml's monaco-worker-manager imports this old path; monaco-editor
// 0.57's exports map rewrites it to one that does not exist (STACK.md).
const EDITOR_WORKER = "monaco-editor/esm/vs/editor/editor.worker.js";

const quickBuild = process.env.RUBRIC_STUDIO_QUICK_BUILD === "1";

const nextConfig: NextConfig = {
  // The engine reads YAML and calls the judge on the server only.
  serverExternalPackages: ["@anthropic-ai/sdk"],
  // `npm start`'s own build (scripts/next-command.ts) is the quick one: no
  // type check (half of a build on two cores; `npm run typecheck` and CI check
  // the types) and no Turbopack cache written for a next build (20-45 s more).
  typescript: { ignoreBuildErrors: quickBuild },
  experimental: { turbopackFileSystemCacheForBuild: !quickBuild },
  turbopack: {
    resolveAlias: {
      [EDITOR_WORKER]: "./node_modules/monaco-editor/esm/vs/editor/editor.worker.js",
    },
  },
  webpack(config: { resolve: { alias: Record<string, string> } }) {
    config.resolve.alias[`${EDITOR_WORKER}$`] = new URL(
      "./node_modules/monaco-editor/esm/vs/editor/editor.worker.js",
      import.meta.url,
    ).pathname;
    return config;
  },
};

export default nextConfig;
