// Fault server "slow-start": a stdio MCP server that takes as long to come up as a busy machine can.
//
// Run: node faults/slow-start.mjs [DELAY_MS]   (from src/test/node; default 3000)
//
// Reads nothing for DELAY_MS after starting (as Node loading a large server on a loaded machine does:
// the client's initialize waits in the pipe), then serves one tool, quick_echo ({message}), which answers
// at once. A client whose request timeout is shorter than the delay must still connect: starting is not
// answering slowly.
import { serveLines, writeMessage } from './lib/line-server.mjs';

const delay = Number(process.argv[2] ?? 3000);
console.error(`slow-start: starting in ${delay} ms`);
await new Promise(resolve => setTimeout(resolve, delay));
serveLines({
    name: 'slow-start',
    tools: [
        {
            name: 'quick_echo',
            description: 'Echoes a message back at once',
            inputSchema: {
                type: 'object',
                properties: { message: { type: 'string', description: 'Message to echo' } },
                required: ['message']
            }
        }
    ],
    onCall: (id, params) => {
        writeMessage({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: String(params.arguments?.message) }] } });
    }
});
console.error('slow-start: ready on stdio');
