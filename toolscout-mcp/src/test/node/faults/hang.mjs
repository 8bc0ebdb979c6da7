// Fault server "hang": a stdio MCP server whose tool calls never answer.
//
// Run: node faults/hang.mjs   (from src/test/node; the MCP client starts it over stdio)
//
// Initializes normally and lists one tool, slow_lookup ({id: string}). tools/call never sends
// a response (the handler's promise never settles), but the process stays alive and keeps
// answering ping and tools/list, so only the call itself hangs. notifications/cancelled from
// the client is accepted and nothing is sent for the cancelled call. The process exits when
// the client closes stdin (or kills it).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'hang', version: '1.0.0' });

server.registerTool(
    'slow_lookup',
    {
        description: 'Looks up a record slowly',
        inputSchema: { id: z.string().describe('Record id') }
    },
    async ({ id }, extra) => {
        console.error(`hang: slow_lookup(${id}) called; never answering`);
        extra.signal.addEventListener('abort', () => console.error(`hang: slow_lookup(${id}) cancelled by client`));
        return new Promise(() => {});
    }
);

process.stdin.on('end', () => process.exit(0));
await server.connect(new StdioServerTransport());
console.error('hang: ready on stdio');
