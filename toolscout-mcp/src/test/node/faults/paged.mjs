// Server "paged": a stdio MCP server (low-level SDK Server, not McpServer) whose tools/list is
// paginated, for testing that a client follows nextCursor.
//
// Run: node faults/paged.mjs   (from src/test/node; the MCP client starts it over stdio)
//
// 25 tools item_00 .. item_24 ("Returns item NN of the paged catalog"), 10 per page:
//   tools/list {}                -> item_00..item_09, nextCursor
//   tools/list {cursor}          -> item_10..item_19, nextCursor
//   tools/list {cursor}          -> item_20..item_24, no nextCursor
// An unknown cursor is a JSON-RPC error -32602. tools/call item_NN returns text "item NN".
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';

const TOTAL = 25;
const PAGE_SIZE = 10;
const tools = Array.from({ length: TOTAL }, (_, i) => {
    const nn = String(i).padStart(2, '0');
    return {
        name: `item_${nn}`,
        description: `Returns item ${nn} of the paged catalog`,
        inputSchema: { type: 'object', properties: {} }
    };
});

// Opaque cursors: base64 of "offset:<n>".
const encodeCursor = offset => Buffer.from(`offset:${offset}`).toString('base64');
function decodeCursor(cursor) {
    const match = /^offset:(\d+)$/.exec(Buffer.from(cursor, 'base64').toString('utf8'));
    const offset = match ? Number(match[1]) : NaN;
    if (!Number.isInteger(offset) || offset <= 0 || offset >= TOTAL || offset % PAGE_SIZE !== 0) {
        throw new McpError(ErrorCode.InvalidParams, `Invalid cursor: ${cursor}`);
    }
    return offset;
}

const server = new Server({ name: 'paged', version: '1.0.0' }, { capabilities: { tools: {} } });

server.setRequestHandler(ListToolsRequestSchema, async request => {
    const cursor = request.params?.cursor;
    const offset = cursor === undefined ? 0 : decodeCursor(cursor);
    const page = tools.slice(offset, offset + PAGE_SIZE);
    const next = offset + PAGE_SIZE;
    console.error(`paged: tools/list offset ${offset} -> ${page.length} tools`);
    return next < TOTAL ? { tools: page, nextCursor: encodeCursor(next) } : { tools: page };
});

server.setRequestHandler(CallToolRequestSchema, async request => {
    const match = /^item_(\d{2})$/.exec(request.params.name);
    if (!match || Number(match[1]) >= TOTAL) {
        throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    }
    return { content: [{ type: 'text', text: `item ${match[1]}` }] };
});

process.stdin.on('end', () => process.exit(0));
await server.connect(new StdioServerTransport());
console.error('paged: ready on stdio');
