package dev.toolscout.server;

import dev.toolscout.agent.Agent;
import dev.toolscout.agent.AgentLimits;
import dev.toolscout.agent.ChatProvider;
import dev.toolscout.agent.ProviderConfig;
import dev.toolscout.agent.Providers;
import dev.toolscout.agent.openapi.OpenApiExecutor;
import dev.toolscout.mcp.McpRuntime;
import dev.toolscout.mcp.McpToolExecutor;
import dev.toolscout.mcp.secret.SecretBox;
import dev.toolscout.model.SourceKind;
import dev.toolscout.model.ToolSpec;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The agent loop as the product wires it: the provider from the options and the environment, and the executors
 * the server has (the upstream MCP servers' tools and the MCP actions {@code mcp__list_servers} and {@code
 * mcp__call_tool}; ToolScout's own tools run inside the loop). Stateless.
 */
public final class AgentRuntime {
    /** The model when none is named. */
    public static final Map<ProviderConfig.Kind, String> DEFAULT_MODELS =
            Map.of(ProviderConfig.Kind.ANTHROPIC, "claude-sonnet-4-5", ProviderConfig.Kind.OPENAI, "gpt-4.1-mini");

    private AgentRuntime() {}

    /**
     * The provider to use: {@code provider} ({@code anthropic} or {@code openai}), or when {@code null} the one whose
     * key the environment holds ({@code ANTHROPIC_API_KEY} first, then {@code OPENAI_API_KEY}). The key is the
     * environment variable's value; a sealed value ({@code enc:v1:...}, made with the data directory's secret key,
     * docs/SECURITY.md) is unsealed here and never leaves the process.
     *
     * @throws IllegalArgumentException naming the option or the variable when no provider or key is given
     */
    public static ProviderConfig config(
            String provider, String model, String baseUrl, Path dataDir, Map<String, String> env) {
        ProviderConfig.Kind kind;
        if (provider != null) {
            kind = ProviderConfig.Kind.parse(provider);
        } else if (present(env, ProviderConfig.Kind.ANTHROPIC.keyVariable())) {
            kind = ProviderConfig.Kind.ANTHROPIC;
        } else if (present(env, ProviderConfig.Kind.OPENAI.keyVariable())) {
            kind = ProviderConfig.Kind.OPENAI;
        } else {
            throw new IllegalArgumentException("the agent loop needs an LLM provider: set ANTHROPIC_API_KEY or "
                    + "OPENAI_API_KEY, or give --provider anthropic|openai (an OpenAI-compatible server: --provider openai "
                    + "--provider-url URL)");
        }
        String key = env.get(kind.keyVariable());
        if (key != null && SecretBox.isSealed(key.strip())) {
            key = SecretBox.open(dataDir, env).unseal(key.strip());
        }
        return ProviderConfig.of(
                kind,
                model == null ? DEFAULT_MODELS.get(kind) : model,
                baseUrl,
                Map.of(kind.keyVariable(), key == null ? "" : key));
    }

    private static boolean present(Map<String, String> env, String name) {
        String v = env.get(name);
        return v != null && !v.isBlank();
    }

    /** The loop over {@code runtime}'s engine and upstream servers ({@link McpRuntime#start} has run). */
    public static Agent agent(McpRuntime runtime, ChatProvider provider, AgentLimits limits) {
        McpToolExecutor mcp = runtime.executor();
        List<ToolSpec> actions = McpRuntime.actionSpecs();
        // imported HTTP APIs (index --openapi): their stored base URL and sealed credential
        SecretBox secrets = SecretBox.open(runtime.scout().maintenance().dataDir(), System.getenv());
        OpenApiExecutor http = OpenApiExecutor.fromStore(
                runtime.scout().maintenance().store(),
                secrets::unseal,
                System.getenv(),
                OpenApiExecutor.Settings.DEFAULTS);
        return Agent.builder(runtime.scout(), provider)
                .executor(SourceKind.MCP, mcp)
                .tools(actions, mcp)
                .executor(SourceKind.OPENAPI, http)
                .limits(limits)
                .build();
    }

    /** {@link #agent(McpRuntime, ChatProvider, AgentLimits)} for a provider config. */
    public static Agent agent(McpRuntime runtime, ProviderConfig config, AgentLimits limits) {
        return agent(runtime, Providers.of(config), limits);
    }
}
