package dev.toolscout.agent;

import dev.langchain4j.exception.HttpException;
import dev.langchain4j.exception.RetriableException;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import java.net.http.HttpTimeoutException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link ChatProvider} over a LangChain4j chat model and its streaming twin, with one retry policy for both: a
 * 429, a 5xx or a timeout is tried again (when no text has streamed yet) up to the configured number of times,
 * waiting 250 ms, 500 ms, 1 s, ... in between. Each attempt holds a slot of the provider's {@link Bulkhead}
 * (not the waits between attempts): when every slot stays taken for the bulkhead's wait, the call fails as
 * retriable, naming the limit. Thread-safe.
 */
final class LangChain4jProvider implements ChatProvider {
    private static final Logger LOG = LoggerFactory.getLogger(LangChain4jProvider.class);
    private static final long FIRST_BACKOFF_MS = 250;

    private final String name;
    private final ProviderConfig config;
    private final ChatModel model;
    private final StreamingChatModel streaming;
    private final Bulkhead bulkhead;

    LangChain4jProvider(
            String name, ProviderConfig config, ChatModel model, StreamingChatModel streaming, Bulkhead bulkhead) {
        this.name = name;
        this.config = config;
        this.model = model;
        this.streaming = streaming;
        this.bulkhead = java.util.Objects.requireNonNull(bulkhead, "bulkhead");
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public ChatResponse chat(ChatRequest request, Consumer<String> onText) throws InterruptedException {
        for (int attempt = 0; ; attempt++) {
            AtomicBoolean streamed = new AtomicBoolean();
            Bulkhead.Slot slot = enter(); // its failure is not retried: the wait was the bulkhead's bound
            try {
                return config.stream() ? stream(request, onText, streamed) : whole(request, onText);
            } catch (RuntimeException e) {
                slot.close(); // not held over the wait before the next attempt
                int status = status(e);
                boolean retriable = retriable(e, status);
                if (!retriable || streamed.get() || attempt >= config.maxRetries()) {
                    throw new ProviderException(
                            name + " failed" + (status > 0 ? " with HTTP " + status : "")
                                    + (retriable && !streamed.get() ? " after " + (attempt + 1) + " attempts" : "")
                                    + ": "
                                    + shortMessage(e),
                            retriable,
                            status,
                            e);
                }
                long wait = FIRST_BACKOFF_MS << Math.min(attempt, 6);
                LOG.info(
                        "{} answered {} (attempt {} of {}); trying again in {} ms",
                        name,
                        status > 0 ? "HTTP " + status : e.getClass().getSimpleName(),
                        attempt + 1,
                        config.maxRetries() + 1,
                        wait);
                Thread.sleep(wait);
            } finally {
                slot.close();
            }
        }
    }

    private Bulkhead.Slot enter() throws InterruptedException {
        try {
            return bulkhead.enter();
        } catch (Bulkhead.Full e) {
            throw new ProviderException(e.getMessage(), true, 0, null);
        }
    }

    /** One call without streaming: its text is told once, whole, so the caller sees it as it would a stream's. */
    private ChatResponse whole(ChatRequest request, Consumer<String> onText) {
        ChatResponse response = model.chat(request);
        String text = response.aiMessage() == null ? null : response.aiMessage().text();
        if (text != null && !text.isEmpty()) {
            onText.accept(text);
        }
        return response;
    }

    private ChatResponse stream(ChatRequest request, Consumer<String> onText, AtomicBoolean streamed)
            throws InterruptedException {
        CompletableFuture<ChatResponse> done = new CompletableFuture<>();
        streaming.chat(request, new StreamingChatResponseHandler() {
            @Override
            public void onPartialResponse(String text) {
                if (text != null && !text.isEmpty()) {
                    streamed.set(true);
                    onText.accept(text);
                }
            }

            @Override
            public void onCompleteResponse(ChatResponse response) {
                done.complete(response);
            }

            @Override
            public void onError(Throwable error) {
                done.completeExceptionally(error);
            }
        });
        try {
            // the HTTP client times out each read; this bounds a stream that trickles forever
            return done.get(config.timeout().toMillis() * 4, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            throw c instanceof RuntimeException r ? r : new IllegalStateException(c.getMessage(), c);
        } catch (TimeoutException e) {
            throw new dev.langchain4j.exception.TimeoutException("the streamed answer did not finish within "
                    + config.timeout().multipliedBy(4));
        }
    }

    private static int status(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof HttpException h) {
                return h.statusCode();
            }
        }
        return 0;
    }

    private static boolean retriable(Throwable e, int status) {
        if (status == 429 || status >= 500 && status < 600) {
            return true;
        }
        if (status > 0) {
            return false;
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof RetriableException
                    || t instanceof HttpTimeoutException
                    || t instanceof java.net.ConnectException
                    || t instanceof java.io.IOException) {
                return true;
            }
        }
        return false;
    }

    private static String shortMessage(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return m.length() > 500 ? m.substring(0, 500) + "..." : m;
    }
}
