// Node transports: a child process's stdio, or a socket to `signup-rpc --listen` (TCP or unix).
import { spawn as spawnProcess, type ChildProcess } from "node:child_process";
import { connect as connectSocket } from "node:net";
import { createInterface } from "node:readline";
import { SignupClient, ConnectionClosed } from "./client.js";

/** Starts signup-rpc as a child process speaking JSON lines on its stdio. */
export function spawn(binary: string, args: string[] = []): SignupClient & { process: ChildProcess } {
  const child = spawnProcess(binary, args, { stdio: ["pipe", "pipe", "inherit"] });
  const client = new SignupClient({
    send: (line) => { child.stdin?.write(line + "\n"); },
    start: (onLine, onClose) => {
      if (child.stdout) createInterface({ input: child.stdout }).on("line", onLine);
      child.on("exit", (code, signal) => onClose(signal ? `signal ${signal}` : `exit ${code}`));
    },
    close: () => { child.stdin?.end(); },
  });
  return Object.assign(client, { process: child });
}

/** Connects to `signup-rpc --listen`: `{path}` for a unix socket, `{host, port}` for TCP. */
export function connect(address: { path: string } | { host: string; port: number }): Promise<SignupClient> {
  return new Promise((resolve, reject) => {
    const socket = connectSocket(address as any);
    socket.once("error", (error) => reject(new ConnectionClosed(String(error))));
    socket.once("connect", () => {
      resolve(new SignupClient({
        send: (line) => { socket.write(line + "\n"); },
        start: (onLine, onClose) => {
          createInterface({ input: socket }).on("line", onLine);
          socket.on("close", () => onClose("socket closed"));
        },
        close: () => { socket.end(); },
      }));
    });
  });
}
