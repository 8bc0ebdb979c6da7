/**
 * The registered upstream MCP servers as stored ({@link dev.toolscout.servers.ServerStore}): opaque configuration
 * JSON by name, and the names an admin disabled. The gateway's server registry owns the format.
 */
package dev.toolscout.servers;
