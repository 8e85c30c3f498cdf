import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // The engine reads YAML and calls the judge on the server only.
  serverExternalPackages: ["@anthropic-ai/sdk"],
};

export default nextConfig;
