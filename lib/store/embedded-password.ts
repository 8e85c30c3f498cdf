import { timingSafeEqual } from "node:crypto";
import type { Socket } from "node:net";
import type { PGLiteSocketServer } from "@electric-sql/pglite-socket";

// pglite-socket answers every startup packet with "authentication ok": any
// local user who finds the port could read and change the run history behind
// the dashboard's login. This puts a password exchange in front of it: the
// server asks for a password (cleartext, on 127.0.0.1 only), compares it with
// the data folder's secret in constant time, and only then hands the
// connection, with its startup packet replayed, to pglite-socket. A wrong or
// missing password gets Postgres' own refusal (28P01), as a real server says it.

const PROTOCOL_3 = 196608;
const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
/** A startup packet is a few names and values; no honest one comes near this. */
const MAX_PACKET = 10_000;
/**
 * A client that has not authenticated by then is dropped (it holds a socket,
 * not a connection slot). Generous: a dashboard answering a burst of 1,000
 * requests on a loaded machine took 9 s to send its startup packet, and at
 * 10 s three of its pool's connections were cut (500s).
 */
const AUTH_TIMEOUT_MS = 60_000;
const MAX_PENDING = 64;

const ASK_PASSWORD = Buffer.from([0x52, 0, 0, 0, 8, 0, 0, 0, 3]); // 'R', length 8, AuthenticationCleartextPassword

function errorResponse(code: string, message: string): Buffer {
  const fields = Buffer.concat(
    [
      ["S", "FATAL"],
      ["V", "FATAL"],
      ["C", code],
      ["M", message],
    ].map(([type, value]) => Buffer.from(`${type}${value}\0`, "utf8")),
  );
  const head = Buffer.alloc(5);
  head.write("E", 0);
  head.writeInt32BE(4 + fields.length + 1, 1);
  return Buffer.concat([head, fields, Buffer.from([0])]);
}

function samePassword(given: Buffer, expected: Buffer): boolean {
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * Reads the client's startup and password. Resolves to the bytes to replay to
 * pglite-socket (the startup packet and whatever followed the password), or
 * undefined when the client was refused or went away.
 */
function authenticate(socket: Socket, password: Buffer): Promise<Buffer | undefined> {
  return new Promise((resolve) => {
    let buffer = Buffer.alloc(0);
    let startup: Buffer | undefined;
    const done = (replay: Buffer | undefined) => {
      socket.off("data", onData);
      socket.off("error", onGone);
      socket.off("close", onGone);
      socket.setTimeout(0);
      resolve(replay);
    };
    const refuse = (message: string, code = "28000") => {
      done(undefined);
      if (socket.writable) socket.end(errorResponse(code, message));
      socket.destroySoon();
    };
    const onGone = () => done(undefined);
    function onData(chunk: Buffer) {
      buffer = Buffer.concat([buffer, chunk]);
      for (;;) {
        if (!startup) {
          if (buffer.length < 8) return;
          const length = buffer.readInt32BE(0);
          if (length < 8 || length > MAX_PACKET) return refuse("invalid startup packet");
          if (buffer.length < length) return;
          const code = buffer.readInt32BE(4);
          if (code === SSL_REQUEST || code === GSSENC_REQUEST) {
            // Neither is offered: the client goes on in the clear (on loopback).
            socket.write("N");
            buffer = buffer.subarray(8);
            continue;
          }
          if (code !== PROTOCOL_3) return refuse("unsupported startup request");
          startup = Buffer.from(buffer.subarray(0, length));
          buffer = buffer.subarray(length);
          socket.write(ASK_PASSWORD);
          continue;
        }
        if (buffer.length < 5) return;
        if (buffer[0] !== 0x70) return refuse("a password is required", "28P01"); // 'p'
        const length = buffer.readInt32BE(1);
        if (length < 5 || length > MAX_PACKET) return refuse("invalid password message", "28P01");
        if (buffer.length < 1 + length) return;
        // The message is the password and a terminating zero byte.
        const given = buffer.subarray(5, length);
        if (!samePassword(given, password)) {
          return refuse(
            "password authentication failed: the embedded database takes the password in its data folder's server.json",
            "28P01",
          );
        }
        return done(Buffer.concat([startup, buffer.subarray(1 + length)]));
      }
    }
    socket.on("data", onData);
    socket.on("error", onGone);
    socket.on("close", onGone);
    socket.setTimeout(AUTH_TIMEOUT_MS, () => {
      done(undefined);
      socket.destroy();
    });
  });
}

/** Makes `server` ask every connection for `password` before pglite-socket sees it. */
export function requirePassword(server: PGLiteSocketServer, password: string): void {
  const target = server as unknown as {
    handleConnection(socket: Socket): Promise<void>;
    stop(): Promise<void>;
  };
  const handle = target.handleConnection.bind(server);
  const stop = target.stop.bind(server);
  const expected = Buffer.from(password, "utf8");
  const pending = new Set<Socket>();
  target.handleConnection = async (socket: Socket) => {
    // Clients still at the password step are few in honest use; more are dropped at once.
    if (pending.size >= MAX_PENDING) {
      socket.destroy();
      return;
    }
    pending.add(socket);
    const replay = await authenticate(socket, expected);
    pending.delete(socket);
    if (!replay || socket.destroyed) return;
    // pglite-socket reads the socket from its own 'data' listener: the startup
    // goes back in front of the stream, which flows again once it listens.
    socket.pause();
    socket.unshift(replay);
    const handled = handle(socket);
    socket.resume();
    await handled;
  };
  // The server's close waits for every socket: one still at the password step must not hold it.
  target.stop = async () => {
    for (const socket of pending) socket.destroy();
    pending.clear();
    await stop();
  };
}
