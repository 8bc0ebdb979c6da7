package dev.toolscout.engine;

import dev.toolscout.access.AccessControl;
import dev.toolscout.catalog.Catalog;
import dev.toolscout.discovery.DiscoveryTools;
import dev.toolscout.events.EventBus;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.skills.SkillTools;
import java.util.List;

/**
 * The parts an MCP gateway or an upstream server registry serves the catalog with, in core's types: the catalog
 * and its events, access control, and ToolScout's own tools (discovery, skills; the memory tools are found through
 * the call gate's {@link ToolScout#ownTool}, as on every channel). They are the ones this {@link ToolScout} uses, so
 * what a gateway writes the next selection sees. Thread-safe.
 */
public interface GatewayParts {
    /** The catalog (a gateway's upstream servers write their tools here). */
    Catalog catalog();

    /** The catalog's change events ({@code notifications/tools/list_changed}). */
    EventBus events();

    /** The access policy in force, applied before anything is shown or called. */
    AccessControl access();

    /** {@code tool_discovery__find}, {@code list_all}, {@code describe}. */
    DiscoveryTools discovery();

    /** The skills as each principal sees them, and {@code skills__activate}. */
    SkillTools skillTools();

    /** The selector's core tools, in priority order. */
    List<String> coreTools();

    /**
     * The tools of the searchable indexes registered now ({@code git__search} while a repository is followed, see
     * {@link ToolScout#register}), before access control: ToolScout's own tools, found for a call through {@link
     * ToolScout#ownTool} and offered by a selection whose route's nearest match is in their index.
     */
    List<ToolSpec> indexTools();
}
