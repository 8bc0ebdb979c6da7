package dev.toolscout.server.cli;

import dev.toolscout.agent.AgentLimits;
import dev.toolscout.agent.ProviderConfig;
import dev.toolscout.mcp.gateway.SessionLimits;
import dev.toolscout.server.AgentRuntime;
import java.nio.file.Path;
import java.util.Map;
import picocli.CommandLine.Option;

/** The agent loop's provider and limits, shared by {@code chat} and {@code serve}. */
final class AgentOptions {
    @Option(
            names = "--provider",
            paramLabel = "NAME",
            description =
                    "anthropic or openai (any OpenAI-compatible "
                            + "server with --provider-url). Default: the one whose key is set, ANTHROPIC_API_KEY first, then OPENAI_API_KEY.")
    String provider;

    @Option(
            names = "--provider-model",
            paramLabel = "MODEL",
            description = "The LLM (default claude-sonnet-4-5 for " + "anthropic, gpt-4.1-mini for openai).")
    String model;

    @Option(
            names = "--provider-url",
            paramLabel = "URL",
            description = "The provider API's base URL (default the "
                    + "provider's own), e.g. http://127.0.0.1:8000/v1 for a local OpenAI-compatible server.")
    String providerUrl;

    @Option(
            names = "--provider-key-file",
            paramLabel = "FILE",
            description =
                    "Read the provider's key from this "
                            + "file (plain, or sealed as enc:v1:... with the data directory's secret key) instead of the environment.")
    Path keyFile;

    @Option(
            names = "--max-turns",
            paramLabel = "N",
            defaultValue = "10",
            description = "Model calls in one request (default ${DEFAULT-VALUE}).")
    int maxTurns;

    @Option(
            names = "--max-tool-calls",
            paramLabel = "N",
            defaultValue = "25",
            description = "Tool calls in one request (default ${DEFAULT-VALUE}).")
    int maxToolCalls;

    @Option(
            names = "--max-time",
            paramLabel = "DURATION",
            defaultValue = "5m",
            description = "Wall time of one request, waiting for approvals apart: a whole number and ms, s, m or h "
                    + "(default ${DEFAULT-VALUE}).")
    String maxTime;

    @Option(
            names = "--max-tokens",
            paramLabel = "N",
            defaultValue = "200000",
            description = "Input plus output tokens one request may use, as the provider counts them "
                    + "(default ${DEFAULT-VALUE}).")
    long maxTokens;

    @Option(names = "--no-stream", description = "Use the provider's non-streaming API.")
    boolean noStream;

    @Option(
            names = "--max-provider-calls",
            paramLabel = "N",
            defaultValue = "" + dev.toolscout.agent.Bulkhead.DEFAULT_PROVIDER_CALLS,
            description = "The most LLM provider calls in progress at once; one more waits up to 120 s for one to end, "
                    + "then its run fails as retriable, naming this limit (default ${DEFAULT-VALUE}).")
    int maxProviderCalls;

    /** The provider {@link #config} names, with at most {@code --max-provider-calls} calls in progress. */
    dev.toolscout.agent.ChatProvider provider(Path dataDir) {
        return dev.toolscout.agent.Providers.of(config(dataDir), maxProviderCalls);
    }

    AgentLimits limits() {
        return new AgentLimits(maxTurns, maxToolCalls, SessionLimits.parseDuration("--max-time", maxTime), maxTokens);
    }

    ProviderConfig config(Path dataDir) {
        Map<String, String> env = new java.util.HashMap<>(System.getenv());
        if (keyFile != null) {
            String key;
            try {
                key = java.nio.file.Files.readString(keyFile).strip();
            } catch (java.io.IOException e) {
                throw new IllegalArgumentException(
                        "--provider-key-file " + keyFile + " cannot be read: " + e.getMessage(), e);
            }
            if (key.isEmpty() || key.length() > 4096) {
                throw new IllegalArgumentException("--provider-key-file " + keyFile + " must hold one key of 1-4096 "
                        + "characters, got " + key.length());
            }
            ProviderConfig.Kind kind =
                    provider == null ? ProviderConfig.Kind.ANTHROPIC : ProviderConfig.Kind.parse(provider);
            env.put(kind.keyVariable(), key);
            if (provider == null) {
                provider = kind.id();
            }
        }
        ProviderConfig c = AgentRuntime.config(provider, model, providerUrl, dataDir, env);
        return noStream ? c.withStream(false) : c;
    }
}
