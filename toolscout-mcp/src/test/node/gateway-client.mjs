// gateway-client: a real MCP client (official TypeScript SDK Client) that drives an MCP gateway
// such as ToolScout end to end, for the Java tests to assert on.
//
// Run (from src/test/node):
//   node gateway-client.mjs --stdio <command> [args...] [options]
//   node gateway-client.mjs --http <url> [--header 'Name: value']... [options]
//   node gateway-client.mjs --sse <url> [--header 'Name: value']... [options]   (legacy HTTP+SSE)
// Options:
//   --query <text>        query for the find tool (default "echo a message back")
//   --find-tool <name>    discovery tool to call (default "tool_discovery__find")
//   --call <toolName>     afterwards, call this tool directly (optional)
//   --args <json>         arguments for --call (default {})
//   --wait-ms <n>         how long to wait for tools/list_changed after find (default 5000)
//   --timeout-ms <n>      per-request timeout (default 60000)
//   --max-buffer-bytes <n> stdio only: largest message the client accepts (SDK default 10 MiB;
//                         a bigger line makes the SDK close the connection -> exit 1)
// The --stdio command runs until the first gateway-client option or a lone "--"; put the options
// after it (or before --stdio). The child inherits this process's environment and working
// directory, and its stderr goes to this process's stderr.
//
// Steps: connect + initialize; tools/list (following cursors); count
// notifications/tools/list_changed from then on; call <find-tool> with {"query": <query>}; wait up
// to --wait-ms for a list_changed that arrives after the find call was sent; tools/list again; if
// --call, call it with --args; close the client (stdio: ends the child; http: DELETEs the session).
//
// Output: ONE JSON object on stdout:
//   {"serverInfo", "protocolVersion", "serverCapabilities", "toolsBefore": [names],
//    "findResult": CallToolResult|null, "findError": message|null,
//    "listChangedCount": n (all list_changed received after initialize),
//    "listChangedAfterFind": n (those received after the find call was sent),
//    "toolsAfter": [names], "callResult": CallToolResult|null, "callError": message|null}
// Exit 0 when the conversation completed, even if a tool result has isError or a tools/call got a
// JSON-RPC error (those are reported in the JSON). Exit 1 (message on stderr, nothing on stdout)
// on a transport/protocol failure: cannot connect, initialize or tools/list fails, connection
// closed, request timeout. Exit 2 on bad usage. All logging goes to stderr.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import {
    ElicitRequestSchema,
    ErrorCode,
    McpError,
    ToolListChangedNotificationSchema
} from '@modelcontextprotocol/sdk/types.js';

const log = (...args) => console.error('gateway-client:', ...args);

const OPTIONS_WITH_VALUE = new Set([
    '--http',
    '--sse',
    '--header',
    '--query',
    '--call',
    '--args',
    '--find-tool',
    '--wait-ms',
    '--timeout-ms',
    '--max-buffer-bytes',
    '--elicit'
]);

function usage(message) {
    console.error(`gateway-client: ${message}`);
    console.error(
        'usage: node gateway-client.mjs (--stdio <command> [args...] | --http <url> | --sse <url>) ' +
            "[--header 'Name: value'] [--query <text>] [--find-tool <name>] [--call <tool>] [--args <json>] " +
            '[--wait-ms <n>] [--timeout-ms <n>] [--max-buffer-bytes <n>] [--elicit accept|decline]'
    );
    process.exit(2);
}

