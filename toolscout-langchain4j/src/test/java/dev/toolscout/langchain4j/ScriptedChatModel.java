package dev.toolscout.langchain4j;

import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A hand-written LangChain4j {@link ChatModel} (LangChain4j's interface, not ours): answers each request with the next
 * scripted message and keeps the requests, for a test to check what the model was sent.
 */
final class ScriptedChatModel implements ChatModel {
    private final Deque<AiMessage> script = new ArrayDeque<>();
    final List<ChatRequest> requests = new CopyOnWriteArrayList<>();

    ScriptedChatModel then(AiMessage answer) {
        script.add(answer);
        return this;
    }

    @Override
    public synchronized ChatResponse doChat(ChatRequest request) {
        requests.add(request);
        AiMessage next = script.poll();
        if (next == null) {
            throw new IllegalStateException("the script has no answer for request " + requests.size());
        }
        return ChatResponse.builder().aiMessage(next).build();
    }

    /** The tool names request {@code i} (0-based) carried. */
    List<String> toolsOf(int i) {
        return requests.get(i).toolSpecifications().stream().map(t -> t.name()).toList();
    }
}
