package dev.toolscout;

import dev.toolscout.access.AccessControl;
import dev.toolscout.access.AccessPolicy;
import dev.toolscout.catalog.Catalog;
import dev.toolscout.discovery.DiscoveryTools;
import dev.toolscout.events.EventBus;
import dev.toolscout.indexing.ExactToolIndex;
import dev.toolscout.indexing.HashingEmbeddingModel;
import dev.toolscout.indexing.ToolIndexer;
import dev.toolscout.model.ToolSpec;
import dev.toolscout.render.TokenCounter;
import dev.toolscout.selection.HybridRanker;
import dev.toolscout.selection.Selector;
import dev.toolscout.selection.SelectorConfig;
import dev.toolscout.state.InMemoryStateStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The core wired with hand-written fakes at the boundary: in-memory store, brute-force index, hashing embedder. */
public final class Fixture {
    public final InMemoryStateStore store = new InMemoryStateStore();
    public final EventBus bus = new EventBus();
    public final HashingEmbeddingModel model = new HashingEmbeddingModel(256);
    public final ExactToolIndex index = new ExactToolIndex(256);
    public final Catalog catalog = Catalog.load(store, bus, Map.of());
    public final ToolIndexer indexer = new ToolIndexer(store, index, model).attach(bus::subscribe);
    public final AccessControl access = new AccessControl(AccessPolicy.ALLOW_ALL);
    public final TokenCounter tokens = new TokenCounter();
    /** Its threads are daemons and idle ones end: tests that make many fixtures need not close it. */
    public final HybridRanker ranker = new HybridRanker(index);

    public final Selector selector;
    public final DiscoveryTools discovery;

    public Fixture(SelectorConfig config) {
        selector = new Selector(catalog, ranker, model, access, tokens, config, DiscoveryTools.SPECS);
        discovery = new DiscoveryTools(catalog, ranker, model, access, config.fusion());
    }

    public Fixture() {
        this(SelectorConfig.DEFAULT);
    }

    public static ToolSpec tool(String name, String description) {
        return ToolSpec.builder(name, description).build();
    }

    /** A small assistant catalog: the seed's core tools plus calendar, email, files and filler tools. */
    public static List<ToolSpec> assistantCatalog() {
        List<ToolSpec> t = new ArrayList<>();
        t.add(ToolSpec.builder("tool_discovery__find", "Search for tools by query.")
                .category("discovery")
                .build());
        t.add(tool("memory__search", "Search remembered facts, preferences and events."));
        t.add(tool("memory__store", "Remember a fact or preference for later."));
        t.add(tool("tasks__list", "List tasks and to-dos."));
        t.add(tool("tasks__create", "Create a task or to-do item."));
        t.add(tool("notifications__send", "Send a notification to the user."));
        t.add(tool("frontend__show_form", "Show a form for the user to fill in."));
        t.add(ToolSpec.builder("calendar__list_events", "List calendar events in a time range.")
                .category("planning")
                .build());
        t.add(ToolSpec.builder("calendar__create_event", "Create a calendar event, such as a meeting, at a time.")
                .category("planning")
                .build());
        t.add(ToolSpec.builder("calendar__delete_event", "Delete a calendar event.")
                .category("planning")
                .build());
        t.add(ToolSpec.builder("gmail__send_email", "Send an email message to recipients.")
                .category("communication")
                .build());
        t.add(ToolSpec.builder("gmail__list_emails", "List email messages in the inbox.")
                .category("communication")
                .build());
        t.add(ToolSpec.builder("filesystem__read_file", "Read a file from disk.")
                .category("files")
                .build());
        t.add(ToolSpec.builder("filesystem__write_file", "Write a file to disk.")
                .category("files")
                .build());
        for (int i = 0; i < 20; i++) {
            t.add(ToolSpec.builder("misc__tool_" + i, "Does unrelated thing number " + i + " with widgets.")
                    .category("misc")
                    .build());
        }
        return t;
    }
}
