// Well-behaved server "argv": a stdio MCP server (SDK McpServer) that tells what it was started with, for
// testing that a token given on its command line reaches it although ToolScout stores and shows it sealed.
//
// Run: node faults/argv.mjs [args...]   (from src/test/node; the MCP client starts it over stdio)
//
// Tools:
//   argv  -> text: the JSON array of the arguments after the script
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

const server = new McpServer({ name: 'argv', version: '1.0.0' });
server.registerTool('argv', { description: 'The arguments this server was started with' },
    async () => ({ content: [{ type: 'text', text: JSON.stringify(process.argv.slice(2)) }] }));
await server.connect(new StdioServerTransport());
