// The few Node.js APIs node.ts uses, declared for tsc (Debian packages TypeScript but not Node's
// own type declarations, @types/node). With @types/node installed these are the same shapes.
declare module "node:child_process" {
  interface Readable { on(event: "data", listener: (chunk: unknown) => void): void }
  interface Writable { write(text: string): boolean; end(): void }
  export interface ChildProcess {
    stdin: Writable | null;
    stdout: Readable | null;
    pid?: number;
    kill(signal?: string): boolean;
    on(event: "exit", listener: (code: number | null, signal: string | null) => void): void;
  }
  export function spawn(command: string, args: string[], options: { stdio: string[] }): ChildProcess;
}
declare module "node:net" {
  export interface Socket {
    write(text: string): boolean;
    end(): void;
    on(event: "close", listener: () => void): void;
    once(event: "connect", listener: () => void): void;
    once(event: "error", listener: (error: unknown) => void): void;
  }
  export function connect(options: { path: string } | { host: string; port: number }): Socket;
}
declare module "node:readline" {
  export function createInterface(options: { input: unknown }): { on(event: "line", listener: (line: string) => void): void };
}
