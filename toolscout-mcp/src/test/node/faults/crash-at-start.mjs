// Fault server "crash-at-start": dies before speaking MCP.
//
// Run: node faults/crash-at-start.mjs   (from src/test/node; the MCP client starts it over stdio)
//
// Writes "crash-at-start: refusing to start" to stderr and exits with code 3 before reading
// anything from stdin, so the client's initialize never gets an answer and the pipe closes.
process.stderr.write('crash-at-start: refusing to start\n', () => process.exit(3));
