package dev.toolscout.agent;

import java.net.URI;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * How to reach one LLM provider. The key is never shown: not by {@link #toString}, not in an error, not in a
 * log (LangChain4j's request logging stays off).
 *
 * @param kind {@code anthropic} or {@code openai} (any OpenAI-compatible server, by {@code baseUrl})
 * @param model the model id, e.g. {@code claude-sonnet-4-5} or {@code gpt-4.1-mini}
 * @param baseUrl the API's base URL, or {@code null} for the provider's own ({@code https://api.anthropic.com/v1/},
 *     {@code https://api.openai.com/v1})
 * @param apiKey the key ({@code ANTHROPIC_API_KEY} / {@code OPENAI_API_KEY}, a key file, or a value sealed with
 *     the data directory's secret key)
 * @param timeout one HTTP call's timeout (default 60 s)
 * @param maxRetries retries of a 429, a 5xx or a timeout, with backoff (default 3)
 * @param maxOutputTokens the most tokens one answer may have (default 4096)
 * @param stream whether to use the provider's streaming API (default true): the loop's text then reaches a
 *     streaming caller as it comes
 */
public record ProviderConfig(
        Kind kind,
        String model,
        String baseUrl,
        String apiKey,
        Duration timeout,
        int maxRetries,
        int maxOutputTokens,
        boolean stream) {
    /** The providers ToolScout ships clients for. */
    public enum Kind {
        ANTHROPIC("ANTHROPIC_API_KEY"),
        OPENAI("OPENAI_API_KEY");

        private final String keyVariable;

        Kind(String keyVariable) {
            this.keyVariable = keyVariable;
        }

        /** The environment variable its key is read from. */
        public String keyVariable() {
            return keyVariable;
        }

        public String id() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** {@code anthropic} or {@code openai}, any case. */
        public static Kind parse(String s) {
            for (Kind k : values()) {
                if (k.id().equalsIgnoreCase(s == null ? "" : s.strip())) {
                    return k;
                }
            }
            throw new IllegalArgumentException("provider must be anthropic or openai, got: '" + s + "'");
        }
    }

    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(60);
    public static final int DEFAULT_MAX_RETRIES = 3;
    public static final int DEFAULT_MAX_OUTPUT_TOKENS = 4096;

    public ProviderConfig {
        Objects.requireNonNull(kind, "kind");
        if (model == null || model.isBlank() || model.length() > 200) {
            throw new IllegalArgumentException("model must be 1-200 characters, got: '" + model + "'");
        }
        if (baseUrl != null) {
            URI u;
            try {
                u = URI.create(baseUrl);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("base URL must be an http(s) URL, got: '" + baseUrl + "'", e);
            }
            if (u.getScheme() == null
                    || !(u.getScheme().equals("http") || u.getScheme().equals("https"))
                    || u.getHost() == null) {
                throw new IllegalArgumentException("base URL must be an http(s) URL, got: '" + baseUrl + "'");
            }
        }
        if (apiKey == null || apiKey.isBlank()) {
            throw new IllegalArgumentException("the " + kind.id() + " provider needs an API key: set "
                    + kind.keyVariable() + " (plain, or sealed as enc:v1:...) or give --provider-key-file FILE");
        }
        timeout = timeout == null ? DEFAULT_TIMEOUT : timeout;
        if (timeout.isNegative() || timeout.isZero() || timeout.compareTo(Duration.ofMinutes(30)) > 0) {
            throw new IllegalArgumentException(
                    "provider timeout must be above 0 and at most 30 minutes, got: " + timeout);
        }
        if (maxRetries < 0 || maxRetries > 10) {
            throw new IllegalArgumentException("provider maxRetries must be between 0 and 10, got: " + maxRetries);
        }
        if (maxOutputTokens < 1 || maxOutputTokens > 1_000_000) {
            throw new IllegalArgumentException(
                    "maxOutputTokens must be between 1 and 1000000, got: " + maxOutputTokens);
        }
    }

    /** A provider with the defaults, its key from {@code env} ({@link Kind#keyVariable()}). */
    public static ProviderConfig of(Kind kind, String model, String baseUrl, Map<String, String> env) {
        return new ProviderConfig(
                kind,
                model,
                baseUrl,
                env.get(kind.keyVariable()),
                null,
                DEFAULT_MAX_RETRIES,
                DEFAULT_MAX_OUTPUT_TOKENS,
                true);
    }

    public ProviderConfig withStream(boolean s) {
        return new ProviderConfig(kind, model, baseUrl, apiKey, timeout, maxRetries, maxOutputTokens, s);
    }

    public ProviderConfig withRetries(int n) {
        return new ProviderConfig(kind, model, baseUrl, apiKey, timeout, n, maxOutputTokens, stream);
    }

    public ProviderConfig withTimeout(Duration t) {
        return new ProviderConfig(kind, model, baseUrl, apiKey, t, maxRetries, maxOutputTokens, stream);
    }

    /** Leaves the key out. */
    @Override
    public String toString() {
        return "ProviderConfig[kind=" + kind.id() + ", model=" + model + ", baseUrl=" + baseUrl + ", timeout=" + timeout
                + ", maxRetries=" + maxRetries + ", maxOutputTokens=" + maxOutputTokens + ", stream=" + stream + "]";
    }
}
