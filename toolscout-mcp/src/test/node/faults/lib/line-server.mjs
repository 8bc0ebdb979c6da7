// Minimal hand-written MCP stdio server loop, shared by the fault servers that must put
// bytes on stdout that the SDK would never produce (malformed.mjs, huge.mjs).
//
// Not a script: import it. It reads newline-delimited JSON-RPC from stdin and answers
//   initialize  -> protocolVersion echoes the client's requested version, capabilities {tools:{}}
//   ping        -> {}
//   tools/list  -> the given tools, one page
//   tools/call  -> whatever onCall(id, params, write) writes (raw text, caller's responsibility)
//   other requests -> JSON-RPC error -32601; notifications and responses are ignored.
// Unparseable input lines are answered with a -32700 parse error (id null).
// The process exits when stdin ends.
import { createInterface } from 'node:readline';

/** Writes one JSON-RPC message as a single newline-terminated line. */
export function writeMessage(message) {
    process.stdout.write(JSON.stringify(message) + '\n');
}

/** Writes raw text to stdout exactly as given (for garbage or hand-built lines). */
export function writeRaw(text) {
    process.stdout.write(text);
}

export function serveLines({ name, version = '1.0.0', tools, onCall }) {
    const log = (...args) => console.error(`${name}:`, ...args);
    const lines = createInterface({ input: process.stdin, crlfDelay: Infinity });
    lines.on('line', line => {
        if (line.trim() === '') return;
        let msg;
        try {
            msg = JSON.parse(line);
        } catch {
            writeMessage({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
            return;
        }
        if (msg.id === undefined || msg.id === null || typeof msg.method !== 'string') {
            return; // notification (initialized, cancelled, ...) or a response: nothing to answer
        }
        const { id, method, params } = msg;
        switch (method) {
            case 'initialize':
                log(`initialize, client asked for protocol ${params?.protocolVersion}`);
                writeMessage({
                    jsonrpc: '2.0',
                    id,
                    result: {
                        protocolVersion: params?.protocolVersion ?? '2025-06-18',
                        capabilities: { tools: {} },
                        serverInfo: { name, version }
                    }
                });
                break;
            case 'ping':
                writeMessage({ jsonrpc: '2.0', id, result: {} });
                break;
            case 'tools/list':
                writeMessage({ jsonrpc: '2.0', id, result: { tools } });
                break;
            case 'tools/call':
                log(`tools/call ${params?.name} (id ${JSON.stringify(id)})`);
                onCall(id, params ?? {});
                break;
            default:
                writeMessage({ jsonrpc: '2.0', id, error: { code: -32601, message: `Method not found: ${method}` } });
        }
    });
    lines.on('close', () => process.exit(0));
}
