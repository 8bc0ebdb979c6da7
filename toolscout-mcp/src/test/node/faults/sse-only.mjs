// Server "sse-only": an MCP server that speaks ONLY the legacy HTTP+SSE transport
// (protocol 2024-11-05 style), for testing a client's Streamable HTTP -> SSE fallback.
//
// Run: PORT=<port> node faults/sse-only.mjs      (from src/test/node; PORT is required,
//      PORT=0 picks a free port; HOST optional, default: all interfaces like server-everything)
// Ready line on stderr: "sse-only listening on <port>" (the actual port).
//
// Endpoints (SDK SSEServerTransport on plain node:http, one McpServer per SSE connection):
//   GET  /sse                      opens the event stream; first event is
//                                  "event: endpoint / data: /messages?sessionId=<uuid>"
//   POST /messages?sessionId=<id>  carries client->server JSON-RPC messages (202 Accepted;
//                                  answers arrive on the stream); unknown session -> 404
//   POST /sse                      405 (Allow: GET): a Streamable HTTP client pointed at /sse
//                                  fails with 4xx and, per spec, falls back to GET on the same URL
//   POST /mcp, POST /, other paths 404
// One tool: legacy_ping -> text "pong".
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';

const port = process.env.PORT;
if (port === undefined || port === '' || !/^\d+$/.test(port)) {
    console.error('sse-only: PORT environment variable (a number) is required');
    process.exit(2);
}

/** sessionId -> SSEServerTransport */
const transports = new Map();

function newMcpServer() {
    const server = new McpServer({ name: 'sse-only', version: '1.0.0' });
    server.registerTool('legacy_ping', { description: 'Answers pong over the legacy SSE transport' }, async () => ({
        content: [{ type: 'text', text: 'pong' }]
    }));
    return server;
}

function reply(res, status, body, headers = {}) {
    res.writeHead(status, { 'Content-Type': 'text/plain', ...headers }).end(body);
}

const http = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    console.error(`sse-only: ${req.method} ${url.pathname}${url.search}`);
    try {
        if (url.pathname === '/sse') {
            if (req.method !== 'GET') {
                return reply(res, 405, 'Method Not Allowed: this server only speaks the legacy HTTP+SSE transport', {
                    Allow: 'GET'
                });
            }
            const transport = new SSEServerTransport('/messages', res);
            transports.set(transport.sessionId, transport);
            const server = newMcpServer();
            transport.onclose = () => {
                transports.delete(transport.sessionId);
                console.error(`sse-only: session ${transport.sessionId} closed`);
            };
            await server.connect(transport);
            console.error(`sse-only: session ${transport.sessionId} opened`);
            return;
        }
        if (url.pathname === '/messages' && req.method === 'POST') {
            const transport = transports.get(url.searchParams.get('sessionId') ?? '');
            if (!transport) return reply(res, 404, 'Unknown or missing sessionId');
            await transport.handlePostMessage(req, res);
            return;
        }
        return reply(res, 404, 'Not Found');
    } catch (error) {
        console.error('sse-only: error handling request:', error);
        if (!res.headersSent) reply(res, 500, 'Internal Server Error');
    }
});

http.on('error', error => {
    console.error('sse-only: HTTP server error:', error);
    process.exit(1);
});
http.listen(Number(port), process.env.HOST || undefined, () => {
    console.error(`sse-only listening on ${http.address().port}`);
});
for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
        for (const transport of transports.values()) transport.close().catch(() => {});
        http.close();
        process.exit(0);
    });
}
