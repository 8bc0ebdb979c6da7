// Server "many": a stdio MCP server listing TOOLS tools (default 10000) in pages of 500, for measuring a first
// start on a large upstream (docs/MCP.md, "The gateway").
//
// Run: TOOLS=10000 node faults/many.mjs   (from src/test/node; the MCP client starts it over stdio)
//
// Tools tool_00000 .. with distinct descriptions ("Looks up record N of area A ..."); tools/call returns "called <name>".
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';

const TOTAL = Number(process.env.TOOLS ?? 10000);
const PAGE_SIZE = 500;
const AREAS = ['billing', 'shipping', 'weather', 'calendar', 'inventory', 'support', 'payroll', 'travel'];
const tools = Array.from({ length: TOTAL }, (_, i) => {
    const n = String(i).padStart(5, '0');
    return {
        name: `tool_${n}`,
        description: `Looks up record ${i} of the ${AREAS[i % AREAS.length]} area, variant ${Math.floor(i / 8)}`,
        inputSchema: { type: 'object', properties: { id: { type: 'string', description: 'The record id' } } }
    };
});

const server = new Server({ name: 'many', version: '1.0.0' }, { capabilities: { tools: {} } });

server.setRequestHandler(ListToolsRequestSchema, async request => {
    const offset = request.params?.cursor === undefined ? 0 : Number(request.params.cursor);
    if (!Number.isInteger(offset) || offset < 0 || offset >= TOTAL) {
        throw new McpError(ErrorCode.InvalidParams, `Invalid cursor: ${request.params.cursor}`);
    }
    const next = offset + PAGE_SIZE;
    const page = tools.slice(offset, next);
    return next < TOTAL ? { tools: page, nextCursor: String(next) } : { tools: page };
});

server.setRequestHandler(CallToolRequestSchema, async request => {
    if (!tools.some(t => t.name === request.params.name)) {
        throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    }
    return { content: [{ type: 'text', text: `called ${request.params.name}` }] };
});

process.stdin.on('end', () => process.exit(0));
await server.connect(new StdioServerTransport());
console.error(`many: ready on stdio with ${TOTAL} tools`);
