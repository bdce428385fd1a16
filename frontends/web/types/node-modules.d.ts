// The few Node.js APIs signup-client.js uses to spawn signup-rpc, declared for `tsc --checkJs`
// (Debian packages TypeScript but not Node's own type declarations).
declare module "node:child_process" {
  interface Readable { on(event: "data", listener: (chunk: unknown) => void): void }
  interface Writable { write(text: string): boolean; end(): void }
  export interface ChildProcess {
    stdin: Writable;
    stdout: Readable;
    pid?: number;
    kill(signal?: string): boolean;
    on(event: "exit", listener: (code: number | null, signal: string | null) => void): void;
  }
  export function spawn(command: string, args: string[], options: { stdio: string[] }): ChildProcess;
}
declare module "node:readline" {
  export function createInterface(options: { input: unknown }): { on(event: "line", listener: (line: string) => void): void };
}
