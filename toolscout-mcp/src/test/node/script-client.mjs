// script-client: a real MCP client (official TypeScript SDK Client) that runs a script of steps against an
// MCP gateway over Streamable HTTP, for the Java tests to assert on (the skills demo: list, activate a
// skill, wait for tools/list_changed, list again, call the skill's tool).
//
// Run (from src/test/node):
//   node script-client.mjs --http <url> [--header 'Name: value']... --steps '<json>' [--timeout-ms <n>]
// Steps: a JSON array, run in order; each one of
//   {"list": true}                                   tools/list (all pages) -> {"tools": [names]}
//   {"call": "<tool>", "args": {...}}                tools/call -> {"result": CallToolResult} or {"error": msg}
//   {"waitListChanged": <ms>}                        wait until a tools/list_changed arrived since the last
//                                                    step that waited (or the start), at most <ms>
//                                                    -> {"listChanged": true|false}
// Output: ONE JSON object on stdout: {"serverInfo", "steps": [one result per step], "listChangedCount": n}.
// Exit 0 when every step ran (tool errors are in the JSON), 1 on a transport or protocol failure (message
// on stderr), 2 on bad usage. Logging goes to stderr.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';

const log = (...args) => console.error('script-client:', ...args);

function usage(message) {
    console.error(`script-client: ${message}`);
    console.error("usage: node script-client.mjs --http <url> [--header 'Name: value'] --steps '<json>' [--timeout-ms <n>]");
    process.exit(2);
}

function parseArgs(argv) {
    const opts = { http: null, headers: {}, steps: null, timeoutMs: 60000 };
    for (let i = 0; i < argv.length; i++) {
        const a = argv[i];
        const value = argv[i + 1];
        if (value === undefined) usage(`${a} needs a value`);
        i++;
        if (a === '--http') opts.http = value;
        else if (a === '--header') {
            const colon = value.indexOf(':');
            if (colon < 1) usage(`--header must be 'Name: value', got: ${value}`);
            opts.headers[value.slice(0, colon).trim()] = value.slice(colon + 1).trim();
        } else if (a === '--steps') {
            try {
                opts.steps = JSON.parse(value);
            } catch (e) {
                usage(`--steps is not JSON: ${e.message}`);
            }
        } else if (a === '--timeout-ms') opts.timeoutMs = Number(value);
        else usage(`unknown option ${a}`);
    }
    if (!opts.http) usage('--http is required');
    if (!Array.isArray(opts.steps)) usage('--steps must be a JSON array');
    return opts;
}

function isPeerError(error) {
    return (
        error instanceof McpError && error.code !== ErrorCode.ConnectionClosed && error.code !== ErrorCode.RequestTimeout
    );
}

async function main() {
    const opts = parseArgs(process.argv.slice(2));
    const transport = new StreamableHTTPClientTransport(new URL(opts.http), { requestInit: { headers: opts.headers } });
    const client = new Client({ name: 'toolscout-script-client', version: '1.0.0' }, { capabilities: {} });
    let listChanged = 0;
    let seen = 0;
    let wake = null;
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
        listChanged++;
        if (wake) wake();
    });
    await client.connect(transport, { timeout: opts.timeoutMs });
    const out = { serverInfo: client.getServerVersion(), steps: [], listChangedCount: 0 };
    for (const step of opts.steps) {
        if (step.list) {
            const names = [];
            let cursor;
            do {
                const r = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: opts.timeoutMs });
                names.push(...r.tools.map(t => t.name));
                cursor = r.nextCursor;
            } while (cursor);
            out.steps.push({ tools: names });
        } else if (step.call) {
            try {
                const result = await client.callTool({ name: step.call, arguments: step.args ?? {} }, undefined, {
                    timeout: opts.timeoutMs
                });
                log(`${step.call} -> ${result.isError ? 'isError result' : 'result'}`);
                out.steps.push({ result });
            } catch (error) {
                if (!isPeerError(error)) throw error;
                out.steps.push({ error: error.message });
            }
        } else if (step.waitListChanged !== undefined) {
            if (listChanged === seen) {
                await new Promise(resolve => {
                    wake = resolve;
                    setTimeout(resolve, step.waitListChanged);
                });
                wake = null;
            }
            out.steps.push({ listChanged: listChanged > seen });
            seen = listChanged;
        } else {
            usage(`unknown step ${JSON.stringify(step)}`);
        }
    }
    out.listChangedCount = listChanged;
    await client.close();
    process.stdout.write(JSON.stringify(out) + '\n');
}

main().catch(error => {
    console.error(`script-client: ${error?.stack ?? error}`);
    process.exit(1);
});
