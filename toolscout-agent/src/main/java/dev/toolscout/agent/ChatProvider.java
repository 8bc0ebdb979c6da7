package dev.toolscout.agent;

import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.util.function.Consumer;

/**
 * One LLM API the loop talks to. {@link Providers} makes the shipped ones (Anthropic Messages, OpenAI Chat
 * Completions and compatible servers, through LangChain4j's clients); an application may wrap any LangChain4j
 * model of its own. Implementations are thread-safe, time out every call and retry what is retriable.
 */
@FunctionalInterface
public interface ChatProvider {
    /**
     * One model call.
     *
     * @param onText told each piece of text as it streams in; a provider that does not stream tells its whole text
     *     once, when the answer has come (never called for an answer without text)
     * @throws ProviderException when the provider failed (after its retries) or refused the request
     * @throws InterruptedException when the request is cancelled
     */
    ChatResponse chat(ChatRequest request, Consumer<String> onText) throws InterruptedException;

    /** What the usage record names the provider and model by, e.g. {@code anthropic/claude-sonnet-4-5}. */
    default String name() {
        return "custom";
    }
}
