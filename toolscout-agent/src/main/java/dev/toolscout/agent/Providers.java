package dev.toolscout.agent;

import dev.langchain4j.model.anthropic.AnthropicChatModel;
import dev.langchain4j.model.anthropic.AnthropicStreamingChatModel;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;

/**
 * The shipped providers: Anthropic's Messages API and OpenAI's Chat Completions API (and any server that speaks
 * it, by base URL), through LangChain4j's clients. LangChain4j's own retries are off: {@link ChatProvider}'s
 * retry policy (429, 5xx, timeouts; {@link ProviderConfig#maxRetries()} times, backoff from 250 ms) covers the
 * streaming calls too, which LangChain4j does not retry.
 */
public final class Providers {
    private Providers() {}

    /** The provider {@code config} names, with the default bulkhead ({@link Bulkhead#provider}). */
    public static ChatProvider of(ProviderConfig config) {
        return of(config, Bulkhead.DEFAULT_PROVIDER_CALLS);
    }

    /**
     * The provider {@code config} names, with at most {@code maxCalls} calls in progress at once (more wait up to
     * {@link Bulkhead#DEFAULT_PROVIDER_WAIT}, then fail as retriable).
     */
    public static ChatProvider of(ProviderConfig config, int maxCalls) {
        return of(config, maxCalls, Bulkhead.DEFAULT_PROVIDER_WAIT);
    }

    /** The provider {@code config} names, with at most {@code maxCalls} in progress; more wait up to {@code maxWait}. */
    public static ChatProvider of(ProviderConfig config, int maxCalls, java.time.Duration maxWait) {
        String name = config.kind().id() + "/" + config.model();
        Bulkhead b = new Bulkhead(name, "--max-provider-calls", maxCalls, maxWait);
        return switch (config.kind()) {
            case ANTHROPIC -> new LangChain4jProvider(name, config, anthropic(config), anthropicStreaming(config), b);
            case OPENAI -> new LangChain4jProvider(name, config, openai(config), openaiStreaming(config), b);
        };
    }

    private static ChatModel anthropic(ProviderConfig c) {
        AnthropicChatModel.AnthropicChatModelBuilder b = AnthropicChatModel.builder()
                .apiKey(c.apiKey())
                .modelName(c.model())
                .maxTokens(c.maxOutputTokens())
                .timeout(c.timeout())
                .maxRetries(0)
                .logRequests(false)
                .logResponses(false);
        if (c.baseUrl() != null) {
            b.baseUrl(c.baseUrl());
        }
        return b.build();
    }

    private static StreamingChatModel anthropicStreaming(ProviderConfig c) {
        AnthropicStreamingChatModel.AnthropicStreamingChatModelBuilder b = AnthropicStreamingChatModel.builder()
                .apiKey(c.apiKey())
                .modelName(c.model())
                .maxTokens(c.maxOutputTokens())
                .timeout(c.timeout())
                .logRequests(false)
                .logResponses(false);
        if (c.baseUrl() != null) {
            b.baseUrl(c.baseUrl());
        }
        return b.build();
    }

    private static ChatModel openai(ProviderConfig c) {
        OpenAiChatModel.OpenAiChatModelBuilder b = OpenAiChatModel.builder()
                .apiKey(c.apiKey())
                .modelName(c.model())
                .maxCompletionTokens(c.maxOutputTokens())
                .timeout(c.timeout())
                .maxRetries(0)
                .logRequests(false)
                .logResponses(false);
        if (c.baseUrl() != null) {
            b.baseUrl(c.baseUrl());
        }
        return b.build();
    }

    private static StreamingChatModel openaiStreaming(ProviderConfig c) {
        OpenAiStreamingChatModel.OpenAiStreamingChatModelBuilder b = OpenAiStreamingChatModel.builder()
                .apiKey(c.apiKey())
                .modelName(c.model())
                .maxCompletionTokens(c.maxOutputTokens())
                .timeout(c.timeout())
                .logRequests(false)
                .logResponses(false);
        if (c.baseUrl() != null) {
            b.baseUrl(c.baseUrl());
        }
        return b.build();
    }
}