function parseArgs(argv) {
    const opts = {
        stdio: null,
        http: null,
        sse: null,
        headers: {},
        query: 'echo a message back',
        call: null,
        args: {},
        findTool: 'tool_discovery__find',
        waitMs: 5000,
        timeoutMs: 60000,
        maxBufferBytes: undefined,
        elicit: null
    };
    for (let i = 0; i < argv.length; i++) {
        const arg = argv[i];
        if (arg === '--stdio') {
            const command = [];
            while (i + 1 < argv.length && argv[i + 1] !== '--' && !OPTIONS_WITH_VALUE.has(argv[i + 1])) {
                command.push(argv[++i]);
            }
            if (argv[i + 1] === '--') i++;
            if (command.length === 0) usage('--stdio needs a command');
            opts.stdio = command;
            continue;
        }
        if (!OPTIONS_WITH_VALUE.has(arg)) usage(`unknown argument: ${arg}`);
        if (i + 1 >= argv.length) usage(`${arg} needs a value`);
        const value = argv[++i];
        switch (arg) {
            case '--http':
                opts.http = value;
                break;
            case '--sse':
                opts.sse = value;
                break;
            case '--header': {
                const colon = value.indexOf(':');
                if (colon <= 0) usage(`--header must look like 'Name: value', got: ${value}`);
                opts.headers[value.slice(0, colon).trim()] = value.slice(colon + 1).trim();
                break;
            }
            case '--query':
                opts.query = value;
                break;
            case '--call':
                opts.call = value;
                break;
            case '--args':
                try {
                    opts.args = JSON.parse(value);
                } catch (error) {
                    usage(`--args is not JSON: ${error.message}`);
                }
                if (opts.args === null || typeof opts.args !== 'object' || Array.isArray(opts.args)) {
                    usage('--args must be a JSON object');
                }
                break;
            case '--find-tool':
                opts.findTool = value;
                break;
            case '--wait-ms':
                opts.waitMs = Number(value);
                break;
            case '--timeout-ms':
                opts.timeoutMs = Number(value);
                break;
            case '--elicit':
                if (value !== 'accept' && value !== 'decline') usage('--elicit must be accept or decline');
                opts.elicit = value;
                break;
            case '--max-buffer-bytes':
                opts.maxBufferBytes = Number(value);
                if (!Number.isInteger(opts.maxBufferBytes) || opts.maxBufferBytes <= 0) {
                    usage('--max-buffer-bytes must be a positive integer');
                }
                break;
        }
    }
    if ([opts.stdio, opts.http, opts.sse].filter(Boolean).length !== 1) {
        usage('give exactly one of --stdio, --http, --sse');
    }
    if (!Number.isFinite(opts.waitMs) || opts.waitMs < 0) usage('--wait-ms must be a number >= 0');
    if (!Number.isFinite(opts.timeoutMs) || opts.timeoutMs <= 0) usage('--timeout-ms must be a number > 0');
    return opts;
}

function createTransport(opts) {
    if (opts.stdio) {
        const [command, ...args] = opts.stdio;
        log(`starting ${JSON.stringify(opts.stdio)}`);
        // env: the SDK's default passes only HOME/PATH/USER/...; a gateway needs the full environment.
        return new StdioClientTransport({
            command,
            args,
            env: { ...process.env },
            stderr: 'inherit',
            maxBufferSize: opts.maxBufferBytes
        });
    }
    const requestInit = { headers: opts.headers };
    if (opts.http) {
        log(`connecting to ${opts.http} (Streamable HTTP)`);
        return new StreamableHTTPClientTransport(new URL(opts.http), { requestInit });
    }
    log(`connecting to ${opts.sse} (legacy HTTP+SSE)`);
    // requestInit headers go on both the SSE GET and the message POSTs
    return new SSEClientTransport(new URL(opts.sse), { requestInit });
}

/** A JSON-RPC error answered by the peer (vs. a local transport failure or timeout). */
function isPeerError(error) {
    return (
        error instanceof McpError && error.code !== ErrorCode.ConnectionClosed && error.code !== ErrorCode.RequestTimeout
    );
}

async function listToolNames(client, timeout) {
    const names = [];
    let cursor;
    for (let page = 0; page < 1000; page++) {
        const result = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout });
        names.push(...result.tools.map(tool => tool.name));
        cursor = result.nextCursor;
        if (cursor === undefined || cursor === null || cursor === '') return names;
    }
    throw new Error('tools/list: more than 1000 pages, giving up');
}

async function callTool(client, name, args, timeout) {
    try {
        const result = await client.callTool({ name, arguments: args }, undefined, { timeout });
        log(`${name} -> ${result.isError ? 'isError result' : 'result'}`);
        return { result, error: null };
    } catch (error) {
        if (!isPeerError(error)) throw error;
        log(`${name} -> JSON-RPC error: ${error.message}`);
        return { result: null, error: error.message };
    }
}

