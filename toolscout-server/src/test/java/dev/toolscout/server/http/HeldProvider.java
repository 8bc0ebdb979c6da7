package dev.toolscout.server.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A local Anthropic Messages API that holds every request until the test releases them all, then answers each
 * with the recorded text fixture ({@code fixtures/anthropic/text.json} of the agent module's tests): a model that
 * is as slow as the test wants, without timing. Each request is served on a virtual thread, so any number wait at
 * once. Thread-safe.
 */
final class HeldProvider implements AutoCloseable {
    private final HttpServer server;
    private final CountDownLatch released = new CountDownLatch(1);
    private final AtomicInteger arrived = new AtomicInteger();
    private final String answer;

    HeldProvider() {
        try (InputStream in = HeldProvider.class.getResourceAsStream("/fixtures/anthropic/text.json")) {
            answer = new String(in.readAllBytes(), StandardCharsets.UTF_8).replace("${TEXT_STRING}", "Done.");
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 512);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/", this::handle);
        server.start();
    }

    /** The base URL to configure: {@code http://127.0.0.1:PORT/v1}. */
    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    /** The model calls received so far (each waits until {@link #release}). */
    int arrived() {
        return arrived.get();
    }

    /** Answers every held call, and every later one at once. */
    void release() {
        released.countDown();
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            try (InputStream in = ex.getRequestBody()) {
                in.readAllBytes();
            }
            arrived.incrementAndGet();
            try {
                released.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            byte[] b = answer.getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().add("Content-Type", "application/json");
            ex.sendResponseHeaders(200, b.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(b);
            }
        }
    }

    @Override
    public void close() {
        release();
        server.stop(0);
    }
}
