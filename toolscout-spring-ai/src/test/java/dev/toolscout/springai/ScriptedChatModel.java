package dev.toolscout.springai;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Function;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.tool.ToolCallback;
import reactor.core.publisher.Flux;

/**
 * A hand-written Spring AI {@link ChatModel} that answers each request with the next scripted turn (a turn reads the
 * prompt it answers), and keeps every prompt it was sent. No network.
 */
final class ScriptedChatModel implements ChatModel {
    private final Deque<Function<Prompt, AssistantMessage>> turns = new ArrayDeque<>();
    final List<Prompt> prompts = new ArrayList<>();

    ScriptedChatModel then(Function<Prompt, AssistantMessage> turn) {
        turns.add(turn);
        return this;
    }

    /** A turn that calls {@code tool} with {@code arguments} (JSON text). */
    static Function<Prompt, AssistantMessage> call(String tool, String arguments) {
        return prompt -> AssistantMessage.builder()
                .content("")
                .toolCalls(List.of(new AssistantMessage.ToolCall("call-" + tool, "function", tool, arguments)))
                .build();
    }

    /** A turn that answers {@code text}. */
    static Function<Prompt, AssistantMessage> answer(String text) {
        return prompt -> new AssistantMessage(text);
    }

    @Override
    public synchronized ChatResponse call(Prompt prompt) {
        prompts.add(prompt);
        Function<Prompt, AssistantMessage> turn = turns.poll();
        if (turn == null) {
            throw new IllegalStateException("the script has no turn left for request " + prompts.size());
        }
        return new ChatResponse(List.of(new Generation(turn.apply(prompt))));
    }

    /** The scripted turn as a stream of one response. */
    @Override
    public Flux<ChatResponse> stream(Prompt prompt) {
        return Flux.defer(() -> Flux.just(call(prompt)));
    }

    @Override
    public ChatOptions getOptions() {
        return ToolCallingChatOptions.builder().build();
    }

    /** The names of the tools request {@code i} (0-based) carried. */
    synchronized List<String> toolsOf(int i) {
        if (!(prompts.get(i).getOptions() instanceof ToolCallingChatOptions o) || o.getToolCallbacks() == null) {
            return List.of();
        }
        return o.getToolCallbacks().stream()
                .map(ToolCallback::getToolDefinition)
                .map(d -> d.name())
                .toList();
    }
}
