package dev.toolscout.springai;

import dev.toolscout.model.Principal;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;

/**
 * The tools ToolScout can run, as a Spring AI {@link ToolCallbackProvider}: only those the principal may see (a
 * denied tool is never offered) and some executor of the {@link dev.toolscout.engine.ToolRunner} runs; each callback
 * runs through ToolScout's call gate ({@link ToolScoutToolCallbacks}).
 *
 * <p>{@link #getToolCallbacks()} offers every such tool of the principal the resolver gives for an empty context (the
 * application's default principal), and each callback runs for the principal the resolver reads from the call's tool
 * context, access checked again at the call. Sending every tool is what ToolScout is there to avoid: prefer {@link
 * #forMessage} (ToolScout's selection for the user's message) or the search advisor ({@link ToolScoutSearchAdvisor}),
 * which asks this provider for the selection when it preselects.
 */
public final class ToolScoutToolCallbackProvider implements ToolCallbackProvider {
    private final ToolScoutToolIndex index;
    private final ToolScoutToolCallbacks callbacks;
    private final PrincipalResolver resolver;

    public ToolScoutToolCallbackProvider(
            ToolScoutToolIndex index, ToolScoutToolCallbacks callbacks, PrincipalResolver resolver) {
        this.index = Objects.requireNonNull(index, "index");
        this.callbacks = Objects.requireNonNull(callbacks, "callbacks");
        this.resolver = Objects.requireNonNull(resolver, "resolver");
    }

    public ToolScoutToolIndex index() {
        return index;
    }

    public ToolScoutToolCallbacks callbacks() {
        return callbacks;
    }

    public PrincipalResolver principalResolver() {
        return resolver;
    }

    @Override
    public ToolCallback[] getToolCallbacks() {
        Principal p = resolver.resolve(Map.of());
        return index.visible(p).stream()
                .map(spec -> callbacks.callback(spec, resolver))
                .toArray(ToolCallback[]::new);
    }

    /** Every tool {@code principal} may see and ToolScout runs, each callback running for {@code principal}. */
    public ToolCallbackProvider forPrincipal(Principal principal, String conversationId) {
        List<ToolCallback> list = index.visible(principal).stream()
                .map(spec -> callbacks.callback(spec, principal, conversationId))
                .toList();
        return ToolCallbackProvider.from(list);
    }

    /**
     * ToolScout's selection for {@code message} ({@link dev.toolscout.engine.ToolScout#select}: ranked inside what
     * {@code principal} may see, core tools pinned), each callback running for {@code principal}.
     *
     * @param k 1-50, or {@code null} for the configured default (10)
     * @param conversationId the conversation the message belongs to, or {@code null}
     */
    public ToolCallbackProvider forMessage(Principal principal, String message, Integer k, String conversationId) {
        List<ToolCallback> list = index.select(principal, message, k, conversationId).stream()
                .map(spec -> callbacks.callback(spec, principal, conversationId))
                .toList();
        return ToolCallbackProvider.from(list);
    }
}
