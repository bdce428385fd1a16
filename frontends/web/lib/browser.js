// The browser transport: a WebSocket through websocketd (a process per connection, a text message
// a line) or websockify in front of `signup-rpc --listen` (bytes as binary messages, lines cut
// anywhere). Each line goes out as a binary message ending in its newline.
import { SignupClient, ConnectionClosed, LineStream } from "./client.js";
export function connectWebSocket(url) {
    return new Promise((resolve, reject) => {
        const socket = new WebSocket(url);
        socket.binaryType = "arraybuffer";
        const encoder = new TextEncoder();
        let opened = false;
        socket.addEventListener("open", () => {
            opened = true;
            resolve(new SignupClient({
                send: (line) => socket.send(encoder.encode(line + "\n")),
                start: (onLine, onClose) => {
                    const stream = new LineStream();
                    socket.addEventListener("message", (event) => {
                        if (typeof event.data === "string")
                            onLine(event.data);
                        else
                            stream.push(new Uint8Array(event.data)).forEach(onLine);
                    });
                    socket.addEventListener("close", (event) => onClose(event.reason || `code ${event.code}`));
                },
                close: () => socket.close(),
            }));
        });
        socket.addEventListener("close", () => { if (!opened)
            reject(new ConnectionClosed(`could not connect to ${url}`)); });
    });
}