async function main() {
    const opts = parseArgs(process.argv.slice(2));
    const transport = createTransport(opts);

    let protocolVersion = null;
    const setProtocolVersion = transport.setProtocolVersion?.bind(transport);
    transport.setProtocolVersion = version => {
        protocolVersion = version;
        setProtocolVersion?.(version);
    };

    // --elicit: declare elicitation support and answer every request (an approval prompt) as told
    const client = new Client(
        { name: 'toolscout-gateway-client', version: '1.0.0' },
        { capabilities: opts.elicit ? { elicitation: { form: {} } } : {} }
    );
    const elicitations = [];
    if (opts.elicit) {
        client.setRequestHandler(ElicitRequestSchema, async request => {
            elicitations.push(request.params.message);
            log(`elicitation: ${request.params.message} -> ${opts.elicit}`);
            return opts.elicit === 'accept' ? { action: 'accept', content: { approve: true } } : { action: 'decline' };
        });
    }
    let listChangedCount = 0;
    let listChangedAfterFind = 0;
    let findSent = false;
    let wakeWaiter = () => {};
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
        listChangedCount++;
        if (findSent) listChangedAfterFind++;
        log(`notifications/tools/list_changed #${listChangedCount}${findSent ? ' (after find)' : ''}`);
        wakeWaiter();
    });
    client.fallbackNotificationHandler = async notification => {
        log(`notification ${notification.method} ${JSON.stringify(notification.params ?? {})}`);
    };
    client.onerror = error => log(`transport error: ${error?.message ?? error}`);

    let closed = false;
    const close = async () => {
        if (closed) return;
        closed = true;
        if (transport instanceof StreamableHTTPClientTransport) {
            await transport.terminateSession().catch(error => log(`session DELETE failed: ${error.message}`));
        }
        await client.close().catch(error => log(`close failed: ${error.message}`));
    };

    try {
        await client.connect(transport, { timeout: opts.timeoutMs });
        const serverInfo = client.getServerVersion() ?? null;
        log(`initialized: ${JSON.stringify(serverInfo)}, protocol ${protocolVersion}`);

        const toolsBefore = await listToolNames(client, opts.timeoutMs);
        log(`tools before (${toolsBefore.length}): ${toolsBefore.join(', ')}`);

        findSent = true;
        const find = await callTool(client, opts.findTool, { query: opts.query }, opts.timeoutMs);

        if (listChangedAfterFind === 0 && opts.waitMs > 0) {
            await new Promise(resolve => {
                const timer = setTimeout(resolve, opts.waitMs);
                wakeWaiter = () => {
                    clearTimeout(timer);
                    resolve();
                };
            });
            wakeWaiter = () => {};
        }
        log(listChangedAfterFind > 0 ? 'saw list_changed after find' : `no list_changed within ${opts.waitMs} ms`);

        const toolsAfter = await listToolNames(client, opts.timeoutMs);
        log(`tools after (${toolsAfter.length}): ${toolsAfter.join(', ')}`);

        let call = { result: null, error: null };
        if (opts.call) {
            if (!toolsAfter.includes(opts.call)) log(`warning: ${opts.call} is not in tools/list; calling it anyway`);
            call = await callTool(client, opts.call, opts.args, opts.timeoutMs);
        }

        const report = {
            serverInfo,
            protocolVersion,
            serverCapabilities: client.getServerCapabilities() ?? null,
            toolsBefore,
            findResult: find.result,
            findError: find.error,
            listChangedCount,
            listChangedAfterFind,
            toolsAfter,
            callResult: call.result,
            callError: call.error,
            elicitations
        };
        await close();
        await new Promise(resolve => process.stdout.write(JSON.stringify(report) + '\n', resolve));
        process.exit(0);
    } catch (error) {
        log(`FAILED: ${error?.stack ?? error}`);
        await close();
        process.exit(1);
    }
}

await main();
