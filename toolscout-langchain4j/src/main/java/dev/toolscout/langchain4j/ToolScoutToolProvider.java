package dev.toolscout.langchain4j;

import dev.langchain4j.agent.tool.SearchBehavior;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.data.message.Content;
import dev.langchain4j.data.message.TextContent;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.service.tool.ToolProvider;
import dev.langchain4j.service.tool.ToolProviderRequest;
import dev.langchain4j.service.tool.ToolProviderResult;
import dev.toolscout.engine.SelectRequest;
import dev.toolscout.engine.SelectResult;
import dev.toolscout.engine.ToolPage;
import dev.toolscout.engine.ToolRunner;
import dev.toolscout.engine.ToolScout;
import dev.toolscout.model.Principal;
import dev.toolscout.model.ToolSpec;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * A LangChain4j {@link ToolProvider} backed by {@link ToolScout#select}: the invocation's user message in, the
 * selected tools out (ranked within the access policy, with the pinned core tools and the conversation's skills), each
 * with a LangChain4j {@code ToolExecutor} that runs the call through ToolScout's call gate ({@link ToolRunner#call}):
 * access first (a denied tool reads as missing), {@code BLOCKED} never runs, a {@code PROPOSE} tool is filed in the
 * approval queue and the model is told the request id, and the tool's executor (an MCP upstream, an OpenAPI
 * operation, ToolScout's own tools) runs it. Only tools something runs are provided ({@link ToolRunner#runs}).
 *
 * <p>Two modes:
 *
 * <ul>
 *   <li>alone (the default): the selected tools and {@code tool_discovery__find} (when the policy lets the principal
 *       use it); {@linkplain #isDynamic() dynamic}, asked again before each model call, so that the tools {@code
 *       tool_discovery__find} disclosed in the conversation join the next call (ToolScout records them per
 *       conversation: the chat memory id, when it is a valid conversation id);
 *   <li>with a {@link ToolScoutToolSearchStrategy} ({@link Builder#searchable}): asked once per invocation; the
 *       selected tools are {@link SearchBehavior#ALWAYS_VISIBLE}, and every other tool the principal may see and
 *       something runs is provided as searchable, for the strategy's search to reveal; ToolScout's own {@code
 *       tool_discovery__*} tools are left out (the strategy's search tool takes their place).
 * </ul>
 *
 * <p>Approval requests are filed in the approval queue's agent channel, scoped by {@code langchain4j:} and the
 * conversation, with the requester {@code langchain4j:<user>}: a person decides them with {@code toolscout approvals}
 * and the model's next call with the same arguments runs. Thread-safe.
 */
public final class ToolScoutToolProvider implements ToolProvider {
    private static final String DISCOVERY_PREFIX = "tool_discovery__";
    private static final String FIND = DISCOVERY_PREFIX + "find";

    private final ToolRunner runner;
    private final Function<InvocationContext, Principal> principals;
    private final Integer k;
    private final boolean searchable;
    private final RunnerToolExecutor executor;

    private ToolScoutToolProvider(Builder b) {
        this.runner = b.runner;
        this.principals = b.principals;
        this.k = b.k;
        this.searchable = b.searchable;
        this.executor = new RunnerToolExecutor(runner, principals);
    }

    /** A builder over {@code runner} (its ToolScout and executors). */
    public static Builder builder(ToolRunner runner) {
        return new Builder(runner);
    }

    @Override
    public boolean isDynamic() {
        return !searchable;
    }

    @Override
    public ToolProviderResult provideTools(ToolProviderRequest request) {
        InvocationContext context = request.invocationContext();
        Principal p = principal(context);
        String conversation = Invocations.conversationId(context);
        ToolScout scout = runner.scout();
        String message = text(request.userMessage());
        Map<String, ToolSpecification> out = new LinkedHashMap<>();
        if (!message.isBlank()) { // a message of images only: nothing to rank by, the rest still applies
            SelectResult selected = scout.select(new SelectRequest(message, p, k, null, conversation));
            for (ToolSpec spec : selected.specs()) {
                add(out, spec, true);
            }
        }
        if (searchable) {
            // every other tool the principal may see, for the strategy's search to reveal by name
            for (int offset = 0; ; offset += ToolPage.MAX_LIMIT) {
                ToolPage page = scout.list(p, null, offset, ToolPage.MAX_LIMIT);
                for (ToolPage.ToolSummary t : page.tools()) {
                    if (!out.containsKey(t.name())) {
                        runner.resolve(p, t.name()).ifPresent(spec -> add(out, spec, false));
                    }
                }
                if (page.tools().size() < ToolPage.MAX_LIMIT) {
                    break;
                }
            }
        } else {
            // the way to every other tool, whether or not the selection pinned it
            scout.ownTool(p, conversation, FIND)
                    .filter(t -> t.offeredTo(null))
                    .ifPresent(t -> add(out, t.spec(), true));
        }
        if (!searchable && conversation != null) {
            scout.conversation(p, conversation).ifPresent(c -> {
                for (String name : c.disclosedTools()) {
                    if (!out.containsKey(name)) {
                        runner.resolve(p, name).ifPresent(spec -> add(out, spec, true));
                    }
                }
            });
        }
        ToolProviderResult.Builder result = ToolProviderResult.builder();
        out.values().forEach(spec -> result.add(spec, executor));
        return result.build();
    }

    private void add(Map<String, ToolSpecification> out, ToolSpec spec, boolean visible) {
        String name = spec.fullName();
        if (out.containsKey(name) || !runner.runs(spec) || searchable && name.startsWith(DISCOVERY_PREFIX)) {
            return;
        }
        ToolSpecification.Builder b = ToolDefinitions.builder(spec);
        if (searchable) {
            b.addMetadata(
                    ToolSpecification.METADATA_SEARCH_BEHAVIOR,
                    visible ? SearchBehavior.ALWAYS_VISIBLE : SearchBehavior.SEARCHABLE);
        }
        out.put(name, b.build());
    }

    /** The message's text: its text parts, one per line. */
    private static String text(UserMessage message) {
        if (message.hasSingleText()) {
            return message.singleText();
        }
        StringBuilder b = new StringBuilder();
        for (Content c : message.contents()) {
            if (c instanceof TextContent t) {
                b.append(b.isEmpty() ? "" : "\n").append(t.text());
            }
        }
        return b.toString();
    }

    private Principal principal(InvocationContext context) {
        Principal p = principals.apply(context);
        return p == null ? Principal.ANONYMOUS : p;
    }

    /** Builds a {@link ToolScoutToolProvider}. Not thread-safe. */
    public static final class Builder {
        private final ToolRunner runner;
        private Function<InvocationContext, Principal> principals = Invocations.memoryIdAsUser();
        private Integer k;
        private boolean searchable;

        private Builder(ToolRunner runner) {
            this.runner = Objects.requireNonNull(runner, "runner");
        }

        /**
         * Who an invocation runs for (access, approvals, the executors); default {@link Invocations#memoryIdAsUser}:
         * the chat memory id as the user id.
         */
        public Builder principal(Function<InvocationContext, Principal> resolver) {
            this.principals = Objects.requireNonNull(resolver, "resolver");
            return this;
        }

        /** How many tools to select (ToolScout's bounds); default ToolScout's configured K (10). */
        public Builder k(int k) {
            this.k = k;
            return this;
        }

        /**
         * For use with a {@link ToolScoutToolSearchStrategy}: the selected tools always visible, every other tool the
         * principal may see provided as searchable (default false).
         */
        public Builder searchable(boolean searchable) {
            this.searchable = searchable;
            return this;
        }

        public ToolScoutToolProvider build() {
            return new ToolScoutToolProvider(this);
        }
    }
}
