// Well-behaved server "mutable": a stdio MCP server (SDK McpServer) whose tool list changes at
// runtime, for testing that a client/gateway follows notifications/tools/list_changed.
//
// Run: node faults/mutable.mjs   (from src/test/node; the MCP client starts it over stdio)
//
// Tools:
//   alpha_status                          -> text "alpha ok"
//   add_tool {name, description}          -> registers tool <name> (no arguments) whose call
//                                            returns text "<name> called"; sends list_changed
//   remove_tool {name}                    -> removes a tool added by add_tool; sends list_changed
//   rename_description {name, description}-> sets the description of any listed tool;
//                                            sends list_changed
// Errors (unknown / duplicate names) come back as CallToolResult with isError: true.
// The SDK's McpServer sends notifications/tools/list_changed itself whenever a tool is
// registered, updated or removed after the connection is up (capability tools.listChanged: true).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer(
    { name: 'mutable', version: '1.0.0' },
    { capabilities: { tools: { listChanged: true } } }
);

const text = t => ({ content: [{ type: 'text', text: t }] });
const failure = t => ({ content: [{ type: 'text', text: t }], isError: true });

/** Every tool this server has registered, by name (for rename_description). */
const allTools = new Map();
/** Only the tools created through add_tool (the only ones remove_tool may remove). */
const addedTools = new Map();

function register(name, config, handler) {
    const tool = server.registerTool(name, config, handler);
    allTools.set(name, tool);
    return tool;
}

register('alpha_status', { description: 'Reports the status of the alpha subsystem' }, async () => text('alpha ok'));

register(
    'add_tool',
    {
        description: 'Registers a new tool with the given name and description',
        inputSchema: {
            name: z.string().describe('Name of the new tool'),
            description: z.string().describe('Description of the new tool')
        }
    },
    async ({ name, description }) => {
        if (allTools.has(name)) return failure(`tool ${name} already exists`);
        const tool = register(name, { description }, async () => text(`${name} called`));
        addedTools.set(name, tool);
        console.error(`mutable: added tool ${name}`);
        return text(`added ${name}`);
    }
);

register(
    'remove_tool',
    {
        description: 'Removes a tool that was registered with add_tool',
        inputSchema: { name: z.string().describe('Name of the tool to remove') }
    },
    async ({ name }) => {
        const tool = addedTools.get(name);
        if (!tool) return failure(`no tool ${name} was added with add_tool`);
        tool.remove();
        addedTools.delete(name);
        allTools.delete(name);
        console.error(`mutable: removed tool ${name}`);
        return text(`removed ${name}`);
    }
);

register(
    'rename_description',
    {
        description: "Replaces a tool's description",
        inputSchema: {
            name: z.string().describe('Name of the tool'),
            description: z.string().describe('New description')
        }
    },
    async ({ name, description }) => {
        const tool = allTools.get(name);
        if (!tool) return failure(`no tool ${name}`);
        tool.update({ description });
        console.error(`mutable: new description for ${name}`);
        return text(`updated ${name}`);
    }
);

process.stdin.on('end', () => process.exit(0));
await server.connect(new StdioServerTransport());
console.error('mutable: ready on stdio');
