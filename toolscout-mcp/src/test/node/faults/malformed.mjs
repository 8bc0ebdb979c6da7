// Fault server "malformed": a stdio MCP server whose tools/call answers are garbage.
//
// Run: node faults/malformed.mjs   (from src/test/node; the MCP client starts it over stdio)
//
// initialize, notifications, ping and tools/list are valid (one tool, broken_echo), so a client
// connects and lists fine. Every tools/call is answered with two lines that are not JSON:
//   {"jsonrpc":"2.0","id":        <- truncated JSON
//   this is not json
// and never with a valid response, so the call can only end by the client's timeout or error
// handling. Hand-written (no SDK) because the SDK cannot emit invalid JSON.
import { serveLines, writeRaw } from './lib/line-server.mjs';

serveLines({
    name: 'malformed',
    tools: [
        {
            name: 'broken_echo',
            description: 'Echoes a message back (answers with malformed JSON)',
            inputSchema: {
                type: 'object',
                properties: { message: { type: 'string', description: 'Message to echo' } },
                required: ['message']
            }
        }
    ],
    onCall: () => {
        writeRaw('{"jsonrpc":"2.0","id":\n');
        writeRaw('this is not json\n');
    }
});
