// Fault server "huge": a stdio MCP server whose tools/call returns a 50 MB text result.
//
// Run: node faults/huge.mjs   (from src/test/node; the MCP client starts it over stdio)
//
// Lists one tool, dump_everything. Calling it returns a valid JSON-RPC result on ONE
// newline-terminated line whose single text content is exactly 50*1024*1024 ASCII characters
// (a repeating "0123456789abcdef..." pattern). Hand-written (no SDK) so the line is built once
// and its size is exact.
import { serveLines, writeRaw } from './lib/line-server.mjs';

export const HUGE_CHARS = 50 * 1024 * 1024;
const pattern = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_';
const text = pattern.repeat(Math.ceil(HUGE_CHARS / pattern.length)).slice(0, HUGE_CHARS);

serveLines({
    name: 'huge',
    tools: [
        {
            name: 'dump_everything',
            description: 'Dumps the entire store as text (returns 50 MB)',
            inputSchema: { type: 'object', properties: {} }
        }
    ],
    onCall: id => {
        // The text is plain ASCII without quotes or backslashes, so no escaping is needed.
        writeRaw(
            `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"content":[{"type":"text","text":"` +
                text +
                '"}],"isError":false}}\n'
        );
    }
});
