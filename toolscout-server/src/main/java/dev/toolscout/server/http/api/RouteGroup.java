package dev.toolscout.server.http.api;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;

/**
 * Routes that belong together (selection, tools, policy, servers, operations) and the component schemas their
 * bodies use. A new group is added to {@link HttpApi}'s list; a new route to its group's {@link #routes()}.
 */
public interface RouteGroup {
    List<Endpoint> routes();

    /** Component schemas by name (JSON Schema 2020-12), referred to by the routes' request and response names. */
    Map<String, JsonNode> schemas();
}
