// Loaded into the Next server process by scripts/serve.ts (`--import`, via
// NODE_OPTIONS) unless RUBRIC_STUDIO_TRUST_PROXY is set. Next keeps any
// X-Forwarded-* header a client sends and fills in only the missing ones
// (from the socket and the Host header), and route handlers never see the
// socket. Without a trusted proxy those headers are whatever a client chose,
// so they are dropped as each request arrives: Next then fills them from the
// socket's peer address and the Host header, and the login throttle's
// per-client counts (lib/access/request-address.ts) are by real address.
// Plain JavaScript: it loads before anything can compile TypeScript.
import { subscribe } from "node:diagnostics_channel";

const FORWARDED = [
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-forwarded-port",
  "forwarded",
  "x-real-ip",
];

// Published synchronously before the server emits "request", for every request.
subscribe("http.server.request.start", (message) => {
  const { request, socket } =
    /** @type {{ request: import("node:http").IncomingMessage; socket: import("node:net").Socket }} */ (
      message
    );
  for (const name of FORWARDED) delete request.headers[name];
  if (socket.remoteAddress) request.headers["x-forwarded-for"] = socket.remoteAddress;
});
