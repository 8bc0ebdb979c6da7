package dev.toolscout.mcp.gateway;

import dev.toolscout.model.Principal;
import dev.toolscout.model.Role;

/**
 * Who is calling the gateway: a stable id (what approval requests record as the requester), the principal
 * the access policy applies to, the role (what it may run, whether it may approve), and whether it came over
 * the network. An HTTP caller is remote even on 127.0.0.1: any local process or web page can reach that port.
 *
 * @param id {@code key:<user>} for an API key (or {@code key:<hash prefix>} when the key names no user),
 *     {@code local} for the single user of a gateway without keys
 */
public record Caller(String id, Principal principal, Role role, boolean remote) {
    public Caller {
        if (id == null || id.isBlank() || principal == null || role == null) {
            throw new IllegalArgumentException(
                    "a caller needs an id, a principal and a role, got: '" + id + "', " + principal + ", " + role);
        }
    }

    /** Whether this caller presented an API key (its id is {@code key:...}), rather than being the local user. */
    public boolean fromKey() {
        return id.startsWith("key:");
    }

    /** The single user of a gateway without API keys. */
    public static Caller local(Principal principal, boolean remote) {
        return new Caller("local", principal, Role.DEFAULT, remote);
    }
}
