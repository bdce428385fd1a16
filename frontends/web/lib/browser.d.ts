import { SignupClient } from "./client.js";
export declare function connectWebSocket(url: string): Promise<SignupClient>;
